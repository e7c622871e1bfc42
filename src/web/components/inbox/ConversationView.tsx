// The open conversation: who it is with and where, its status, the status actions and macros, the
// thread, and the reply box. On phones it is a screen of its own, with a way back to the list. When
// the account has dashboard apps, tabs switch between the thread and each app's page.
import { useSignal, type Signal } from "@preact/signals";
import { dashboardApps } from "../../lib/dashboard-apps.ts";
import { inboxName } from "../../lib/directory.ts";
import { dateTime } from "../../lib/format.ts";
import { paths } from "../../lib/routes.ts";
import { thread } from "../../lib/thread.ts";
import type { Conversation } from "../../lib/types.ts";
import { Link } from "../Link.tsx";
import { DashboardAppFrame } from "./DashboardAppFrame.tsx";
import { MacroMenu } from "./MacroMenu.tsx";
import { MessageThread } from "./MessageThread.tsx";
import { ReplyBox } from "./ReplyBox.tsx";
import { TypingLine } from "./TypingLine.tsx";
import { StatusActions } from "./StatusActions.tsx";
import { t } from "../../lib/i18n.ts";

export const THREAD_HEADING_ID = "thread-title";

function statusText(c: Conversation): string {
  if (c.status === "snoozed")
    return c.snoozed_until
      ? t("thread.snoozed_until", { time: dateTime(Date.parse(c.snoozed_until) / 1000) })
      : t("thread.snoozed_reply");
  return t(`status.${c.status}`);
}

interface Props {
  accountId: number;
  detailsOpen: Signal<boolean>;
}

export function ConversationView({ accountId, detailsOpen }: Props) {
  const actionError = useSignal<string | null>(null);
  // The app tab chosen, for the conversation it was chosen in: another conversation opens on its
  // messages (as in Chatwoot).
  const chosen = useSignal<{ conversationId: number; appId: number } | null>(null);
  const s = thread.value;
  if (!s) return null;
  if (s.error && !s.conversation) {
    return (
      <div class="thread-empty">
        <p role="alert">{s.error}</p>
        <Link href={paths.dashboard(accountId)}>{t("thread.back")}</Link>
      </div>
    );
  }
  const c = s.conversation;
  if (!c)
    return (
      <p class="thread-empty" role="status">
        {t("thread.loading")}
      </p>
    );
  const name = c.meta.sender.name || t("item.unknown");
  const loaded = dashboardApps.value;
  const apps = loaded?.accountId === accountId ? loaded.apps : [];
  const pick = chosen.value;
  // An app deleted meanwhile is simply no longer there: the messages show.
  const app = (pick?.conversationId === c.id && apps.find((a) => a.id === pick.appId)) || null;
  return (
    <>
      <header class="thread-header">
        <Link href={paths.dashboard(accountId)} class="back-link">
          <span aria-hidden="true">←</span> {t("inbox.title")}
        </Link>
        <div class="thread-title">
          <h2 id={THREAD_HEADING_ID} tabIndex={-1}>
            {name}
          </h2>
          <p class="thread-sub">
            #{c.id} · {inboxName(c.inbox_id)} · <span class={`status-text status-${c.status}`}>{statusText(c)}</span>
            {c.muted && t("thread.blocked")}
          </p>
        </div>
        <StatusActions conversation={c} onError={(m) => (actionError.value = m)} />
        <MacroMenu accountId={accountId} conversationId={c.id} onError={(m) => (actionError.value = m)} />
        <button
          type="button"
          class="details-toggle"
          aria-expanded={detailsOpen.value}
          aria-controls="details-panel"
          onClick={() => (detailsOpen.value = !detailsOpen.value)}
        >
          {t("thread.details")}
        </button>
      </header>
      {actionError.value && (
        <p class="alert thread-alert" role="alert">
          {actionError.value}
        </p>
      )}
      {apps.length > 0 && (
        <div class="assignee-tabs thread-tabs" role="group" aria-label={t("apps.views")}>
          <button type="button" class="tab-button" aria-pressed={!app} onClick={() => (chosen.value = null)}>
            {t("apps.messages")}
          </button>
          {apps.map((a) => (
            <button
              key={a.id}
              type="button"
              class="tab-button"
              aria-pressed={app?.id === a.id}
              onClick={() => (chosen.value = { conversationId: c.id, appId: a.id })}
            >
              {a.title}
            </button>
          ))}
        </div>
      )}
      {app ? (
        <DashboardAppFrame app={app} conversation={c} />
      ) : (
        <>
          <MessageThread contactName={name} />
          <TypingLine />
          <ReplyBox
            key={c.id}
            accountId={accountId}
            contactName={name}
            typingUrl={`/api/v1/accounts/${accountId}/conversations/${c.id}/toggle_typing_status`}
          />
        </>
      )}
    </>
  );
}
