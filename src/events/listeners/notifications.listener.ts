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

/** The key of announcements whose notifications were committed when they were made. */
const COMMITTED = Promise.resolve();

export function notificationsListener(d: NotificationsListenerDeps): DurableListener {
  // Announcements waiting for their notifications' commit, with that commit.
  const pending: { commit: Promise<void>; announced: Promise<void> }[] = [];
  return {
    name: NOTIFICATIONS_LISTENER,
    async handle(event) {
      const created = await d.service.handle(event);
      if (created.length === 0) return;
      // Not awaited here: on SQLite the write group stays open while the bus goes on to the next
      // event, so a batch's notifications (and the bus's cursor after them) share one commit, where
      // waiting made a commit per notification, one per customer message. The bus calls flush().
      const commit = d.commits.settled() ?? COMMITTED;
      const announced = commit.then(() => {
        d.committed?.();
        // Never tell a socket of a notification that was not saved.
        for (const c of created) d.announce(c);
      });
      announced.catch(() => {}); // heard by flush(), not as an unhandled rejection meanwhile
      pending.push({ commit, announced });
    },
    async flush(open) {
      // The open group's need no wait: the cursor joins it, so both are committed or undone together.
      for (const { commit, announced } of pending.splice(0)) if (commit !== open) await announced;
    },
  };
}
