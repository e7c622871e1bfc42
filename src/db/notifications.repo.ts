// Agents' notifications and their per-user settings (migration 011).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface NotificationRow {
  id: number;
  account_id: number;
  user_id: number;
  notification_type: string;
  conversation_id: number;
  data: string;
  read_at: number | null;
  created_at: number;
  last_activity_at: number;
}

export interface NewNotification {
  accountId: number;
  userId: number;
  type: string;
  conversationId: number;
  data: string;
  at: number;
}

export interface NotificationFlags {
  email_flags: string;
  push_flags: string;
}

export class NotificationsRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly dropOlderStmt: TwoWayStatement;
  private readonly pageStmt: TwoWayStatement;
  private readonly oldestFirstStmt: TwoWayStatement;
  private readonly countStmt: TwoWayStatement;
  private readonly unreadStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly setReadStmt: TwoWayStatement;
  private readonly readAllStmt: TwoWayStatement;
  private readonly readConversationStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly settingsStmt: TwoWayStatement;
  private readonly saveSettingsStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO notifications (account_id, user_id, notification_type, conversation_id, data, created_at, last_activity_at)
       VALUES ($account_id, $user_id, $type, $conversation_id, $data, $at, $at)`,
    );
    this.dropOlderStmt = new TwoWayStatement(
      db,
      "DELETE FROM notifications WHERE conversation_id = $conversation_id AND user_id = $user_id AND notification_type = $type AND id < $id",
    );
    this.pageStmt = new TwoWayStatement(
      db,
      `SELECT * FROM notifications WHERE user_id = $user_id AND account_id = $account_id
       ORDER BY last_activity_at DESC, id DESC LIMIT $limit OFFSET $offset`,
    );
    this.oldestFirstStmt = new TwoWayStatement(
      db,
      `SELECT * FROM notifications WHERE user_id = $user_id AND account_id = $account_id
       ORDER BY last_activity_at ASC, id ASC LIMIT $limit OFFSET $offset`,
    );
    this.countStmt = new TwoWayStatement(
      db,
      "SELECT count(*) AS n FROM notifications WHERE user_id = $user_id AND account_id = $account_id",
    );
    this.unreadStmt = new TwoWayStatement(
      db,
      "SELECT count(*) AS n FROM notifications WHERE user_id = $user_id AND account_id = $account_id AND read_at IS NULL",
    );
    this.byIdStmt = new TwoWayStatement(
      db,
      "SELECT * FROM notifications WHERE id = $id AND user_id = $user_id AND account_id = $account_id",
    );
    this.setReadStmt = new TwoWayStatement(db, "UPDATE notifications SET read_at = $read_at WHERE id = $id");
    this.readAllStmt = new TwoWayStatement(
      db,
      "UPDATE notifications SET read_at = $at WHERE user_id = $user_id AND account_id = $account_id AND read_at IS NULL",
    );
    this.readConversationStmt = new TwoWayStatement(
      db,
      "UPDATE notifications SET read_at = $at WHERE user_id = $user_id AND account_id = $account_id AND conversation_id = $conversation_id AND read_at IS NULL",
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM notifications WHERE id = $id");
    this.settingsStmt = new TwoWayStatement(
      db,
      "SELECT email_flags, push_flags FROM notification_settings WHERE account_id = $account_id AND user_id = $user_id",
    );
    this.saveSettingsStmt = new TwoWayStatement(
      db,
      `INSERT INTO notification_settings (account_id, user_id, email_flags, push_flags) VALUES ($account_id, $user_id, $email, $push)
       ON CONFLICT (account_id, user_id) DO UPDATE SET email_flags = excluded.email_flags, push_flags = excluded.push_flags`,
    );
  }

  /** Inserts one and drops the user's older one of the same type about the same conversation (Chatwoot keeps the latest). */
  *insertSteps(n: NewNotification): Reads<number> {
    const id = yield* this.insertStmt.insertSteps({
      account_id: n.accountId,
      user_id: n.userId,
      type: n.type,
      conversation_id: n.conversationId,
      data: n.data,
      at: n.at,
    });
    yield this.dropOlderStmt.write({ conversation_id: n.conversationId, user_id: n.userId, type: n.type, id });
    return id;
  }

  /** `oldestFirst`: the mobile app's "oldest first" (Chatwoot's sort_order=asc). Read-only routes' (awaited on PostgreSQL). */
  *readPage(accountId: number, userId: number, limit: number, offset: number, oldestFirst: boolean) {
    const stmt = oldestFirst ? this.oldestFirstStmt : this.pageStmt;
    return (yield stmt.all({ account_id: accountId, user_id: userId, limit, offset })) as NotificationRow[];
  }

  *readCount(accountId: number, userId: number): Reads<number> {
    return ((yield this.countStmt.get({ account_id: accountId, user_id: userId })) as { n: number }).n;
  }

  *readUnreadCount(accountId: number, userId: number): Reads<number> {
    return ((yield this.unreadStmt.get({ account_id: accountId, user_id: userId })) as { n: number }).n;
  }

  *readById(accountId: number, userId: number, id: number): Reads<NotificationRow | null> {
    return (yield this.byIdStmt.get({ id, user_id: userId, account_id: accountId })) as NotificationRow | null;
  }

  *setReadSteps(id: number, readAt: number | null): Reads<void> {
    yield this.setReadStmt.write({ id, read_at: readAt });
  }

  *readAllSteps(accountId: number, userId: number, at: number, conversationId: number | null): Reads<void> {
    const p = { account_id: accountId, user_id: userId, at };
    if (conversationId === null) yield this.readAllStmt.write(p);
    else yield this.readConversationStmt.write({ ...p, conversation_id: conversationId });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }

  *readSettings(accountId: number, userId: number): Reads<NotificationFlags | null> {
    return (yield this.settingsStmt.get({ account_id: accountId, user_id: userId })) as NotificationFlags | null;
  }

  *saveSettingsSteps(accountId: number, userId: number, email: string, push: string): Reads<void> {
    yield this.saveSettingsStmt.write({ account_id: accountId, user_id: userId, email, push });
  }
}
