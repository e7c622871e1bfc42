// One row of the conversation list: a link to the conversation with who, where, the last message,
// how long ago, the unread count, the assignee, priority and labels.
import { inboxName } from "../../lib/directory.ts";
import { longAge, oneLine, shortAge, unreadBadge } from "../../lib/format.ts";
import { paths } from "../../lib/routes.ts";
import type { Conversation, Message } from "../../lib/types.ts";
import { Link } from "../Link.tsx";
import { type Key, t } from "../../lib/i18n.ts";

function excerpt(m: Message | null | undefined): string {
  if (!m) return t("item.no_messages");
  const text = oneLine(m.content);
  const prefix = m.private ? t("item.note") : m.message_type === 1 ? t("item.you") : "";
  if (text) return prefix + text;
  return m.attachments?.length ? prefix + t("item.attachment") : t("item.no_text");
}

const PRIORITIES = ["urgent", "high", "medium", "low"];
const priorityText = (p: string) => (PRIORITIES.includes(p) ? t(`priority.${p}` as Key) : p);

interface Props {
  accountId: number;
  conversation: Conversation;
  selected: boolean;
}

export function ConversationItem({ accountId, conversation: c, selected }: Props) {
  const unread = c.unread_count > 0 && !selected;
  const assignee = c.meta.assignee?.available_name;
  return (
    <li class={`conversation-item${selected ? " selected" : ""}${unread ? " unread" : ""}`}>
      <Link href={paths.conversation(accountId, c.id)} current={selected} data-conversation-id={c.id}>
        <span class="item-top">
          <span class="item-name">{c.meta.sender.name || t("item.unknown")}</span>
          <span class="item-age" title={longAge(c.last_activity_at)}>
            <span aria-hidden="true">{shortAge(c.last_activity_at)}</span>
            <span class="visually-hidden">{t("item.last_activity", { age: longAge(c.last_activity_at) })}</span>
          </span>
        </span>
        <span class="item-excerpt">{excerpt(c.last_non_activity_message ?? c.messages[0])}</span>
        <span class="item-meta">
          <span class="item-inbox">
            #{c.id} · {inboxName(c.inbox_id)}
          </span>
          {c.status !== "open" && <span class={`tag status-${c.status}`}>{t(`status.${c.status}`)}</span>}
          {c.priority && <span class={`tag priority-${c.priority}`}>{priorityText(c.priority)}</span>}
          {c.labels.slice(0, 2).map((l) => (
            <span key={l} class="tag label">
              {l}
            </span>
          ))}
          <span class="item-assignee">{`· ${assignee ?? t("item.unassigned")}`}</span>
          {unread && (
            <span class="unread-badge">
              <span aria-hidden="true">{unreadBadge(c.unread_count)}</span>
              <span class="visually-hidden">{t("item.unread", { count: c.unread_count })}</span>
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}
