// The bell in the header: the unread count, and a panel with the newest notifications (each leads
// to its conversation and is marked read), "Mark all read", and the sound and desktop switches.
// Kept current over the socket; the list is read again after the socket was down.
import { useEffect } from "preact/hooks";
import { shortAge } from "../lib/format.ts";
import { live } from "../lib/live.ts";
import {
  alerts,
  loadNotifications,
  markAllRead,
  markRead,
  notifications,
  received,
  setAlert,
  type AppNotification,
} from "../lib/notifications.ts";
import { navigate } from "../lib/router.ts";
import { paths } from "../lib/routes.ts";
import { unreadNotifications } from "../lib/title.ts";
import { Disclosure } from "./Disclosure.tsx";
import { t } from "../lib/i18n.ts";

export function NotificationBell({ accountId }: { accountId: number }) {
  useEffect(() => {
    const reload = () => void loadNotifications(accountId).catch(() => undefined);
    reload();
    return live.watchNotifications(accountId, { onCreated: (data) => received(accountId, data), reload });
  }, [accountId]);
  const unread = unreadNotifications.value;
  const items = notifications.value?.accountId === accountId ? notifications.value.items : [];
  const open = (n: AppNotification) => {
    void markRead(accountId, n).catch(() => undefined);
    navigate(paths.conversation(accountId, n.primary_actor.id));
  };
  const button = (
    <>
      <svg class="bell-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2.5 15a2.5 2.5 0 0 0 5 0"
          fill="none"
          stroke="currentColor"
          stroke-width="1.8"
          stroke-linejoin="round"
        />
      </svg>
      {unread > 0 && (
        <span class="count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </>
  );
  return (
    <Disclosure
      id="notifications-panel"
      class="notification-bell"
      button={button}
      label={t("notifications.label", { count: unread })}
    >
      <div class="card-head">
        <h2 id="notifications-title">{t("notifications.title")}</h2>
        <button
          type="button"
          class="small"
          disabled={unread === 0}
          onClick={() => void markAllRead(accountId).catch(() => undefined)}
        >
          {t("notifications.mark_all")}
        </button>
      </div>
      {items.length === 0 ? (
        <p class="hint">{t("notifications.empty")}</p>
      ) : (
        <ul class="notification-list" aria-labelledby="notifications-title">
          {items.map((n) => (
            <li key={n.id} class={n.read_at === null ? "unread" : undefined}>
              <button type="button" class="notification" onClick={() => open(n)}>
                <span>{n.push_message_title}</span>
                <span class="hint">
                  {n.read_at === null ? t("notifications.unread") : ""}
                  {shortAge(n.created_at)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <label class="check">
        <input
          type="checkbox"
          checked={alerts.value.sound}
          onChange={(e) => void setAlert("sound", e.currentTarget.checked)}
        />
        <span>{t("notifications.sound")}</span>
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={alerts.value.desktop}
          onChange={(e) => void setAlert("desktop", e.currentTarget.checked)}
        />
        <span>{t("notifications.desktop")}</span>
      </label>
    </Disclosure>
  );
}
