// The questions the realtime stream asks: who holds a pubsub token, who may see an account's and
// an inbox's events (asked once per batch of events, not once per socket), and the agents'
// availability settings for presence.
import type { Database } from "bun:sqlite";
import type { ContactInboxRow } from "./contact-inboxes.repo.ts";
import { type Reads, readNow, TwoWayStatement } from "./reads.ts";
import type { MembershipRow, UserRow } from "./users.repo.ts";

export interface ContactInboxWithAccount extends ContactInboxRow {
  account_id: number;
}

export type AccountMember = Pick<MembershipRow, "user_id" | "role" | "availability" | "auto_offline">;

export class RealtimeRepo {
  private readonly userByPubsubStmt: TwoWayStatement;
  private readonly contactInboxByPubsubStmt: TwoWayStatement;
  private readonly membersStmt: TwoWayStatement;
  private readonly inboxMembersStmt: TwoWayStatement;

  constructor(db: Database) {
    this.userByPubsubStmt = new TwoWayStatement(db, "SELECT * FROM users WHERE pubsub_token = $token");
    // The inbox's account by a rowid lookup in a scalar subquery, not a join: a join's plan follows
    // the statistics; single-row lookups and named indexes do not (test/db/planner-statistics.test.ts).
    this.contactInboxByPubsubStmt = new TwoWayStatement(
      db,
      "SELECT ci.*, (SELECT account_id FROM inboxes WHERE id = ci.inbox_id) AS account_id FROM contact_inboxes ci WHERE ci.pubsub_token = $token",
    );
    this.membersStmt = new TwoWayStatement(
      db,
      "SELECT user_id, role, availability, auto_offline FROM account_users INDEXED BY sqlite_autoindex_account_users_1 WHERE account_id = $account_id",
    );
    this.inboxMembersStmt = new TwoWayStatement(db, "SELECT user_id FROM inbox_members WHERE inbox_id = $inbox_id");
  }

  userByPubsubToken(token: string): UserRow | null {
    return (this.userByPubsubStmt.statement.get({ token }) as UserRow | null) ?? null;
  }

  *readUserByPubsubToken(token: string): Reads<UserRow | null> {
    return (yield this.userByPubsubStmt.get({ token })) as UserRow | null;
  }

  contactInboxByPubsubToken(token: string): ContactInboxWithAccount | null {
    return readNow(this.readContactInboxByPubsubToken(token));
  }

  *readContactInboxByPubsubToken(token: string): Reads<ContactInboxWithAccount | null> {
    return (yield this.contactInboxByPubsubStmt.get({ token })) as ContactInboxWithAccount | null;
  }

  /** Every member of the account with role and availability settings, by user id. */
  accountMembers(accountId: number): Map<number, AccountMember> {
    return readNow(this.readAccountMembers(accountId));
  }

  *readAccountMembers(accountId: number): Reads<Map<number, AccountMember>> {
    const map = new Map<number, AccountMember>();
    for (const m of (yield this.membersStmt.all({ account_id: accountId })) as AccountMember[]) map.set(m.user_id, m);
    return map;
  }

  inboxMemberIds(inboxId: number): Set<number> {
    return readNow(this.readInboxMemberIds(inboxId));
  }

  *readInboxMemberIds(inboxId: number): Reads<Set<number>> {
    return new Set(
      ((yield this.inboxMembersStmt.all({ inbox_id: inboxId })) as { user_id: number }[]).map((r) => r.user_id),
    );
  }
}
