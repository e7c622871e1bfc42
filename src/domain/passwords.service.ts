// Web sign-in passwords: set by `parley password` and, for the first administrator, by the first
// `serve`. Setting a password ends the user's browser sessions and gives them a new realtime
// pubsub_token (API tokens are separate and stay).
import type { PasswordResetsRepo } from "../db/password-resets.repo.ts";
import type { SessionsRepo } from "../db/sessions.repo.ts";
import type { Reads } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { UsersRepo } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { PasswordHasher } from "../lib/passwords.ts";
import { randomToken } from "../lib/tokens.ts";
import { NotFoundError, ValidationError } from "./errors.ts";

export const PASSWORD_MIN_LENGTH = 8;
/** argon2 would hash any length; a cap keeps one sign-in from costing more than the next. */
export const PASSWORD_MAX_LENGTH = 256;

export interface PasswordsDeps {
  users: UsersRepo;
  sessions: SessionsRepo;
  passwordResets: PasswordResetsRepo;
  writeTx: WriteTx;
  clock: Clock;
  hasher: PasswordHasher;
}

export class PasswordsService {
  constructor(private readonly d: PasswordsDeps) {}

  /** Sets a user's password; returns how many browser sessions it ended. */
  async set(userId: number, password: unknown): Promise<number> {
    const hash = await this.d.hasher.hash(checkPassword(password));
    const { users } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      if (!(yield* users.readById(userId))) throw new NotFoundError("User", "user_id");
      return yield* self.replaceSteps(userId, hash);
    });
  }

  /**
   * What a new password does, as steps of the caller's body (this service's, a reset's): the hash
   * is stored, the browser sessions end, the user gets a new pubsub_token, so realtime sockets that
   * subscribed with the old one are closed, and a pending password-reset link stops working (it was
   * asked for the old password). Returns how many sessions ended.
   */
  *replaceSteps(userId: number, hash: string): Reads<number> {
    yield* this.d.users.setPasswordHashSteps(userId, hash, randomToken(24), unixSeconds(this.d.clock));
    yield* this.d.passwordResets.deleteSteps(userId);
    return yield* this.d.sessions.deleteForUserSteps(userId);
  }

  async setForEmail(email: string, password: unknown): Promise<{ user_id: number; sessions_ended: number }> {
    const user = this.d.users.byEmail(email.trim().toLowerCase());
    if (!user) throw new NotFoundError("User", "email", `no user with email ${email}`);
    return { user_id: user.id, sessions_ended: await this.set(user.id, password) };
  }

  /** Gives the user a random password (about 93 bits) and returns it, to be shown once. */
  async setRandom(userId: number): Promise<string> {
    const password = randomToken(16);
    await this.set(userId, password);
    return password;
  }
}

/** A new password: 8 to 256 characters (422 naming `password` otherwise). */
export function checkPassword(password: unknown): string {
  if (typeof password !== "string" || password === "")
    throw ValidationError.of("password", "can't be blank", "required");
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    throw ValidationError.of("password", `is too short (minimum is ${PASSWORD_MIN_LENGTH} characters)`, "too_short");
  }
  if (length > PASSWORD_MAX_LENGTH) {
    throw ValidationError.of("password", `is too long (maximum is ${PASSWORD_MAX_LENGTH} characters)`, "too_long");
  }
  return password;
}
