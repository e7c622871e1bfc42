// Agents' notifications are made by a durable bus listener: after the commit of the event that
// concerns them, off the request path, resumed from its cursor after a restart. Once the
// notifications themselves have committed, each user's open sockets hear notification.created.
import type { Commits } from "../../db/tx.ts";
import type { NotificationCreated, NotificationsService } from "../../domain/notifications.service.ts";
import type { DurableListener } from "../bus.ts";

export const NOTIFICATIONS_LISTENER = "notifications";

export interface NotificationsListenerDeps {
  service: NotificationsService;
  commits: Commits;
  /** Whether the user has a socket open in the account (nobody listening: no push data is read). */
  listening(accountId: number, userId: number): boolean;
  tell(created: NotificationCreated, data: Record<string, unknown>): void;
  /** Once the notifications have committed: wakes the push relay for the pushes queued with them. */
  committed?: () => void;
}

export function notificationsListener(d: NotificationsListenerDeps): DurableListener {
  return {
    name: NOTIFICATIONS_LISTENER,
    async handle(event) {
      const created = d.service.handle(event);
      if (created.length === 0) return;
      await d.commits.settled(); // never tell a socket of a notification that was not saved
      d.committed?.();
      for (const c of created) {
        if (!d.listening(c.accountId, c.userId)) continue;
        const data = d.service.pushData(c);
        if (data) d.tell(c, data);
      }
    },
  };
}
