// One message of the thread. Incoming ones sit on the left, outgoing on the right, private notes
// on the right in a note colour and say so in words, activity lines are centred. Text is shown as
// text (never as HTML), with its line breaks.
import { dateTime, oneLine, time } from "../../lib/format.ts";
import type { Message } from "../../lib/types.ts";
import { Attachments } from "./Attachments.tsx";
import { CsatAnswer } from "./CsatAnswer.tsx";
import { mentionsAsText } from "../../../shared/mentions.ts";
import { RichText } from "./RichText.tsx";
import { t } from "../../lib/i18n.ts";

function kindOf(m: Message): "incoming" | "outgoing" | "note" | "activity" {
  if (m.message_type === 2) return "activity";
  if (m.private) return "note";
  return m.message_type === 0 ? "incoming" : "outgoing";
}

const WHO = {
  incoming: "message.contact",
  outgoing: "message.reply",
} as const;

/** The start of a quoted message's text (or that it is a file), on one line. */
function quoteOf(q: Message): string {
  const text = oneLine(q.content);
  if (!text) return q.attachments?.length ? t("item.attachment") : "…";
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

export function MessageItem({
  message: m,
  contactName,
  replyTo,
}: {
  message: Message;
  contactName: string;
  /** The message this one quotes (content_attributes.in_reply_to), when the thread has it. */
  replyTo?: Message | undefined;
}) {
  const kind = kindOf(m);
  const when = (
    <time dateTime={new Date(m.created_at * 1000).toISOString()} title={dateTime(m.created_at)}>
      {time(m.created_at)}
    </time>
  );
  if (kind === "activity") {
    return (
      <li class="message activity" data-message-id={m.id}>
        <p>
          {m.content} <span class="message-time">{when}</span>
        </p>
      </li>
    );
  }
  const sender = kind === "incoming" ? contactName : (m.sender?.available_name ?? m.sender?.name ?? "Parley");
  const deleted = m.content_attributes.deleted === true;
  const failed = m.status === "failed";
  const error = m.content_attributes.external_error;
  // An email keeps the history its mail program quoted under the new text: shown collapsed.
  const quoted = (m.content_attributes.email as { text_content?: { quoted?: unknown } } | undefined)?.text_content
    ?.quoted;
  return (
    <li class={`message ${kind}`} data-message-id={m.id}>
      <div class="bubble">
        <p class="message-head">
          <span class="message-sender">{sender}</span>
          {kind === "note" && <span class="note-tag">{t("message.note")}</span>}
          <span class="visually-hidden">{kind !== "note" && `, ${t(WHO[kind])}`}</span>
        </p>
        {replyTo && (
          <blockquote class="reply-quote" data-quotes={replyTo.id}>
            <span class="visually-hidden">{t("message.in_reply_to")}: </span>
            {quoteOf(replyTo)}
          </blockquote>
        )}
        {m.content !== null && m.content !== "" && (
          <RichText class={deleted ? "message-text deleted" : "message-text"} text={mentionsAsText(m.content)} />
        )}
        {m.content_type === "input_csat" && <CsatAnswer message={m} />}
        {typeof quoted === "string" && quoted !== "" && (
          <details class="quoted-mail">
            <summary>{t("mail.quoted")}</summary>
            <p class="message-text">{quoted}</p>
          </details>
        )}
        {m.attachments && m.attachments.length > 0 && <Attachments items={m.attachments} />}
        <p class="message-foot">
          {when}
          {failed && (
            <span class="message-failed">
              {typeof error === "string" && error
                ? t("message.not_delivered_because", { error })
                : t("message.not_delivered")}
            </span>
          )}
        </p>
      </div>
    </li>
  );
}
