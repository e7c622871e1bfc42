// Who calls an account route with an API token: the token's owner and, for a user's token, the
// user, the account in the path and the user's membership of it. Every account request asks these
// four questions. On PostgreSQL each statement is a round trip (~90 µs on one core), a quarter of a
// list page's statements, so there they are one joined statement, its columns named here and
// prefixed per table so the rows come back apart (test/db/account-callers.test.ts checks they are
// every column of the tables, as `SELECT *` gives them). On SQLite the four lookups by key of the
// repositories that own them stay four: 12.5 µs against 23-25 µs for the join, whose plan also
// scanned tables under misleading statistics (test/db/planner-statistics.test.ts).
import type { Database } from "bun:sqlite";
import { prepareRead, type ReadStatement } from "./async-reads.ts";
import { isPostgres } from "./postgres/database.ts";
import type { AccountRow, AccountsRepo } from "./accounts.repo.ts";
import type { SessionRow } from "./sessions.repo.ts";
import type { TokenOwner, TokensRepo } from "./tokens.repo.ts";
import type { MembershipRow, UserRow, UsersRepo } from "./users.repo.ts";

const USER_COLUMNS = [
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
const ACCOUNT_COLUMNS = ["id", "name", "locale", "status", "custom_attributes", "created_at", "updated_at"] as const;
const MEMBERSHIP_COLUMNS = [
  "account_id",
  "user_id",
  "role",
  "availability",
  "auto_offline",
  "created_at",
  "active_at",
] as const;

const SESSION_COLUMNS = [
  "id",
  "token_hash",
  "user_id",
  "created_at",
  "last_used_at",
  "expires_at",
  "absolute_expires_at",
  "ip",
  "user_agent",
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

const JOINED = `SELECT t.owner_type, t.owner_id, ${selected("u", USER_COLUMNS)}, ${selected("a", ACCOUNT_COLUMNS)}, ${selected("m", MEMBERSHIP_COLUMNS)}
  FROM access_tokens t
  LEFT JOIN users u ON t.owner_type = 'user' AND u.id = t.owner_id
  LEFT JOIN accounts a ON a.id = $account_id
  LEFT JOIN account_users m ON m.account_id = a.id AND m.user_id = u.id
  WHERE t.token_hash = $token_hash`;

/** What a session cookie opens: the session, its user, the account in the path and the membership. */
export interface SessionCaller {
  session: SessionRow;
  user: UserRow | null;
  account: AccountRow | null;
  membership: MembershipRow | null;
}

const SESSION_JOINED = `SELECT ${selected("s", SESSION_COLUMNS)}, ${selected("u", USER_COLUMNS)}, ${selected("a", ACCOUNT_COLUMNS)}, ${selected("m", MEMBERSHIP_COLUMNS)}
  FROM sessions s
  LEFT JOIN users u ON u.id = s.user_id
  LEFT JOIN accounts a ON a.id = $account_id
  LEFT JOIN account_users m ON m.account_id = a.id AND m.user_id = u.id
  WHERE s.token_hash = $token_hash`;

/** The user, account and membership parts of a joined row (the token's or the session's). */
function joinedParts(row: Record<string, unknown>): Omit<AccountCaller, "owner"> {
  return {
    user: part<UserRow>(row, "u", USER_COLUMNS),
    account: part<AccountRow>(row, "a", ACCOUNT_COLUMNS),
    membership: part<MembershipRow>(row, "m", MEMBERSHIP_COLUMNS),
  };
}

export class AccountCallersRepo {
  private readonly pooled: ReadStatement | null;
  private readonly pooledSession: ReadStatement | null;

  /** `byKey`: the repositories that answer each question alone (SQLite asks them one by one). */
  constructor(
    db: Database,
    private readonly byKey: { tokens: TokensRepo; users: UsersRepo; accounts: AccountsRepo },
  ) {
    this.pooled = isPostgres(db) ? prepareRead(db, JOINED) : null;
    this.pooledSession = isPostgres(db) ? prepareRead(db, SESSION_JOINED) : null;
  }

  /**
   * A session cookie's caller, on the read pool in one statement: PostgreSQL only (`awaits`). SQLite
   * asks SessionsRepo and the others one by one, in place.
   */
  async findSession(tokenHash: string, accountId: number): Promise<SessionCaller | null> {
    const row = await this.pooledSession!.get<Record<string, unknown>>({
      token_hash: tokenHash,
      account_id: accountId,
    });
    return row ? { session: part<SessionRow>(row, "s", SESSION_COLUMNS)!, ...joinedParts(row) } : null;
  }

  /** Whether findSoon awaits (PostgreSQL), so that a caller can stay synchronous on SQLite. */
  get awaits(): boolean {
    return this.pooled !== null;
  }

  /**
   * The caller behind a token's hash, for the account `accountId`; null when no token has that hash.
   * Awaited on PostgreSQL: the statement goes to the read pool, so the process serves other requests
   * while it runs. The pool sees committed rows only, which is all a request's caller is: a token, a
   * user, an account and a membership written by earlier requests. In place on SQLite.
   */
  findSoon(tokenHash: string, accountId: number): AccountCaller | null | Promise<AccountCaller | null> {
    if (!this.pooled) return this.findByKey(tokenHash, accountId);
    return this.pooled.get<Record<string, unknown>>({ token_hash: tokenHash, account_id: accountId }).then((row) =>
      row
        ? {
            owner: { owner_type: row.owner_type as TokenOwner["owner_type"], owner_id: row.owner_id as number },
            ...joinedParts(row),
          }
        : null,
    );
  }

  private findByKey(tokenHash: string, accountId: number): AccountCaller | null {
    const owner = this.byKey.tokens.ownerOf(tokenHash);
    if (!owner) return null;
    const user = owner.owner_type === "user" ? this.byKey.users.byId(owner.owner_id) : null;
    const account = this.byKey.accounts.byId(accountId);
    const membership = user && account ? this.byKey.users.membership(accountId, user.id) : null;
    return { owner, user, account, membership };
  }
}
