// The conversation: the greeting before the first message, then each message (the visitor's on
// one side, agents' on the other, agents' with markdown-lite), CSAT surveys as buttons, the
// agent's typing, an away email prompt. New messages are announced to screen readers (aria-live).
import { useEffect, useRef } from "preact/hooks";
import type { ChannelConfig, Message } from "../lib/api.ts";
import { fill, type Strings } from "../lib/i18n.ts";
import { Markdown } from "../lib/markdown.tsx";
import type { ChatSession, ChatState } from "../lib/session.ts";
import { Csat } from "./Csat.tsx";
import { EmailPrompt } from "./EmailPrompt.tsx";

function Bubble({ m, t, session, receipt }: { m: Message; t: Strings; session: ChatSession; receipt: boolean }) {
  const mine = m.message_type === 0;
  if (m.content_type === "input_csat") return <Csat m={m} t={t} session={session} />;
  return (
    <li class={`msg ${mine ? "mine" : "theirs"}`} data-id={m.id}>
      {!mine && <span class="who">{m.sender?.available_name || m.sender?.name || t.agent}</span>}
      {m.content && <div class="text">{mine ? m.content : <Markdown text={m.content} />}</div>}
      {m.attachments?.map((a) => (
        <FileItem key={a.id} a={a} />
      ))}
      {receipt && m.status && m.status !== "failed" && (
        <span class="receipt">{m.status === "read" ? t.read : t.sent}</span>
      )}
    </li>
  );
}

/** This server's file links as paths: the chat page loads only from its own origin. */
function ownPath(url: string): string | null {
  try {
    const u = new URL(url, location.href);
    return u.pathname.startsWith("/files/") ? `${u.pathname}${u.search}` : null;
  } catch {
    return null;
  }
}

function FileItem({ a }: { a: NonNullable<Message["attachments"]>[number] }) {
  const path = ownPath(a.data_url);
  if (!path) return null;
  const name = decodeURIComponent(path.split("?")[0]!.split("/").pop() ?? "file");
  return (
    <a class={`file ${a.file_type}`} href={path} target="_blank" rel="noopener noreferrer">
      {a.file_type === "image" ? <img src={path} alt={name} /> : name}
    </a>
  );
}

export function Thread({
  config,
  state,
  t,
  session,
}: {
  config: ChannelConfig;
  state: ChatState;
  t: Strings;
  session: ChatSession;
}) {
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => end.current?.scrollIntoView?.({ block: "end" }), [state.messages.length, state.agentTyping]);
  const greeting = !state.conversation && config.greeting_enabled && config.greeting_message;
  // "Sent" or "Read" under the visitor's last message only (an agent opening the chat reads them all).
  const lastMine = state.messages.findLast((m) => m.message_type === 0)?.id;
  return (
    <section class="thread" aria-label={t.messages}>
      {state.earlier.length > 0 && (
        <details class="earlier">
          <summary>
            {t.earlier} ({state.earlier.length})
          </summary>
          <ul>
            {state.earlier.map((c) => (
              <li key={c.id}>
                <time dateTime={new Date(c.last_activity_at * 1000).toISOString()}>
                  {new Date(c.last_activity_at * 1000).toLocaleDateString(document.documentElement.lang)}
                </time>{" "}
                {c.last_message?.content ? <Markdown text={c.last_message.content} /> : null}
              </li>
            ))}
          </ul>
        </details>
      )}
      <ol aria-live="polite" aria-relevant="additions">
        {greeting && (
          <li class="msg theirs">
            <div class="text">
              <Markdown text={config.greeting_message!} />
            </div>
          </li>
        )}
        {state.messages.map((m) => (
          <Bubble key={m.id} m={m} t={t} session={session} receipt={m.id === lastMine} />
        ))}
        {state.conversation?.status === "resolved" && <li class="note">{t.resolved}</li>}
        <li ref={end} class="typing" aria-hidden={!state.agentTyping}>
          {state.agentTyping !== null && fill(t.typing, { name: state.agentTyping || t.agent })}
        </li>
      </ol>
      {!config.available &&
        config.enable_email_collect &&
        state.conversation &&
        state.contact &&
        !state.contact.email && <EmailPrompt t={t} session={session} />}
    </section>
  );
}
