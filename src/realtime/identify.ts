// Who a cable connection and each of its subscriptions belong to.
// - The connection: an `api_access_token` (query or header) — a wrong one disconnects at once — or
//   the web app's session cookie. A cookie counts only when the page that opened the socket is ours
//   (Origin host = Host): browsers send cookies with cross-site WebSocket handshakes, and a socket
//   has no CSRF token to check. Anonymous connections are fine: Chatwoot's clients authenticate
//   each subscription with a pubsub_token instead.
// - A subscription ({"channel":"RoomChannel", …} identifier): its `pubsub_token` (a user's, as the
//   Chatwoot dashboard sends it, or a contact_inbox's, as the widget does), else its
//   `api_access_token`, else the connection's user. Users must name an account they belong to.
import type { AccountsRepo } from "../db/accounts.repo.ts";
import type { RealtimeRepo } from "../db/realtime.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
import type { UserRow, UsersRepo } from "../db/users.repo.ts";
import { parseId, type AuthService } from "../domain/auth.service.ts";
import { whenReady } from "../lib/when-ready.ts";
import { CHANNEL } from "../shared/cable-frames.ts";
import type { Viewer } from "./visibility.ts";

export interface ConnectionCredentials {
  apiToken?: string | null;
  sessionToken?: string | null;
  origin?: string | null;
  host?: string | null;
}

/** What a user's socket was let in with; the hub closes it once that no longer opens the door. */
export interface Credential {
  kind: "pubsub" | "api" | "session";
  secret: string;
}

export interface SubscriptionRequest {
  viewer: Viewer;
  /** The user credential it was granted with (none: the connection's, or a contact's). */
  credential?: Credential;
  /** Replay everything after this seq first; null: live events only. */
  since: number | null;
}

export class BadTokenError extends Error {}

export interface IdentifyDeps {
  auth: AuthService;
  realtime: RealtimeRepo;
  accounts: AccountsRepo;
  users: UsersRepo;
}

export class CableIdentity {
  constructor(private readonly d: IdentifyDeps) {}

  /**
   * The connection's user; null when anonymous. Throws (on PostgreSQL rejects with) BadTokenError
   * for a token that opens nothing. Awaited on PostgreSQL's read pool, in place on SQLite.
   */
  connection(c: ConnectionCredentials): UserRow | null | Promise<UserRow | null> {
    const { apiToken, sessionToken } = c;
    if (apiToken) {
      return settle(
        () => this.d.auth.callerSoon(credentialsOf({ kind: "api", secret: apiToken })),
        (p) => p.user,
        () => {
          throw new BadTokenError("unauthorized");
        },
      );
    }
    if (!sessionToken || !sameOrigin(c.origin, c.host)) return null;
    return settle(
      () => this.d.auth.callerSoon(credentialsOf({ kind: "session", secret: sessionToken })),
      (p) => p.user,
      () => null, // an expired cookie leaves the connection anonymous, as if it had none
    );
  }

  /** The connection's own credential (a token in the URL or header, or the session cookie). */
  connectionCredential(c: ConnectionCredentials, user: UserRow | null): Credential | null {
    if (!user) return null;
    if (c.apiToken) return { kind: "api", secret: c.apiToken };
    return c.sessionToken ? { kind: "session", secret: c.sessionToken } : null;
  }

  /**
   * Whether the credential still belongs to the user: a new password or a sign-out everywhere
   * rotates the pubsub_token and ends sessions, a token reset revokes API tokens. Awaited on
   * PostgreSQL's read pool (every ping asks it for every socket's credential), in place on SQLite.
   */
  stillHeld(credential: Credential, userId: number): boolean | Promise<boolean> {
    return settle<UserRow | null, boolean>(
      () =>
        credential.kind === "pubsub"
          ? readSoon(this.d.realtime.readUserByPubsubToken(credential.secret))
          : whenReady(this.d.auth.callerSoon(credentialsOf(credential)), (p) => p.user),
      (user) => user?.id === userId,
      () => false,
    );
  }

  /**
   * What the subscription may receive, or null to reject it. Awaited on PostgreSQL's read pool (the
   * hub holds the socket's later commands meanwhile), in place on SQLite.
   */
  subscription(
    fields: Record<string, unknown>,
    connectionUser: UserRow | null,
  ): SubscriptionRequest | null | Promise<SubscriptionRequest | null> {
    if (fields.channel !== CHANNEL) return null;
    const since = sinceOf(fields.since);
    if (since === undefined) return null;
    const pubsub = typeof fields.pubsub_token === "string" && fields.pubsub_token ? fields.pubsub_token : null;
    const rawAccountId = fields.account_id === undefined ? undefined : String(fields.account_id); // as memberOf takes it
    const token = fields.api_access_token;
    if (!pubsub && typeof token === "string" && token) {
      // The token's user, the account and the membership: one statement on PostgreSQL.
      return settle(
        () => this.d.auth.accountCallerSoon(credentialsOf({ kind: "api", secret: token }), rawAccountId),
        (p): SubscriptionRequest => ({
          viewer: { kind: "user", accountId: p.account.id, userId: p.user.id },
          since,
          credential: { kind: "api", secret: token },
        }),
        () => null, // a token that opens nothing, or a user of another account
      );
    }
    if (!pubsub && !connectionUser) return null;
    return readSoon(this.readRequest(pubsub, connectionUser, fields.account_id, since));
  }

  /** A pubsub_token's user or contact, else the connection's user, and what they may receive. */
  private *readRequest(
    pubsub: string | null,
    connectionUser: UserRow | null,
    rawAccountId: unknown,
    since: number | null,
  ): Reads<SubscriptionRequest | null> {
    if (!pubsub) return connectionUser && (yield* nested(this.readAgent(connectionUser, rawAccountId, since)));
    const user = yield* nested(this.d.realtime.readUserByPubsubToken(pubsub));
    if (!user) return yield* nested(this.readContact(pubsub, rawAccountId, since));
    const request = yield* nested(this.readAgent(user, rawAccountId, since));
    return request && { ...request, credential: { kind: "pubsub", secret: pubsub } };
  }

  /** AuthService.memberOf's checks: the account exists, is not suspended, and the user is a member. */
  private *readAgent(user: UserRow, rawAccountId: unknown, since: number | null): Reads<SubscriptionRequest | null> {
    const accountId = rawAccountId === undefined ? null : parseId(String(rawAccountId));
    const account = accountId === null ? null : yield* nested(this.d.accounts.readById(accountId));
    if (!account || account.status === "suspended") return null;
    if (!(yield* nested(this.d.users.readMembership(account.id, user.id)))) return null;
    return { viewer: { kind: "user", accountId: account.id, userId: user.id }, since };
  }

  private *readContact(token: string, rawAccountId: unknown, since: number | null): Reads<SubscriptionRequest | null> {
    const ci = yield* nested(this.d.realtime.readContactInboxByPubsubToken(token));
    if (!ci) return null;
    if (rawAccountId !== undefined && rawAccountId !== null && parseId(rawAccountId) !== ci.account_id) return null;
    if ((yield* nested(this.d.accounts.readById(ci.account_id)))?.status !== "active") return null;
    return {
      viewer: {
        kind: "contact",
        accountId: ci.account_id,
        contactId: ci.contact_id,
        contactInboxId: ci.id,
        hmacVerified: ci.hmac_verified === 1,
      },
      since,
    };
  }
}

/** `ok` of what `ask` answers, in place or when it comes; `failed`'s answer when it throws or rejects. */
function settle<T, U>(ask: () => T | Promise<T>, ok: (value: T) => U, failed: (error: unknown) => U): U | Promise<U> {
  let answer: T | Promise<T>;
  try {
    answer = ask();
  } catch (error) {
    return failed(error);
  }
  return answer instanceof Promise ? answer.then(ok, failed) : ok(answer);
}

/** `since` as a seq: null when absent, undefined when present but not a whole number ≥ 0. */
function sinceOf(raw: unknown): number | null | undefined {
  if (raw === undefined || raw === null || raw === "") return null;
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  return /^\d{1,15}$/.test(s) ? Number(s) : undefined;
}

function sameOrigin(origin: string | null | undefined, host: string | null | undefined): boolean {
  if (!origin) return true; // not a browser: whoever holds the cookie holds the session
  try {
    return !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** An API token or a session cookie as the caller lookup takes it (a check changes nothing: no CSRF). */
function credentialsOf(c: Credential) {
  return c.kind === "api"
    ? { apiToken: c.secret, sessionToken: null, safeMethod: true }
    : { apiToken: null, sessionToken: c.secret, safeMethod: true };
}
