import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";
import type { ChannelType } from "./channel-types.ts";
import { MemberTable } from "./member-table.ts";

/** An inbox row as stored; booleans are 0/1, JSON columns are text. */
export interface InboxRow {
  id: number;
  account_id: number;
  name: string;
  channel_type: ChannelType;
  identifier: string | null;
  hmac_token: string | null;
  /** API inboxes: the secret that signs callbacks to webhook_url (administrators see it). */
  webhook_secret: string | null;
  hmac_mandatory: number;
  webhook_url: string | null;
  channel_attributes: string;
  greeting_enabled: number;
  greeting_message: string | null;
  out_of_office_message: string | null;
  working_hours_enabled: number;
  working_hours: string;
  timezone: string;
  csat_survey_enabled: number;
  csat_config: string;
  lock_to_single_conversation: number;
  allow_messages_after_resolved: number;
  enable_auto_assignment: number;
  enable_email_collect: number;
  auto_assignment_config: string;
  sender_name_type: "friendly" | "professional";
  business_name: string | null;
  created_at: number;
  updated_at: number;
}

/** The columns a create or an update writes (everything but the ids and timestamps). */
export type InboxFields = Omit<InboxRow, "id" | "account_id" | "created_at" | "updated_at">;

const FIELDS: (keyof InboxFields)[] = [
  "name",
  "channel_type",
  "identifier",
  "hmac_token",
  "webhook_secret",
  "hmac_mandatory",
  "webhook_url",
  "channel_attributes",
  "greeting_enabled",
  "greeting_message",
  "out_of_office_message",
  "working_hours_enabled",
  "working_hours",
  "timezone",
  "csat_survey_enabled",
  "csat_config",
  "lock_to_single_conversation",
  "allow_messages_after_resolved",
  "enable_auto_assignment",
  "enable_email_collect",
  "auto_assignment_config",
  "sender_name_type",
  "business_name",
];

export class InboxesRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly listStmt: TwoWayStatement;
  private readonly listForMemberStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  /** Which users are members of which inbox. */
  readonly members: MemberTable;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO inboxes (account_id, ${FIELDS.join(", ")}, created_at, updated_at)
       VALUES ($account_id, ${FIELDS.map((f) => `$${f}`).join(", ")}, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE inboxes SET ${FIELDS.map((f) => `${f} = $${f}`).join(", ")}, updated_at = $now
       WHERE account_id = $account_id AND id = $id`,
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM inboxes WHERE account_id = $account_id AND id = $id");
    this.listStmt = new TwoWayStatement(
      db,
      "SELECT * FROM inboxes WHERE account_id = $account_id ORDER BY name COLLATE NOCASE, id",
    );
    this.listForMemberStmt = new TwoWayStatement(
      db,
      `SELECT i.* FROM inboxes i JOIN inbox_members m ON m.inbox_id = i.id AND m.user_id = $user_id
       WHERE i.account_id = $account_id ORDER BY i.name COLLATE NOCASE, i.id`,
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM inboxes WHERE account_id = $account_id AND id = $id");
    this.members = new MemberTable(db, "inbox_members", "inbox_id");
  }

  *insertSteps(accountId: number, fields: InboxFields, now: number): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, ...pick(fields), now });
  }

  *updateSteps(accountId: number, id: number, fields: InboxFields, now: number): Reads<void> {
    yield this.updateStmt.write({ account_id: accountId, id, ...pick(fields), now });
  }

  byId(accountId: number, id: number): InboxRow | null {
    return (this.byIdStmt.statement.get({ account_id: accountId, id }) as InboxRow | null) ?? null;
  }

  *readById(accountId: number, id: number): Reads<InboxRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as InboxRow | null;
  }

  list(accountId: number): InboxRow[] {
    return this.listStmt.statement.all({ account_id: accountId }) as InboxRow[];
  }

  /** The inboxes a user sees: every one for an administrator, else those they are a member of. */
  *readVisible(accountId: number, userId: number | null): Reads<InboxRow[]> {
    if (userId === null) return (yield this.listStmt.all({ account_id: accountId })) as InboxRow[];
    return (yield this.listForMemberStmt.all({ account_id: accountId, user_id: userId })) as InboxRow[];
  }

  /** Deletes the inbox; inbox_members go with it (ON DELETE CASCADE). */
  *deleteSteps(accountId: number, id: number): Reads<void> {
    yield this.deleteStmt.write({ account_id: accountId, id });
  }
}

/** Only the writable columns: a full row passed as fields must not bind id/timestamps twice. */
function pick(fields: InboxFields): InboxFields {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = fields[f];
  return out as InboxFields;
}
