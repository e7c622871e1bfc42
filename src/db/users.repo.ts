import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export type Role = "agent" | "administrator";

export interface UserRow {
  id: number;
  name: string;
  display_name: string | null;
  email: string;
  password_hash: string | null;
  pubsub_token: string;
  confirmed: number;
  created_at: number;
  updated_at: number;
  /** Added below their replies when they sign them (migration 029); absent from some narrower reads. */
  message_signature?: string | null;
}

export interface MembershipRow {
  account_id: number;
  user_id: number;
  role: Role;
  availability: "online" | "offline" | "busy";
  auto_offline: number;
  created_at: number;
  /** When the user last made this their active account (unix seconds; migration 023). */
  active_at: number | null;
}

export interface UserAccountRow extends MembershipRow {
  account_name: string;
  account_status: string;
}

type NewUser = { name: string; email: string; pubsub_token: string; now: number };
type NewMembership = { account_id: number; user_id: number; role: Role; now: number };

export class UsersRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byEmailStmt: TwoWayStatement;
  private readonly markUnconfirmedStmt: TwoWayStatement;
  private readonly setSignatureStmt: TwoWayStatement;
  private readonly membershipStmt: TwoWayStatement;
  private readonly addMembershipStmt: TwoWayStatement;
  private readonly accountsOfStmt: TwoWayStatement;
  private readonly setPasswordStmt: TwoWayStatement;
  private readonly setPubsubStmt: TwoWayStatement;
  private readonly setActiveAtStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      "INSERT INTO users (name, email, pubsub_token, created_at, updated_at) VALUES ($name, $email, $pubsub_token, $now, $now)",
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM users WHERE id = $id");
    this.byEmailStmt = new TwoWayStatement(db, "SELECT * FROM users WHERE email = $email");
    this.markUnconfirmedStmt = new TwoWayStatement(
      db,
      "UPDATE users SET confirmed = 0 WHERE id = $id AND password_hash IS NULL",
    );
    this.setSignatureStmt = new TwoWayStatement(db, "UPDATE users SET message_signature = $signature WHERE id = $id");
    this.membershipStmt = new TwoWayStatement(
      db,
      "SELECT * FROM account_users WHERE account_id = $account_id AND user_id = $user_id",
    );
    this.addMembershipStmt = new TwoWayStatement(
      db,
      "INSERT INTO account_users (account_id, user_id, role, created_at) VALUES ($account_id, $user_id, $role, $now)",
    );
    this.accountsOfStmt = new TwoWayStatement(
      db,
      `SELECT au.*, a.name AS account_name, a.status AS account_status
       FROM account_users au JOIN accounts a ON a.id = au.account_id
       WHERE au.user_id = $user_id ORDER BY au.account_id`,
    );
    this.setActiveAtStmt = new TwoWayStatement(
      db,
      "UPDATE account_users SET active_at = $now WHERE account_id = $account_id AND user_id = $user_id",
    );
    this.setPubsubStmt = new TwoWayStatement(
      db,
      "UPDATE users SET pubsub_token = $pubsub_token, updated_at = $now WHERE id = $id",
    );
    // A new password also gives the user a new pubsub_token: sockets holding the old one are closed.
    this.setPasswordStmt = new TwoWayStatement(
      db,
      "UPDATE users SET password_hash = $password_hash, pubsub_token = $pubsub_token, confirmed = 1, updated_at = $now WHERE id = $id",
    );
  }

  insert(u: NewUser): number {
    return Number(this.insertStmt.statement.run(u).lastInsertRowid);
  }

  *insertSteps(u: NewUser): Reads<number> {
    return yield* this.insertStmt.insertSteps(u);
  }

  byId(id: number): UserRow | null {
    return (this.byIdStmt.statement.get({ id }) as UserRow | null) ?? null;
  }

  *readById(id: number): Reads<UserRow | null> {
    return (yield this.byIdStmt.get({ id })) as UserRow | null;
  }

  byEmail(email: string): UserRow | null {
    return (this.byEmailStmt.statement.get({ email }) as UserRow | null) ?? null;
  }

  *readByEmail(email: string): Reads<UserRow | null> {
    return (yield this.byEmailStmt.get({ email })) as UserRow | null;
  }

  membership(accountId: number, userId: number): MembershipRow | null {
    const row = this.membershipStmt.statement.get({ account_id: accountId, user_id: userId });
    return (row as MembershipRow | null) ?? null;
  }

  *readMembership(accountId: number, userId: number): Reads<MembershipRow | null> {
    return (yield this.membershipStmt.get({ account_id: accountId, user_id: userId })) as MembershipRow | null;
  }

  addMembership(m: NewMembership): void {
    this.addMembershipStmt.statement.run(m);
  }

  *addMembershipSteps(m: NewMembership): Reads<void> {
    yield this.addMembershipStmt.write(m);
  }

  *readAccountsOf(userId: number): Reads<UserAccountRow[]> {
    return (yield this.accountsOfStmt.all({ user_id: userId })) as UserAccountRow[];
  }

  /** A new realtime pubsub_token: sockets holding the old one are closed. */
  *setPubsubTokenSteps(id: number, pubsubToken: string, now: number): Reads<void> {
    yield this.setPubsubStmt.write({ id, pubsub_token: pubsubToken, now });
  }

  *setMessageSignatureSteps(id: number, signature: string | null): Reads<void> {
    yield this.setSignatureStmt.write({ id, signature });
  }

  /** An invited agent who has not chosen a password yet is unconfirmed (Chatwoot's agent `confirmed`). */
  *markUnconfirmedSteps(id: number): Reads<void> {
    yield this.markUnconfirmedStmt.write({ id });
  }

  *setActiveAtSteps(accountId: number, userId: number, now: number): Reads<void> {
    yield this.setActiveAtStmt.write({ account_id: accountId, user_id: userId, now });
  }

  /** The new password's hash; a user with a password is confirmed (Chatwoot's "verification pending" ends). */
  *setPasswordHashSteps(id: number, passwordHash: string, pubsubToken: string, now: number): Reads<void> {
    yield this.setPasswordStmt.write({ id, password_hash: passwordHash, pubsub_token: pubsubToken, now });
  }
}
