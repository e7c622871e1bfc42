// Webhook subscriptions, plus the two inbox facts webhooks need (an inbox's name for the webhook
// record, an API inbox's callback URL and signing secret).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface WebhookRow {
  id: number;
  account_id: number;
  inbox_id: number | null;
  url: string;
  name: string | null;
  /** JSON array of event kinds. */
  subscriptions: string;
  secret: string;
  disabled_reason: string | null;
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A webhook row with its inbox's name (null without an inbox). */
export interface WebhookWithInbox extends WebhookRow {
  inbox_name: string | null;
}

export interface WebhookFields {
  inbox_id: number | null;
  url: string;
  name: string | null;
  subscriptions: string;
}

export interface InboxCallback {
  id: number;
  webhook_url: string | null;
  webhook_secret: string | null;
}

const SELECT_WITH_INBOX = "SELECT w.*, i.name AS inbox_name FROM webhooks w LEFT JOIN inboxes i ON i.id = w.inbox_id";

export class WebhooksRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly listStmt: TwoWayStatement;
  private readonly byUrlStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly setSecretStmt: TwoWayStatement;
  private readonly disableStmt: TwoWayStatement;
  private readonly activeStmt: TwoWayStatement;
  private readonly secretStmt: TwoWayStatement;
  private readonly inboxStmt: TwoWayStatement;
  private readonly callbackStmt: TwoWayStatement;
  private readonly setInboxSecretStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO webhooks (account_id, inbox_id, url, name, subscriptions, secret, created_at, updated_at)
       VALUES ($account_id, $inbox_id, $url, $name, $subscriptions, $secret, $now, $now)`,
    );
    this.byIdStmt = new TwoWayStatement(db, `${SELECT_WITH_INBOX} WHERE w.account_id = $account_id AND w.id = $id`);
    this.listStmt = new TwoWayStatement(db, `${SELECT_WITH_INBOX} WHERE w.account_id = $account_id ORDER BY w.id`);
    this.byUrlStmt = new TwoWayStatement(db, "SELECT id FROM webhooks WHERE account_id = $account_id AND url = $url");
    // An administrator saving the webhook has looked at it: that re-enables one a 410 disabled.
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE webhooks SET inbox_id = $inbox_id, url = $url, name = $name, subscriptions = $subscriptions,
         disabled_reason = NULL, disabled_at = NULL, updated_at = $now
       WHERE account_id = $account_id AND id = $id`,
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM webhooks WHERE account_id = $account_id AND id = $id");
    this.setSecretStmt = new TwoWayStatement(
      db,
      "UPDATE webhooks SET secret = $secret, updated_at = $now WHERE account_id = $account_id AND id = $id",
    );
    this.disableStmt = new TwoWayStatement(
      db,
      "UPDATE webhooks SET disabled_reason = $reason, disabled_at = $now, updated_at = $now WHERE id = $id",
    );
    this.activeStmt = new TwoWayStatement(
      db,
      // Sorted in code rather than by SQL: the index is on (account_id, url), so ORDER BY id set up a
      // temporary b-tree for every event of every account, ~4 of its ~6 µs even when it had no webhook.
      // Named, because without the ORDER BY statistics saying "1 row" make SQLite scan the table.
      "SELECT id, url, subscriptions FROM webhooks INDEXED BY webhooks_account_url WHERE account_id = $account_id AND disabled_at IS NULL",
    );
    this.secretStmt = new TwoWayStatement(db, "SELECT secret, disabled_reason FROM webhooks WHERE id = $id");
    this.inboxStmt = new TwoWayStatement(
      db,
      "SELECT id, name FROM inboxes WHERE account_id = $account_id AND id = $id",
    );
    this.callbackStmt = new TwoWayStatement(
      db,
      "SELECT id, webhook_url, webhook_secret FROM inboxes WHERE account_id = $account_id AND id = $id AND channel_type = 'api'",
    );
    this.setInboxSecretStmt = new TwoWayStatement(db, "UPDATE inboxes SET webhook_secret = $secret WHERE id = $id");
  }

  *insertSteps(accountId: number, f: WebhookFields & { secret: string; now: number }): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, ...f });
  }

  *readById(accountId: number, id: number): Reads<WebhookWithInbox | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as WebhookWithInbox | null;
  }

  *readList(accountId: number): Reads<WebhookWithInbox[]> {
    return (yield this.listStmt.all({ account_id: accountId })) as WebhookWithInbox[];
  }

  *readIdByUrl(accountId: number, url: string): Reads<number | null> {
    return ((yield this.byUrlStmt.get({ account_id: accountId, url })) as { id: number } | null)?.id ?? null;
  }

  *updateSteps(accountId: number, id: number, f: WebhookFields & { now: number }): Reads<void> {
    yield this.updateStmt.write({ account_id: accountId, id, ...f });
  }

  *deleteSteps(accountId: number, id: number): Reads<void> {
    yield this.deleteStmt.write({ account_id: accountId, id });
  }

  *setSecretSteps(accountId: number, id: number, secret: string, now: number): Reads<void> {
    yield this.setSecretStmt.write({ account_id: accountId, id, secret, now });
  }

  *disableSteps(id: number, reason: string, now: number): Reads<void> {
    yield this.disableStmt.write({ id, reason, now });
  }

  /** Enabled webhooks of an account, for fan-out. */
  *readActive(accountId: number): Reads<Pick<WebhookRow, "id" | "url" | "subscriptions">[]> {
    const rows = (yield this.activeStmt.all({ account_id: accountId })) as Pick<
      WebhookRow,
      "id" | "url" | "subscriptions"
    >[];
    return rows.length > 1 ? rows.sort((a, b) => a.id - b.id) : rows;
  }

  /** The signing secret at attempt time (a rotation applies to pending retries too); null once deleted. */
  *readSigning(id: number): Reads<{ secret: string; disabled_reason: string | null } | null> {
    return (yield this.secretStmt.get({ id })) as { secret: string; disabled_reason: string | null } | null;
  }

  *readInbox(accountId: number, id: number): Reads<{ id: number; name: string } | null> {
    return (yield this.inboxStmt.get({ account_id: accountId, id })) as { id: number; name: string } | null;
  }

  /** An API inbox's callback settings; null for other channel types or another account's inbox. */
  *readApiInboxCallback(accountId: number, inboxId: number): Reads<InboxCallback | null> {
    return (yield this.callbackStmt.get({ account_id: accountId, id: inboxId })) as InboxCallback | null;
  }

  *setInboxSecretSteps(inboxId: number, secret: string): Reads<void> {
    yield this.setInboxSecretStmt.write({ id: inboxId, secret });
  }
}
