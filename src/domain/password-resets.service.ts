// "Forgot your password?": POST /auth/password mails a link that sets a new password (Devise's
// recoverable, as Chatwoot's web app and mobile app use it). The answer is the same whether or not
// the address belongs to a user, so the form tells no one who has an account here. A link works
// once, for six hours (Devise's reset_password_within in Chatwoot), and only while it is the user's
// newest; a password set any other way ends it too (PasswordsService.replaceInTx).
import type { NewReset, PasswordResetRow, PasswordResetsRepo } from "../db/password-resets.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { UserRow, UsersRepo } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { PasswordHasher } from "../lib/passwords.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { randomToken, sha256Hex } from "../lib/tokens.ts";
import { SlidingWindowLimiter } from "../lib/rate-limit.ts";
import { AppError, FieldErrors, RateLimitedError, ValidationError } from "./errors.ts";
import { checkPassword, type PasswordsService } from "./passwords.service.ts";
import { addressKey } from "./sign-in-throttle.ts";
import { emailValue } from "./validate.ts";

export const RESET_LINK_SECONDS = 6 * 3600;
/** A new agent may not read their mail the same day. */
export const INVITATION_LINK_SECONDS = 7 * 24 * 3600;
/** A second request for the same user within this long sends no second mail (no mail bombing). */
export const RESET_REPEAT_SECONDS = 60;
/**
 * Chatwoot's limits on asking for links (rack_attack.rb): 5 per 30 minutes from one address, 5 an
 * hour for one email, counted whether or not the address has a user (429 with Retry-After). Kept
 * in this process's memory, as the sign-in limits are.
 */
export const RESET_LIMITS = {
  perIp: { limit: 5, windowMs: 30 * 60_000 },
  perEmail: { limit: 5, windowMs: 60 * 60_000 },
};
export const RESET_REQUESTED =
  "Request for password reset is successful. An email with instructions will be sent to your email if it exists.";
/** Devise's words for a link that is unknown, used or expired. */
export const RESET_INVALID = "Invalid token";

export interface PasswordResetsDeps {
  users: UsersRepo;
  passwordResets: PasswordResetsRepo;
  passwords: PasswordsService;
  writeTx: WriteTx;
  clock: Clock;
  hasher: PasswordHasher;
  secretBox: SecretBox;
  /** Whether the installation has a mail server to send the link with (PARLEY_SMTP_URL). */
  mailConfigured: boolean;
  /** Runs after the current transaction commits: wakes the reset-mail sender. */
  afterCommit: (fn: () => void) => void;
  wakeSender: () => void;
}

export interface ResetInput {
  reset_password_token?: unknown;
  password?: unknown;
  password_confirmation?: unknown;
}

export class PasswordResetsService {
  private readonly byIp: SlidingWindowLimiter;
  private readonly byEmail: SlidingWindowLimiter;

  constructor(
    private readonly d: PasswordResetsDeps,
    limits = RESET_LIMITS,
  ) {
    this.byIp = new SlidingWindowLimiter(limits.perIp.limit, limits.perIp.windowMs, d.clock);
    this.byEmail = new SlidingWindowLimiter(limits.perEmail.limit, limits.perEmail.windowMs, d.clock);
  }

  /** Queues the reset mail for the user with this address, if there is one. `ip`: the caller's. */
  async request(rawEmail: unknown, ip: string | null): Promise<{ message: string }> {
    const errors = new FieldErrors();
    const email = emailValue(errors, "email", rawEmail, true);
    errors.throwIfAny();
    if (!this.d.mailConfigured)
      throw new AppError(503, "This server cannot send mail: ask an administrator to set your password", [
        { field: "email", message: "no mail server is configured (PARLEY_SMTP_URL)", code: "mail_not_configured" },
      ]);
    const address = email!.trim().toLowerCase();
    this.take(addressKey(ip), address);
    const { users, passwordResets, clock } = this.d;
    const self = this;
    const issued = await this.d.writeTx.steps(function* () {
      const user = yield* users.readByEmail(address);
      if (!user) return false;
      const now = unixSeconds(clock);
      const earlier = yield* passwordResets.readByUser(user.id);
      if (earlier && earlier.mail_state !== "failed" && now - earlier.requested_at < RESET_REPEAT_SECONDS) return false;
      yield* passwordResets.replaceSteps(self.newLink(user.id, "reset", null, now), now);
      return true;
    });
    if (issued) this.d.afterCommit(this.d.wakeSender);
    return { message: RESET_REQUESTED };
  }

  /**
   * Queues a new agent's link to choose their password, as steps of the caller's body (the agent's
   * creation, an invitation), so the two commit together; the caller then calls invitedAfterCommit.
   * False when the server cannot send mail: the administrator then sets the password with
   * `parley password`, as the web app's form says.
   */
  *inviteSteps(userId: number, accountId: number): Reads<boolean> {
    if (!this.d.mailConfigured) return false;
    const now = unixSeconds(this.d.clock);
    yield* this.d.passwordResets.replaceSteps(this.newLink(userId, "invitation", accountId, now), now);
    return true;
  }

  /** Wakes the sender once the invitation's body has committed (after awaiting it). */
  invitedAfterCommit(): void {
    this.d.afterCommit(this.d.wakeSender);
  }

  private newLink(userId: number, purpose: "reset" | "invitation", accountId: number | null, now: number): NewReset {
    const token = randomToken(32);
    const lifetime = purpose === "invitation" ? INVITATION_LINK_SECONDS : RESET_LINK_SECONDS;
    return {
      user_id: userId,
      token_digest: sha256Hex(token),
      sealed_token: this.d.secretBox.seal(token),
      expires_at: now + lifetime,
      purpose,
      account_id: accountId,
    };
  }

  /**
   * Sets the new password of the link's user and ends the reset; returns the user, whom the caller
   * signs in. The link is checked before the password is hashed (a guessed token costs no hash) and
   * again in the transaction (a link used twice at once works once).
   */
  async complete(input: ResetInput): Promise<UserRow> {
    const token = typeof input.reset_password_token === "string" ? input.reset_password_token : "";
    const digest = sha256Hex(token);
    if (token === "" || !(await readSoon(this.readLive(digest)))) throw invalidLink();
    const password = checkPassword(input.password);
    if (input.password_confirmation !== undefined && input.password_confirmation !== password)
      throw ValidationError.of("password_confirmation", "doesn't match Password", "confirmation");
    const hash = await this.d.hasher.hash(password);
    const { users, passwords } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const reset = yield* self.readLive(digest);
      const user = reset && (yield* users.readById(reset.user_id));
      if (!user) throw invalidLink();
      yield* passwords.replaceSteps(user.id, hash);
      return user;
    });
  }

  private take(ipKey: string, email: string): void {
    const waitIp = this.byIp.take(ipKey);
    if (waitIp > 0) throw new RateLimitedError(waitIp, "email", "Too many password-reset requests");
    const waitEmail = this.byEmail.take(email);
    if (waitEmail > 0) {
      this.byIp.refund(ipKey);
      throw new RateLimitedError(waitEmail, "email", "Too many password-reset requests");
    }
  }

  /** Drops resets whose links have expired (their mail, if still unsent, with them), and spent limits. */
  prune(): Promise<number> {
    this.byIp.sweep();
    this.byEmail.sweep();
    return this.d.writeTx.steps(() => this.d.passwordResets.deleteExpiredSteps(unixSeconds(this.d.clock)));
  }

  private *readLive(digest: string): Reads<PasswordResetRow | null> {
    const reset = yield* this.d.passwordResets.readByDigest(digest);
    return reset && reset.expires_at > unixSeconds(this.d.clock) ? reset : null;
  }
}

function invalidLink(): ValidationError {
  return new ValidationError(
    [{ field: "reset_password_token", message: "is invalid or has expired: ask for a new link", code: "invalid" }],
    RESET_INVALID,
  );
}
