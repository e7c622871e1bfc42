// Resolve or reopen (the frequent one, a button), and in a menu beside it: mark pending, mark
// unread (and go back to the list, which would otherwise mark it seen again), or snooze until the
// customer replies, for an hour, until tomorrow, next week, or a chosen time.
import { useSignal } from "@preact/signals";
import { announce } from "../../lib/announce.ts";
import { localInputValue } from "../../lib/format.ts";
import { navigate } from "../../lib/router.ts";
import { paths } from "../../lib/routes.ts";
import { snoozeChoices } from "../../lib/snooze.ts";
import { conversationAction, describeError, markUnread, thread } from "../../lib/thread.ts";
import type { Conversation, ConversationStatus } from "../../lib/types.ts";
import { Disclosure } from "../Disclosure.tsx";
import { t } from "../../lib/i18n.ts";

export async function setStatus(status: ConversationStatus, snoozedUntil?: number): Promise<void> {
  await conversationAction(
    "toggle_status",
    snoozedUntil === undefined ? { status } : { status, snoozed_until: snoozedUntil },
  );
}

export function StatusActions({
  conversation: c,
  onError,
}: {
  conversation: Conversation;
  onError: (message: string | null) => void;
}) {
  const custom = useSignal("");
  const busy = useSignal(false);
  const guarded = async (action: () => Promise<void>, failure: string) => {
    if (busy.value) return;
    busy.value = true;
    onError(null);
    try {
      await action();
    } catch (e) {
      onError(describeError(e, failure));
    } finally {
      busy.value = false;
    }
  };
  const run = (status: ConversationStatus, until?: number) =>
    guarded(() => setStatus(status, until), t("actions.status_failed"));
  const unread = () =>
    guarded(async () => {
      const accountId = thread.value?.accountId;
      await markUnread();
      if (accountId !== undefined) navigate(paths.dashboard(accountId));
      // This menu leaves with the conversation: the list's heading takes focus once it shows alone.
      requestAnimationFrame(() => document.getElementById("list-title")?.focus());
      announce(t("actions.marked_unread"));
    }, t("actions.unread_failed"));
  const resolved = c.status === "resolved";
  const submitCustom = (e: SubmitEvent) => {
    e.preventDefault();
    const at = new Date(custom.value).getTime();
    if (Number.isNaN(at) || at <= Date.now()) return onError(t("actions.future"));
    void run("snoozed", Math.floor(at / 1000));
  };
  return (
    <div class="status-actions">
      <button
        type="button"
        class={resolved ? "" : "primary"}
        aria-disabled={busy.value ? "true" : undefined}
        onClick={() => void run(resolved ? "open" : "resolved")}
      >
        {resolved ? t("actions.reopen") : t("actions.resolve")}
      </button>
      <Disclosure
        id="status-menu"
        class="status-menu"
        label={t("actions.more_label")}
        button={<span>{t("actions.more")}</span>}
        closeOnChoice
      >
        <ul class="menu-list">
          {c.status !== "pending" && (
            <li>
              <button type="button" onClick={() => void run("pending")}>
                {t("actions.pending")}
              </button>
            </li>
          )}
          {c.status !== "open" && !resolved && (
            <li>
              <button type="button" onClick={() => void run("open")}>
                {t("actions.reopen")}
              </button>
            </li>
          )}
          <li>
            <button type="button" onClick={() => void unread()}>
              {t("actions.unread")}
            </button>
          </li>
        </ul>
        <p class="menu-title" id="snooze-title">
          {t("actions.snooze")}
        </p>
        <ul class="menu-list" aria-labelledby="snooze-title">
          {snoozeChoices(new Date()).map((s) => (
            <li key={s.label}>
              <button type="button" onClick={() => void run("snoozed", s.until ?? undefined)}>
                {s.label}
              </button>
            </li>
          ))}
        </ul>
        <form class="snooze-custom" onSubmit={submitCustom}>
          <label for="snooze-until">{t("actions.until_time")}</label>
          <input
            id="snooze-until"
            type="datetime-local"
            min={localInputValue(new Date())}
            value={custom.value}
            onInput={(e) => (custom.value = e.currentTarget.value)}
          />
          <button type="submit">{t("actions.snooze")}</button>
        </form>
      </Disclosure>
    </div>
  );
}
