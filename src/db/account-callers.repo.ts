// Who calls an account route with an API token: the token's owner and, for a user's token, the
// user, the account in the path and the user's membership of it. Every account request asks these
// four questions. On PostgreSQL each statement is a round trip (~90 µs on one core), a quarter of a
// list page's statements, so there they are one joined statement, its columns named here and
// prefixed per table so the rows come back apart (test/db/account-callers.test.ts checks they are
// every column of the tables, as `SELECT *` gives them). On SQLite four lookups by key stay four:
// 12.5 µs against 23-25 µs for the join, whose plan also scanned tables under misleading statistics
// (test/db/planner-statistics.test.ts).
import type { Database, Statement } from "bun:sqlite";
import { isPostgres } from "./postgres/database.ts";
import type { AccountRow } from "./accounts.repo.ts";
import type { TokenOwner } from "./tokens.repo.ts";
import type { MembershipRow, UserRow } from "./users.repo.ts";

export const USER_COLUMNS = [
  "id",
  "name",
  "display_name",
  "email",
  "password_hash",
  "pubsub_token",
  "confirmed",
  "created_at",
  "updated_at",
  "message_signature",
] as const;
export const ACCOUNT_COLUMNS = [
  "id",
  "name",
  "locale",
  "status",
  "custom_attributes",
  "created_at",
  "updated_at",
] as const;
export const MEMBERSHIP_COLUMNS = [
  "account_id",
  "user_id",
  "role",
  "availability",
  "auto_offline",
  "created_at",
  "active_at",
] as const;

/** What the token opens: its owner, and (a user's token) the user, the account and the membership, each null when absent. */
export interface AccountCaller {
  owner: TokenOwner;
  user: UserRow | null;
  account: AccountRow | null;
  membership: MembershipRow | null;
}

const selected = (alias: string, columns: readonly string[]) =>
  columns.map((c) => `${alias}.${c} AS ${alias}_${c}`).join(", ");

function part<T>(row: Record<string, unknown>, alias: string, columns: readonly string[]): T | null {
  if (row[`${alias}_${columns[0]}`] === null) return null; // the first column is the key: no row joined
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c] = row[`${alias}_${c}`];
  return out as T;
}

export class AccountCallersRepo {
  private readonly joined: Statement | null;
  private readonly ownerStmt: Statement;
  private readonly userStmt: Statement;
  private readonly accountStmt: Statement;
  private readonly membershipStmt: Statement;

  constructor(db: Database) {
    this.joined = isPostgres(db)
      ? db.prepare(
          `SELECT t.owner_type, t.owner_id, ${selected("u", USER_COLUMNS)}, ${selected("a", ACCOUNT_COLUMNS)}, ${selected("m", MEMBERSHIP_COLUMNS)}
           FROM access_tokens t
           LEFT JOIN users u ON t.owner_type = 'user' AND u.id = t.owner_id
           LEFT JOIN accounts a ON a.id = $account_id
           LEFT JOIN account_users m ON m.account_id = a.id AND m.user_id = u.id
           WHERE t.token_hash = $token_hash`,
        )
      : null;
    this.ownerStmt = db.prepare("SELECT owner_type, owner_id FROM access_tokens WHERE token_hash = $token_hash");
    this.userStmt = db.prepare(`SELECT ${USER_COLUMNS.join(", ")} FROM users WHERE id = $id`);
    this.accountStmt = db.prepare(`SELECT ${ACCOUNT_COLUMNS.join(", ")} FROM accounts WHERE id = $id`);
    this.membershipStmt = db.prepare(
      `SELECT ${MEMBERSHIP_COLUMNS.join(", ")} FROM account_users WHERE account_id = $account_id AND user_id = $user_id`,
    );
  }

  /** The caller behind a token's hash, for the account `accountId`; null when no token has that hash. */
  find(tokenHash: string, accountId: number): AccountCaller | null {
    if (this.joined) return this.findJoined(tokenHash, accountId);
    const owner = this.ownerStmt.get({ token_hash: tokenHash }) as TokenOwner | null;
    if (!owner) return null;
    const user = owner.owner_type === "user" ? (this.userStmt.get({ id: owner.owner_id }) as UserRow | null) : null;
    const account = this.accountStmt.get({ id: accountId }) as AccountRow | null;
    const membership =
      user && account
        ? (this.membershipStmt.get({ account_id: accountId, user_id: user.id }) as MembershipRow | null)
        : null;
    return { owner, user, account, membership };
  }

  private findJoined(tokenHash: string, accountId: number): AccountCaller | null {
    const row = this.joined!.get({ token_hash: tokenHash, account_id: accountId }) as Record<string, unknown> | null;
    if (!row) return null;
    return {
      owner: { owner_type: row.owner_type as TokenOwner["owner_type"], owner_id: row.owner_id as number },
      user: part<UserRow>(row, "u", USER_COLUMNS),
      account: part<AccountRow>(row, "a", ACCOUNT_COLUMNS),
      membership: part<MembershipRow>(row, "m", MEMBERSHIP_COLUMNS),
    };
  }
}
