// Who is calling, and what may they do in this account. Order of checks follows Chatwoot:
// authenticate (401) → account exists (404) → membership (401) → role (403, docs/compatibility.md #2).
// A caller is authenticated by the `api_access_token` header or, from the web app, by the session
// cookie; a cookie alone never authorizes a change: non-GET requests must also carry the
// session's CSRF token (403 csrf), which a cross-site page cannot read.
import type { AccountCaller, AccountCallersRepo, SessionCaller } from "../db/account-callers.repo.ts";
import type { AccountRow, AccountsRepo } from "../db/accounts.repo.ts";
import type { AgentBotRow, AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { SessionRow } from "../db/sessions.repo.ts";
import type { TokenOwner, TokensRepo } from "../db/tokens.repo.ts";
import type { MembershipRow, Role, UsersRepo, UserRow } from "../db/users.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
import { csrfTokenFor, sameSecret, sha256Hex } from "../lib/tokens.ts";
import { CsrfError, ForbiddenError, NotFoundError, UnauthorizedError } from "./errors.ts";
import type { SessionsService } from "./sessions.service.ts";

export interface UserPrincipal {
  user: UserRow;
  /** The token presented, when the request was authenticated by one (echoed by GET /profile). */
  token: string | null;
  /** The browser session, when the request was authenticated by the session cookie. */
  session?: SessionRow;
}

/** What a request presents: the header token wins over the cookie when both are sent. */
export interface Credentials {
  apiToken?: string | null;
  sessionToken?: string | null;
  csrfToken?: string | null;
  /** GET/HEAD/OPTIONS: reads, which need no CSRF token. */
  safeMethod: boolean;
}

export interface AccountPrincipal extends UserPrincipal {
  account: AccountRow;
  membership: MembershipRow;
  role: Role;
  /**
   * Set when an agent bot's token called: it acts as the bot (actingAs), and only on the routes of
   * BOT_ROUTES, so nothing it reaches reads `user` or `membership` (for a bot they hold nothing).
   */
  bot?: { id: number; name: string; inboxIds: number[] };
}

/** The request, for the routes a bot token may call. */
export interface RouteRef {
  method: string;
  path: string;
}

/**
 * What an agent bot's token may do on the account API (Chatwoot's bot-accessible endpoints): start
 * and update conversations, change their status, priority, custom attributes and assignment, and
 * send messages. Everything else (settings, administration, reading lists) is a 403.
 */
const BOT_ROUTES: readonly [string, RegExp][] = [
  ["POST", /^\/api\/v1\/accounts\/\d+\/conversations\/?$/],
  ["PATCH", /^\/api\/v1\/accounts\/\d+\/conversations\/\d+\/?$/],
  ["PUT", /^\/api\/v1\/accounts\/\d+\/conversations\/\d+\/?$/],
  [
    "POST",
    /^\/api\/v1\/accounts\/\d+\/conversations\/\d+\/(toggle_status|toggle_priority|custom_attributes|assignments|messages)\/?$/,
  ],
];

interface BotAccess {
  bot: AgentBotRow;
  account: AccountRow | null;
  inboxIds: number[];
}

export function botMayCall(route: RouteRef): boolean {
  return BOT_ROUTES.some(([method, path]) => method === route.method && path.test(route.path));
}

export class AuthService {
  constructor(
    private readonly d: {
      tokens: TokensRepo;
      accountCallers: AccountCallersRepo;
      users: UsersRepo;
      accounts: AccountsRepo;
      agentBots: AgentBotsRepo;
      sessionAuth: SessionsService;
    },
  ) {}

  tokenOwner(token: string | null | undefined): TokenOwner | null {
    if (!token) return null;
    return this.d.tokens.ownerOf(sha256Hex(token));
  }

  /** A user token, or 401. */
  user(token: string | null | undefined): UserPrincipal {
    if (!token) throw new UnauthorizedError();
    return this.userOf(this.tokenOwner(token), token);
  }

  private userOf(owner: TokenOwner | null, token: string): UserPrincipal {
    if (owner?.owner_type !== "user") throw new UnauthorizedError("Invalid Access Token");
    const user = this.d.users.byId(owner.owner_id);
    if (!user) throw new UnauthorizedError("Invalid Access Token");
    return { user, token };
  }

  /** A user token of a member of this account, or 401/404. */
  account(token: string | null | undefined, rawAccountId: string | undefined): AccountPrincipal {
    const principal = this.user(token);
    return this.memberOf(principal, rawAccountId);
  }

  /** The caller by header token or by session cookie (+ CSRF for changes), or 401/403. */
  caller(c: Credentials): UserPrincipal {
    if (c.apiToken || !c.sessionToken) return this.user(c.apiToken);
    const session = this.d.sessionAuth.authenticate(c.sessionToken);
    requireCsrf(c, c.sessionToken);
    const user = this.d.users.byId(session.user_id);
    if (!user) throw new UnauthorizedError(undefined, "session");
    return { user, token: null, session };
  }

  /**
   * caller(), awaited on PostgreSQL: a token's owner and user, or a session and its user, in one
   * statement on the read pool (the joined caller with no account), with the same checks in the same
   * order. In place on SQLite.
   */
  callerSoon(c: Credentials): UserPrincipal | Promise<UserPrincipal> {
    const callers = this.d.accountCallers;
    if (!callers.awaits) return this.caller(c);
    const sessionToken = c.sessionToken;
    if (c.apiToken || !sessionToken) {
      const token = c.apiToken;
      if (!token) throw new UnauthorizedError();
      return Promise.resolve(callers.findSoon(sha256Hex(token), 0)).then((found) => tokenUser(found, token));
    }
    return callers.findSession(sha256Hex(sessionToken), 0).then((found) => this.sessionUser(c, sessionToken, found));
  }

  /** caller()'s checks of a session cookie, in its order, on the session read with its user. */
  private sessionUser(c: Credentials, sessionToken: string, found: SessionCaller | null): UserPrincipal {
    const session = this.d.sessionAuth.admit(found?.session ?? null);
    requireCsrf(c, sessionToken);
    if (!found?.user) throw new UnauthorizedError(undefined, "session");
    return { user: found.user, token: null, session };
  }

  /** Whether accountCallerSoon awaits (PostgreSQL): the HTTP layer stays synchronous on SQLite. */
  get callersAwait(): boolean {
    return this.d.accountCallers.awaits;
  }

  /**
   * `caller`, then membership of the account in the path; or an agent bot's token on the routes it
   * may call. A token's owner, user, account and membership are one repository call (one statement
   * on PostgreSQL, src/db/account-callers.repo.ts), awaited on PostgreSQL (its read pool: the
   * process serves other requests meanwhile), and so are a session cookie's and an agent bot's.
   */
  accountCallerSoon(
    c: Credentials,
    rawAccountId: string | undefined,
    route?: RouteRef,
  ): AccountPrincipal | Promise<AccountPrincipal> {
    const token = c.apiToken;
    if (!token && c.sessionToken && this.d.accountCallers.awaits)
      return this.sessionCaller(c, c.sessionToken, rawAccountId);
    if (!token) return this.memberOf(this.caller(c), rawAccountId);
    const found = this.d.accountCallers.findSoon(sha256Hex(token), parseId(rawAccountId) ?? 0);
    if (found instanceof Promise) return found.then((f) => this.tokenCaller(f, token, rawAccountId, route));
    return this.tokenCaller(found, token, rawAccountId, route);
  }

  /** caller() then memberOf() for a session cookie, in the same order of checks, read on the pool. */
  private async sessionCaller(c: Credentials, sessionToken: string, rawAccountId: string | undefined) {
    const found = await this.d.accountCallers.findSession(sha256Hex(sessionToken), parseId(rawAccountId) ?? 0);
    const principal = this.sessionUser(c, sessionToken, found);
    return this.admitted(principal, found!.account, found!.membership, rawAccountId);
  }

  private tokenCaller(
    found: AccountCaller | null,
    token: string,
    rawAccountId: string | undefined,
    route: RouteRef | undefined,
  ): AccountPrincipal | Promise<AccountPrincipal> {
    // A token no user holds may be an agent bot's: read like the user's caller, awaited on PostgreSQL.
    if (!found) {
      const access = readSoon(this.readBotAccess(token, parseId(rawAccountId)));
      if (access instanceof Promise) return access.then((a) => this.botCaller(a, token, rawAccountId, route));
      return this.botCaller(access, token, rawAccountId, route);
    }
    return this.admitted(tokenUser(found, token), found.account, found.membership, rawAccountId);
  }

  /** The bot behind a token, the account in the path, and the account's inboxes the bot answers. */
  private *readBotAccess(token: string, accountId: number | null): Reads<BotAccess | null> {
    const bot = yield* nested(this.d.agentBots.readByToken(token));
    if (!bot) return null;
    const account = accountId === null ? null : yield* nested(this.d.accounts.readById(accountId));
    const inboxIds = account ? yield* nested(this.d.agentBots.readInboxIds(account.id, bot.id)) : [];
    return { bot, account, inboxIds };
  }

  private botCaller(
    access: BotAccess | null,
    token: string,
    rawAccountId: string | undefined,
    route: RouteRef | undefined,
  ): AccountPrincipal {
    if (!access) throw new UnauthorizedError("Invalid Access Token");
    const { bot, account, inboxIds } = access;
    if (!account) throw new NotFoundError("Account", "account_id", `no account ${rawAccountId}`);
    if (account.status === "suspended") throw new UnauthorizedError("Account is suspended", "account_id");
    // A platform bot (no account) works in the accounts whose inboxes it answers.
    if (bot.account_id !== account.id && (bot.account_id !== null || inboxIds.length === 0)) {
      throw new UnauthorizedError("You are not authorized to access this account", "account_id");
    }
    if (!route || !botMayCall(route)) throw new ForbiddenError("Access to this endpoint is not authorized for bots");
    const nobody = null as unknown as UserRow & MembershipRow; // see AccountPrincipal.bot
    return {
      user: nobody,
      token,
      account,
      membership: nobody,
      role: "agent",
      bot: { id: bot.id, name: bot.name, inboxIds },
    };
  }

  memberOf(principal: UserPrincipal, rawAccountId: string | undefined): AccountPrincipal {
    const accountId = parseId(rawAccountId);
    const account = accountId === null ? null : this.d.accounts.byId(accountId);
    const membership = account ? this.d.users.membership(account.id, principal.user.id) : null;
    return this.admitted(principal, account, membership, rawAccountId);
  }

  /** The account exists, is not suspended, and the user is a member of it; or 404/401. */
  private admitted(
    principal: UserPrincipal,
    account: AccountRow | null,
    membership: MembershipRow | null,
    rawAccountId: string | undefined,
  ): AccountPrincipal {
    if (!account) throw new NotFoundError("Account", "account_id", `no account ${rawAccountId}`);
    if (account.status === "suspended") throw new UnauthorizedError("Account is suspended", "account_id");
    if (!membership) throw new UnauthorizedError("You are not authorized to access this account", "account_id");
    return { ...principal, account, membership, role: membership.role };
  }
}

/** The user a token opens: a user's token only (a platform app's or none is a 401). */
function tokenUser(found: AccountCaller | null, token: string): UserPrincipal {
  if (found?.owner.owner_type !== "user" || !found.user) throw new UnauthorizedError("Invalid Access Token");
  return { user: found.user, token };
}

/** A change made with a session cookie must carry the session's CSRF token (a read need not). */
function requireCsrf(c: Credentials, sessionToken: string): void {
  if (!c.safeMethod && !(c.csrfToken && sameSecret(c.csrfToken, csrfTokenFor(sessionToken)))) throw new CsrfError();
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
