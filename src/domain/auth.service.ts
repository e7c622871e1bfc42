// Who is calling, and what may they do in this account. Order of checks follows Chatwoot:
// authenticate (401) → account exists (404) → membership (401) → role (403, DESIGN.md §9 #2).
import type { AccountRow, AccountsRepo } from "../db/accounts.repo.ts";
import type { TokenOwner, TokensRepo } from "../db/tokens.repo.ts";
import type { MembershipRow, Role, UsersRepo, UserRow } from "../db/users.repo.ts";
import { sha256Hex } from "../lib/tokens.ts";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "./errors.ts";

export interface UserPrincipal {
  user: UserRow;
  /** The token presented, when the request was authenticated by one (echoed by GET /profile). */
  token: string | null;
}

export interface AccountPrincipal extends UserPrincipal {
  account: AccountRow;
  membership: MembershipRow;
  role: Role;
}

export class AuthService {
  constructor(private readonly d: { tokens: TokensRepo; users: UsersRepo; accounts: AccountsRepo }) {}

  tokenOwner(token: string | null | undefined): TokenOwner | null {
    if (!token) return null;
    return this.d.tokens.ownerOf(sha256Hex(token));
  }

  /** A user token, or 401. */
  user(token: string | null | undefined): UserPrincipal {
    if (!token) throw new UnauthorizedError();
    const owner = this.tokenOwner(token);
    if (!owner || owner.owner_type !== "user") throw new UnauthorizedError("Invalid Access Token");
    const user = this.d.users.byId(owner.owner_id);
    if (!user) throw new UnauthorizedError("Invalid Access Token");
    return { user, token };
  }

  /** A user token of a member of this account, or 401/404. */
  account(token: string | null | undefined, rawAccountId: string | undefined): AccountPrincipal {
    const principal = this.user(token);
    return this.memberOf(principal, rawAccountId);
  }

  memberOf(principal: UserPrincipal, rawAccountId: string | undefined): AccountPrincipal {
    const accountId = parseId(rawAccountId);
    const account = accountId === null ? null : this.d.accounts.byId(accountId);
    if (!account) throw new NotFoundError("Account", "account_id", `no account ${rawAccountId}`);
    if (account.status === "suspended") throw new UnauthorizedError("Account is suspended", "account_id");
    const membership = this.d.users.membership(account.id, principal.user.id);
    if (!membership) throw new UnauthorizedError("You are not authorized to access this account", "account_id");
    return { ...principal, account, membership, role: membership.role };
  }
}

export function requireAdministrator(p: AccountPrincipal): void {
  if (p.role !== "administrator") throw new ForbiddenError();
}

/** A positive integer id from a path or body, or null. */
export function parseId(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}
