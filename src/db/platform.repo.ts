// Platform apps and what each created. An app sees only accounts and users listed here for it.
// Its reads come as Reads (src/db/reads.ts), one form for both: the write paths run them in place,
// the read-only routes await them on PostgreSQL (src/domain/platform-reads.ts).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";
import type { Role } from "./users.repo.ts";

export interface PlatformAppRow {
  id: number;
  name: string;
  created_at: number;
}

export interface PlatformMembershipRow {
  account_id: number;
  user_id: number;
  role: Role;
  availability: string;
  auto_offline: number;
  created_at: number;
}

export class PlatformRepo {
  private readonly insertAppStmt: TwoWayStatement;
  private readonly appByTokenStmt: TwoWayStatement;
  private readonly grantAccountStmt: TwoWayStatement;
  private readonly grantUserStmt: TwoWayStatement;
  private readonly ownsAccountStmt: TwoWayStatement;
  private readonly ownsUserStmt: TwoWayStatement;
  private readonly accountIdsStmt: TwoWayStatement;
  private readonly setAccountStatusStmt: TwoWayStatement;
  private readonly deleteAccountStmt: TwoWayStatement;
  private readonly updateUserStmt: TwoWayStatement;
  private readonly deleteUserStmt: TwoWayStatement;
  private readonly membershipsStmt: TwoWayStatement;
  private readonly setRoleStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertAppStmt = new TwoWayStatement(db, "INSERT INTO platform_apps (name, created_at) VALUES ($name, $now)");
    // A platform app's token: one statement (one round trip on PostgreSQL) of two key lookups. A
    // subquery, not a join: SQLite planned the join as two scans under statistics saying "1 row"
    // (test/db/planner-statistics.test.ts), the subquery as lookups by token_hash and by rowid.
    this.appByTokenStmt = new TwoWayStatement(
      db,
      `SELECT * FROM platform_apps WHERE id =
         (SELECT owner_id FROM access_tokens WHERE token_hash = $token_hash AND owner_type = 'platform_app')`,
    );
    this.grantAccountStmt = new TwoWayStatement(
      db,
      "INSERT INTO platform_app_accounts (platform_app_id, account_id, created_at) VALUES ($app_id, $id, $now) ON CONFLICT DO NOTHING",
    );
    this.grantUserStmt = new TwoWayStatement(
      db,
      "INSERT INTO platform_app_users (platform_app_id, user_id, created_at) VALUES ($app_id, $id, $now) ON CONFLICT DO NOTHING",
    );
    this.ownsAccountStmt = new TwoWayStatement(
      db,
      "SELECT 1 AS yes FROM platform_app_accounts WHERE platform_app_id = $app_id AND account_id = $id",
    );
    this.ownsUserStmt = new TwoWayStatement(
      db,
      "SELECT 1 AS yes FROM platform_app_users WHERE platform_app_id = $app_id AND user_id = $id",
    );
    this.accountIdsStmt = new TwoWayStatement(
      db,
      "SELECT account_id FROM platform_app_accounts WHERE platform_app_id = $app_id",
    );
    this.setAccountStatusStmt = new TwoWayStatement(
      db,
      "UPDATE accounts SET status = $status, updated_at = $now WHERE id = $id",
    );
    // Everything of the account goes with it (its tables reference accounts ON DELETE CASCADE).
    this.deleteAccountStmt = new TwoWayStatement(db, "DELETE FROM accounts WHERE id = $id");
    this.updateUserStmt = new TwoWayStatement(
      db,
      `UPDATE users SET name = $name, display_name = $display_name, email = $email, password_hash = $password_hash, updated_at = $now
       WHERE id = $id`,
    );
    this.deleteUserStmt = new TwoWayStatement(db, "DELETE FROM users WHERE id = $id");
    this.membershipsStmt = new TwoWayStatement(
      db,
      "SELECT * FROM account_users WHERE account_id = $account_id ORDER BY user_id",
    );
    this.setRoleStmt = new TwoWayStatement(
      db,
      "UPDATE account_users SET role = $role WHERE account_id = $account_id AND user_id = $user_id",
    );
  }

  /** Whether the Reads below are awaited by readSoon (PostgreSQL's read pool). */
  get pooled(): boolean {
    return this.appByTokenStmt.pooled;
  }

  *insertAppSteps(name: string, now: number): Reads<number> {
    return yield* this.insertAppStmt.insertSteps({ name, now });
  }

  /** The app whose token has this hash (a user's token opens none). */
  *readAppByToken(tokenHash: string): Reads<PlatformAppRow | null> {
    return (yield this.appByTokenStmt.get({ token_hash: tokenHash })) as PlatformAppRow | null;
  }

  *grantAccountSteps(appId: number, accountId: number, now: number): Reads<void> {
    yield this.grantAccountStmt.write({ app_id: appId, id: accountId, now });
  }

  *grantUserSteps(appId: number, userId: number, now: number): Reads<void> {
    yield this.grantUserStmt.write({ app_id: appId, id: userId, now });
  }

  *readOwnsAccount(appId: number, accountId: number): Reads<boolean> {
    return (yield this.ownsAccountStmt.get({ app_id: appId, id: accountId })) !== null;
  }

  *readOwnsUser(appId: number, userId: number): Reads<boolean> {
    return (yield this.ownsUserStmt.get({ app_id: appId, id: userId })) !== null;
  }

  *readAccountIds(appId: number): Reads<Set<number>> {
    const rows = (yield this.accountIdsStmt.all({ app_id: appId })) as { account_id: number }[];
    return new Set(rows.map((r) => r.account_id));
  }

  *setAccountStatusSteps(accountId: number, status: "active" | "suspended", now: number): Reads<void> {
    yield this.setAccountStatusStmt.write({ id: accountId, status, now });
  }

  *deleteAccountSteps(accountId: number): Reads<void> {
    yield this.deleteAccountStmt.write({ id: accountId });
  }

  *updateUserSteps(
    id: number,
    u: { name: string; display_name: string | null; email: string; password_hash: string | null; now: number },
  ): Reads<void> {
    yield this.updateUserStmt.write({ id, ...u });
  }

  /** Deletes the user; memberships of accounts, inboxes and teams go with it (ON DELETE CASCADE). */
  *deleteUserSteps(id: number): Reads<void> {
    yield this.deleteUserStmt.write({ id });
  }

  *readMemberships(accountId: number): Reads<PlatformMembershipRow[]> {
    return (yield this.membershipsStmt.all({ account_id: accountId })) as PlatformMembershipRow[];
  }

  *setRoleSteps(accountId: number, userId: number, role: Role): Reads<void> {
    yield this.setRoleStmt.write({ account_id: accountId, user_id: userId, role });
  }
}
