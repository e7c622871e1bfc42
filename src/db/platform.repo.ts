// Platform apps and what each created. An app sees only accounts and users listed here for it.
import type { Database, Statement } from "bun:sqlite";
import type { Role } from "./users.repo.ts";

export interface PlatformAppRow {
  id: number;
  name: string;
  created_at: number;
}

export class PlatformRepo {
  private readonly insertAppStmt: Statement;
  private readonly appByIdStmt: Statement;
  private readonly grantAccountStmt: Statement;
  private readonly grantUserStmt: Statement;
  private readonly ownsAccountStmt: Statement;
  private readonly ownsUserStmt: Statement;
  private readonly accountIdsStmt: Statement;
  private readonly setAccountStatusStmt: Statement;
  private readonly deleteAccountStmt: Statement;
  private readonly updateUserStmt: Statement;
  private readonly deleteUserStmt: Statement;
  private readonly membershipsStmt: Statement;
  private readonly setRoleStmt: Statement;

  constructor(db: Database) {
    this.insertAppStmt = db.prepare("INSERT INTO platform_apps (name, created_at) VALUES ($name, $now)");
    this.appByIdStmt = db.prepare("SELECT * FROM platform_apps WHERE id = $id");
    this.grantAccountStmt = db.prepare(
      "INSERT INTO platform_app_accounts (platform_app_id, account_id, created_at) VALUES ($app_id, $id, $now) ON CONFLICT DO NOTHING",
    );
    this.grantUserStmt = db.prepare(
      "INSERT INTO platform_app_users (platform_app_id, user_id, created_at) VALUES ($app_id, $id, $now) ON CONFLICT DO NOTHING",
    );
    this.ownsAccountStmt = db.prepare(
      "SELECT 1 AS yes FROM platform_app_accounts WHERE platform_app_id = $app_id AND account_id = $id",
    );
    this.ownsUserStmt = db.prepare(
      "SELECT 1 AS yes FROM platform_app_users WHERE platform_app_id = $app_id AND user_id = $id",
    );
    this.accountIdsStmt = db.prepare("SELECT account_id FROM platform_app_accounts WHERE platform_app_id = $app_id");
    this.setAccountStatusStmt = db.prepare("UPDATE accounts SET status = $status, updated_at = $now WHERE id = $id");
    // Everything of the account goes with it (its tables reference accounts ON DELETE CASCADE).
    this.deleteAccountStmt = db.prepare("DELETE FROM accounts WHERE id = $id");
    this.updateUserStmt = db.prepare(
      `UPDATE users SET name = $name, display_name = $display_name, email = $email, password_hash = $password_hash, updated_at = $now
       WHERE id = $id`,
    );
    this.deleteUserStmt = db.prepare("DELETE FROM users WHERE id = $id");
    this.membershipsStmt = db.prepare("SELECT * FROM account_users WHERE account_id = $account_id ORDER BY user_id");
    this.setRoleStmt = db.prepare(
      "UPDATE account_users SET role = $role WHERE account_id = $account_id AND user_id = $user_id",
    );
  }

  insertApp(name: string, now: number): number {
    return Number(this.insertAppStmt.run({ name, now }).lastInsertRowid);
  }

  appById(id: number): PlatformAppRow | null {
    return (this.appByIdStmt.get({ id }) as PlatformAppRow | null) ?? null;
  }

  grantAccount(appId: number, accountId: number, now: number): void {
    this.grantAccountStmt.run({ app_id: appId, id: accountId, now });
  }

  grantUser(appId: number, userId: number, now: number): void {
    this.grantUserStmt.run({ app_id: appId, id: userId, now });
  }

  ownsAccount(appId: number, accountId: number): boolean {
    return this.ownsAccountStmt.get({ app_id: appId, id: accountId }) !== null;
  }

  ownsUser(appId: number, userId: number): boolean {
    return this.ownsUserStmt.get({ app_id: appId, id: userId }) !== null;
  }

  accountIds(appId: number): Set<number> {
    return new Set((this.accountIdsStmt.all({ app_id: appId }) as { account_id: number }[]).map((r) => r.account_id));
  }

  setAccountStatus(accountId: number, status: "active" | "suspended", now: number): void {
    this.setAccountStatusStmt.run({ id: accountId, status, now });
  }

  deleteAccount(accountId: number): void {
    this.deleteAccountStmt.run({ id: accountId });
  }

  updateUser(
    id: number,
    u: { name: string; display_name: string | null; email: string; password_hash: string | null; now: number },
  ): void {
    this.updateUserStmt.run({ id, ...u });
  }

  /** Deletes the user; memberships of accounts, inboxes and teams go with it (ON DELETE CASCADE). */
  deleteUser(id: number): void {
    this.deleteUserStmt.run({ id });
  }

  memberships(accountId: number): {
    account_id: number;
    user_id: number;
    role: Role;
    availability: string;
    auto_offline: number;
    created_at: number;
  }[] {
    return this.membershipsStmt.all({ account_id: accountId }) as ReturnType<PlatformRepo["memberships"]>;
  }

  setRole(accountId: number, userId: number, role: Role): void {
    this.setRoleStmt.run({ account_id: accountId, user_id: userId, role });
  }
}
