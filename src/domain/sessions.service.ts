// Browser sign-in for the agents' web app: email + password → a session whose token lives only in
// an httpOnly cookie (stored here as its SHA-256). Sessions slide: each use moves the idle expiry
// forward (written at most hourly, so reads stay reads), up to an absolute lifetime.
import { readSoon } from "../db/reads.ts";
import type { SessionRow, SessionsRepo } from "../db/sessions.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import type { UserRow, UsersRepo } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import { BUSY, type PasswordHasher } from "../lib/passwords.ts";
import { csrfTokenFor, newSessionToken, sha256Hex } from "../lib/tokens.ts";
import { RateLimitedError, UnauthorizedError } from "./errors.ts";
import type { SignInThrottle } from "./sign-in-throttle.ts";

export const SESSION_IDLE_SECONDS = 14 * 24 * 3600;
export const SESSION_MAX_SECONDS = 90 * 24 * 3600;
export const SESSION_TOUCH_SECONDS = 3600;

/** devise_token_auth's words, for a wrong email and a wrong password alike. */
export const INVALID_LOGIN = "Invalid login credentials. Please try again.";

export interface SessionsDeps {
  sessions: SessionsRepo;
  users: UsersRepo;
  writeTx: WriteTx;
  clock: Clock;
  hasher: PasswordHasher;
  throttle: SignInThrottle;
  logger: Logger;
}

export interface SignInInput {
  email: string;
  password: string;
  ip: string | null;
  userAgent: string | null;
  /** The session token the browser still holds, ended in favour of the new one. */
  replacing?: string | null;
}

export interface SignedIn {
  user: UserRow;
  token: string;
  csrfToken: string;
  expiresAt: number;
}

export class SessionsService {
  constructor(private readonly d: SessionsDeps) {}

  async signIn(input: SignInInput): Promise<SignedIn> {
    const email = input.email.trim().toLowerCase();
    this.d.throttle.reserve(input.ip, email);
    // On PostgreSQL's read pool: the password's check is awaited anyway.
    const user = await readSoon(this.d.users.readByEmail(email));
    // Unknown emails and users without a password verify against a dummy hash: same answer, same time.
    const ok = await this.d.hasher.verify(input.password, user?.password_hash ?? null);
    if (ok === BUSY) {
      this.d.throttle.release(input.ip, email);
      throw new RateLimitedError(1, "sign_in", "Too many sign-ins at once");
    }
    if (!ok || !user) throw new UnauthorizedError(INVALID_LOGIN, "credentials");
    this.d.throttle.release(input.ip, email);
    return this.open(user, input);
  }

  /**
   * A new browser session for a user whose identity is already proven (a password just checked, a
   * password-reset link just used), ending the one the browser still held.
   */
  open(user: UserRow, input: Pick<SignInInput, "ip" | "userAgent" | "replacing">): Promise<SignedIn> {
    const { sessions, clock } = this.d;
    return this.d.writeTx.steps(function* () {
      if (input.replacing) {
        const old = yield* sessions.readByHash(sha256Hex(input.replacing));
        if (old) yield* sessions.deleteSteps(old.id);
      }
      const now = unixSeconds(clock);
      const token = newSessionToken();
      const expiresAt = now + SESSION_IDLE_SECONDS;
      yield* sessions.insertSteps({
        token_hash: sha256Hex(token),
        user_id: user.id,
        created_at: now,
        last_used_at: now,
        expires_at: expiresAt,
        absolute_expires_at: now + SESSION_MAX_SECONDS,
        ip: input.ip,
        user_agent: input.userAgent?.slice(0, 255) ?? null,
      });
      return { user, token, csrfToken: csrfTokenFor(token), expiresAt };
    });
  }

  /** The live session for a cookie token, or 401. Slides the idle expiry. */
  authenticate(token: string): SessionRow {
    return this.admit(this.d.sessions.byHash(sha256Hex(token)));
  }

  /** A session read by its token's hash (null: none), if it may still be used; touched now and then. */
  admit(session: SessionRow | null): SessionRow {
    if (!session) throw new UnauthorizedError(undefined, "session");
    const now = unixSeconds(this.d.clock);
    if (session.expires_at <= now || session.absolute_expires_at <= now) {
      throw new UnauthorizedError("Your session has expired. Please sign in again.", "session");
    }
    if (now - session.last_used_at >= SESSION_TOUCH_SECONDS) {
      const expiresAt = Math.min(now + SESSION_IDLE_SECONDS, session.absolute_expires_at);
      // Not awaited: the caller lookup answers in place on SQLite (src/http/auth.ts). The body runs
      // at once all the same. A failed touch leaves the expiry where it was, and the next request
      // touches again: logged, not the request's failure.
      this.d.writeTx
        .steps(() => this.d.sessions.touchSteps(session.id, now, expiresAt))
        .catch((error) =>
          this.d.logger.warn("session touch failed", { session_id: session.id, ...errorFields(error) }),
        );
      return { ...session, last_used_at: now, expires_at: expiresAt };
    }
    return session;
  }

  async signOut(sessionId: number): Promise<void> {
    await this.d.writeTx.steps(() => this.d.sessions.deleteSteps(sessionId));
  }

  /** Deletes sessions past either expiry and forgets passed sign-in windows (job loop); returns how many sessions. */
  prune(): Promise<number> {
    this.d.throttle.sweep();
    return this.d.writeTx.steps(() => this.d.sessions.deleteExpiredSteps(unixSeconds(this.d.clock)));
  }
}
