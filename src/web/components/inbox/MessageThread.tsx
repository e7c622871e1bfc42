// The thread: older messages on request ("Load older"), newest at the bottom. It opens scrolled to
// the newest message, follows new ones while the reader is at the bottom (and always after sending
// one), and keeps its place when older ones are added above.
import { useLayoutEffect, useRef } from "preact/hooks";
import { loadOlder, thread } from "../../lib/thread.ts";
import type { Message } from "../../lib/types.ts";
import { MessageItem } from "./MessageItem.tsx";
import { t } from "../../lib/i18n.ts";

/** The loaded message a reply quotes (content_attributes.in_reply_to), if it is in the thread. */
function quotedBy(m: Message, byId: Map<number, Message>): Message | undefined {
  const id = m.content_attributes.in_reply_to;
  return typeof id === "number" ? byId.get(id) : undefined;
}

export function MessageThread({ contactName }: { contactName: string }) {
  const s = thread.value!;
  const scroller = useRef<HTMLDivElement>(null);
  const seen = useRef({ conversationId: 0, firstId: 0, lastId: 0, height: 0, sent: 0 });
  const firstId = s.messages[0]?.id ?? 0;
  const lastId = s.messages.at(-1)?.id ?? 0;
  const byId = new Map(s.messages.map((m) => [m.id, m]));

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const before = seen.current;
    if (before.conversationId !== s.conversationId || s.sent !== before.sent) el.scrollTop = el.scrollHeight;
    else if (firstId < before.firstId)
      el.scrollTop += el.scrollHeight - before.height; // older ones went in above
    else if (lastId > before.lastId && before.height - el.scrollTop - el.clientHeight < 80)
      el.scrollTop = el.scrollHeight;
    seen.current = { conversationId: s.conversationId, firstId, lastId, height: el.scrollHeight, sent: s.sent };
  }, [s.conversationId, firstId, lastId, s.sent]);

  return (
    <div class="thread-scroll" ref={scroller} tabIndex={0} role="region" aria-label={t("thread.messages")}>
      {s.hasOlder && (
        <button
          type="button"
          class="load-older"
          onClick={() => void loadOlder()}
          aria-disabled={s.loadingOlder ? "true" : undefined}
        >
          {s.loadingOlder ? t("common.loading") : t("thread.load_older")}
        </button>
      )}
      {s.messages.length === 0 && s.conversation && <p class="list-empty">{t("thread.empty")}</p>}
      <ol class="messages">
        {s.messages.map((m) => (
          <MessageItem key={m.id} message={m} contactName={contactName} replyTo={quotedBy(m, byId)} />
        ))}
      </ol>
    </div>
  );
}
