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
import { readSoon } from "../db/reads.ts";
import type { UserRow } from "../db/users.repo.ts";
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
}

export class CableIdentity {
  constructor(private readonly d: IdentifyDeps) {}

  /** The connection's user; null when anonymous. Throws BadTokenError for a token that opens nothing. */
  connection(c: ConnectionCredentials): UserRow | null {
    if (c.apiToken) {
      try {
        return this.d.auth.user(c.apiToken).user;
      } catch {
        throw new BadTokenError("unauthorized");
      }
    }
    if (!c.sessionToken || !sameOrigin(c.origin, c.host)) return null;
    try {
      return this.d.auth.caller({ apiToken: null, sessionToken: c.sessionToken, safeMethod: true }).user;
    } catch {
      return null; // an expired cookie leaves the connection anonymous, as if it had none
    }
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
    try {
      const held =
        credential.kind === "pubsub"
          ? whenReady(readSoon(this.d.realtime.readUserByPubsubToken(credential.secret)), (u) => u?.id === userId)
          : whenReady(this.d.auth.callerSoon(credentialsOf(credential)), (p) => p.user.id === userId);
      return held instanceof Promise ? held.catch(() => false) : held;
    } catch {
      return false;
    }
  }

  /** What the subscription may receive, or null to reject it. */
  subscription(fields: Record<string, unknown>, connectionUser: UserRow | null): SubscriptionRequest | null {
    if (fields.channel !== CHANNEL) return null;
    const since = sinceOf(fields.since);
    if (since === undefined) return null;
    const pubsub = typeof fields.pubsub_token === "string" && fields.pubsub_token ? fields.pubsub_token : null;
    if (pubsub) {
      const user = this.d.realtime.userByPubsubToken(pubsub);
      if (user) {
        const request = this.agent(user, fields.account_id, since);
        return request && { ...request, credential: { kind: "pubsub", secret: pubsub } };
      }
      return this.contact(pubsub, fields.account_id, since);
    }
    if (typeof fields.api_access_token === "string" && fields.api_access_token) {
      try {
        const request = this.agent(this.d.auth.user(fields.api_access_token).user, fields.account_id, since);
        return request && { ...request, credential: { kind: "api", secret: fields.api_access_token } };
      } catch {
        return null;
      }
    }
    return connectionUser ? this.agent(connectionUser, fields.account_id, since) : null;
  }

  private agent(user: UserRow, rawAccountId: unknown, since: number | null): SubscriptionRequest | null {
    try {
      const p = this.d.auth.memberOf(
        { user, token: null },
        rawAccountId === undefined ? undefined : String(rawAccountId),
      );
      return { viewer: { kind: "user", accountId: p.account.id, userId: user.id }, since };
    } catch {
      return null; // unknown or suspended account, or not a member
    }
  }

  private contact(token: string, rawAccountId: unknown, since: number | null): SubscriptionRequest | null {
    const ci = this.d.realtime.contactInboxByPubsubToken(token);
    if (!ci) return null;
    if (rawAccountId !== undefined && rawAccountId !== null && parseId(rawAccountId) !== ci.account_id) return null;
    if (this.d.accounts.byId(ci.account_id)?.status !== "active") return null;
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
