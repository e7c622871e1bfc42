// Agents' notifications are made by a durable bus listener: after the commit of the event that
// concerns them, off the request path, resumed from its cursor after a restart. Once the
// notifications themselves have committed, each is announced to its user's open sockets
// (src/realtime/notification-frames.ts: notification.created).
import type { Commits } from "../../db/tx.ts";
import type { NotificationCreated, NotificationsService } from "../../domain/notifications.service.ts";
import type { DurableListener } from "../bus.ts";

export const NOTIFICATIONS_LISTENER = "notifications";

export interface NotificationsListenerDeps {
  service: NotificationsService;
  commits: Commits;
  /** Tells the user's open sockets, wherever they are connected. */
  announce(created: NotificationCreated): void;
  /** Once the notifications have committed: wakes the push relay for the pushes queued with them. */
  committed?: () => void;
}

export function notificationsListener(d: NotificationsListenerDeps): DurableListener {
  return {
    name: NOTIFICATIONS_LISTENER,
    async handle(event) {
      const created = await d.service.handle(event);
      if (created.length === 0) return;
      await d.commits.settled(); // never tell a socket of a notification that was not saved
      d.committed?.();
      for (const c of created) d.announce(c);
    },
  };
}
