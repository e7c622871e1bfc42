// notification.created reaches the user's open sockets in whichever process holds them. The
// notifications listener runs in one process (src/lib/lease.ts), while the user's sockets may be
// on any: on PostgreSQL with several processes, each committed notification is announced to every
// process (NOTIFY carrying its ids, small whatever the notification holds), and each one that has a
// socket of the user open reads it and tells them. One process alone tells its own sockets directly.
// A frame is a courtesy (the user's notification list is the record): a failure to announce or to
// tell is logged, never thrown into the listener, which would make the notifications again.
import type { PostgresDatabase } from "../db/postgres/database.ts";
import type { NotificationCreated, NotificationsService } from "../domain/notifications.service.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import { whenReady } from "../lib/when-ready.ts";
import type { RealtimeHub } from "./hub.ts";

const CHANNEL = "parley_notifications";

export interface NotificationFramesDeps {
  hub: RealtimeHub;
  service: NotificationsService;
  logger: Logger;
  /** The database other processes share, whose sockets hear too (a server on PostgreSQL); else null. */
  others: PostgresDatabase | null;
}

/** Announces a committed notification to the sockets of its user, wherever they are connected. */
export function notificationFrames(d: NotificationFramesDeps): (created: NotificationCreated) => void {
  const tellHere = (c: NotificationCreated): void | Promise<void> => {
    if (!d.hub.listening(c.accountId, c.userId)) return; // nobody to tell: no counts are read
    return whenReady(d.service.pushData(c), (data) => {
      if (data) d.hub.tellUser(c.accountId, c.userId, "notification.created", data);
    });
  };
  const safely = (what: string, c: NotificationCreated, fn: () => void | Promise<void>) => {
    const failed = (error: unknown) =>
      d.logger.error(`notification.created not ${what}`, { notification_id: c.notificationId, ...errorFields(error) });
    try {
      void fn()?.catch(failed);
    } catch (error) {
      failed(error);
    }
  };
  const db = d.others;
  if (!db) return (c) => safely("told", c, () => tellHere(c));
  db.onNotice(CHANNEL, (payload) => {
    const c = parseAnnouncement(payload);
    if (c) safely("told", c, () => tellHere(c));
  });
  // Sent on the read pool, not in place: the notification has committed, and the bus goes on meanwhile.
  return (c) => safely("announced", c, () => db.notifySoon(CHANNEL, `${c.accountId} ${c.userId} ${c.notificationId}`));
}

function parseAnnouncement(payload: string): NotificationCreated | null {
  const [accountId, userId, notificationId] = payload.split(" ").map(Number);
  if (!Number.isSafeInteger(accountId) || !Number.isSafeInteger(userId) || !Number.isSafeInteger(notificationId))
    return null;
  return { accountId: accountId!, userId: userId!, notificationId: notificationId! };
}
