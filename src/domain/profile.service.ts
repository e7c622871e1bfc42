// The caller's own profile (Chatwoot's ProfilesController): name, display name, email, password and
// message signature (PUT /api/v1/profile), their availability in one account (POST …/availability, the mobile app's
// status toggle) and the account they work in now (PUT …/set_active_account, on switching accounts).
import type { AgentsRepo } from "../db/agents.repo.ts";
import type { PlatformRepo } from "../db/platform.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { MembershipRow, UsersRepo } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { BUSY, type PasswordHasher } from "../lib/passwords.ts";
import { parseId } from "./auth.service.ts";
import { FieldErrors, NotFoundError, RateLimitedError, ValidationError } from "./errors.ts";
import { checkPassword, type PasswordsService } from "./passwords.service.ts";
import { emailValue, oneOf, optionalString, requiredString } from "./validate.ts";

const AVAILABILITIES = ["online", "offline", "busy"] as const;

export interface ProfileInput {
  name?: unknown;
  display_name?: unknown;
  email?: unknown;
  current_password?: unknown;
  password?: unknown;
  password_confirmation?: unknown;
  message_signature?: unknown;
}

/** A signature is a few lines under a reply, not a letter. */
export const SIGNATURE_MAX_LENGTH = 2000;

export interface ProfileDeps {
  users: UsersRepo;
  agents: AgentsRepo;
  platform: PlatformRepo;
  passwords: PasswordsService;
  hasher: PasswordHasher;
  writeTx: WriteTx;
  clock: Clock;
}

export class ProfileService {
  constructor(private readonly d: ProfileDeps) {}

  /**
   * Changes what is given. A new password needs the current one (422 "Invalid current password",
   * Chatwoot's words) and, when sent, a matching confirmation; it ends the user's browser sessions
   * and gives them a new realtime token, as `parley password` does. All or nothing.
   */
  async update(userId: number, input: ProfileInput): Promise<void> {
    const { users, platform, passwords, clock } = this.d;
    const user = await readSoon(users.readById(userId));
    if (!user) throw new NotFoundError("User", "id");
    const errors = new FieldErrors();
    const name = input.name === undefined ? user.name : requiredString(errors, "name", input.name);
    const email = input.email === undefined ? user.email : emailValue(errors, "email", input.email, true);
    const displayName =
      input.display_name === undefined ? user.display_name : optionalString(errors, "display_name", input.display_name);
    const signature =
      input.message_signature === undefined ? undefined : signatureValue(errors, input.message_signature);
    errors.throwIfAny();
    const changingPassword = input.password !== undefined && input.password !== null && input.password !== "";
    let newHash: string | null = null;
    if (changingPassword) {
      const password = checkPassword(input.password);
      if (input.password_confirmation !== undefined && input.password_confirmation !== password)
        throw ValidationError.of("password_confirmation", "doesn't match Password", "invalid");
      const current = typeof input.current_password === "string" ? input.current_password : "";
      const ok = await this.d.hasher.verify(current, user.password_hash);
      if (ok === BUSY) throw new RateLimitedError(1, "current_password", "Too many password checks at once");
      if (!ok) throw ValidationError.of("current_password", "Invalid current password", "invalid");
      newHash = await this.d.hasher.hash(password);
    }
    await this.d.writeTx.steps(function* () {
      const holder = yield* users.readByEmail(email!);
      if (holder && holder.id !== userId) throw ValidationError.of("email", "has already been taken", "taken");
      // As stored now, not as read before the hashing awaited: a password set meanwhile stays.
      const stored = yield* users.readById(userId);
      yield* platform.updateUserSteps(userId, {
        name: name!,
        email: email!,
        display_name: displayName ?? null,
        password_hash: stored?.password_hash ?? null,
        now: unixSeconds(clock),
      });
      if (signature !== undefined) yield* users.setMessageSignatureSteps(userId, signature);
      // As a new password from `parley password`: sockets and browser sessions opened before it end.
      if (newHash) yield* passwords.replaceSteps(userId, newHash);
    });
  }

  /** The user's availability in one of their accounts (404 for an account they are not in); returns that account's id. */
  async setAvailability(userId: number, input: { account_id?: unknown; availability?: unknown }): Promise<number> {
    const { agents } = this.d;
    const self = this;
    // The membership as it is at the write (an administrator may change the role meanwhile): read in the body.
    return this.d.writeTx.steps(function* () {
      const current = yield* self.readMembership(userId, input.account_id);
      const errors = new FieldErrors();
      const availability = oneOf(errors, "availability", input.availability, AVAILABILITIES);
      errors.throwIfAny();
      const { account_id, user_id, role, auto_offline } = current;
      yield* agents.updateMembershipSteps({ account_id, user_id, role, auto_offline, availability: availability! });
      return account_id;
    });
  }

  /** The account the user works in now: the profile's account_id until they choose another. */
  async setActiveAccount(userId: number, input: { account_id?: unknown }): Promise<void> {
    const { users, clock } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      const membership = yield* self.readMembership(userId, input.account_id);
      yield* users.setActiveAtSteps(membership.account_id, userId, unixSeconds(clock));
    });
  }

  private *readMembership(userId: number, rawAccountId: unknown): Reads<MembershipRow> {
    if (rawAccountId === undefined || rawAccountId === null || rawAccountId === "")
      throw ValidationError.of("account_id", "can't be blank", "required");
    const accountId = parseId(rawAccountId);
    const membership = accountId === null ? null : yield* this.d.users.readMembership(accountId, userId);
    if (!membership)
      throw new NotFoundError("Account", "account_id", `you are not a member of account ${String(rawAccountId)}`);
    return membership;
  }
}

/** A signature: text up to SIGNATURE_MAX_LENGTH characters; null or blank removes it. */
function signatureValue(errors: FieldErrors, raw: unknown): string | null {
  if (raw === null) return null;
  if (typeof raw !== "string") {
    errors.add("message_signature", "must be text", "invalid");
    return null;
  }
  const text = raw.replace(/\r\n/g, "\n").trim();
  if ([...text].length > SIGNATURE_MAX_LENGTH)
    errors.add("message_signature", `is too long (maximum is ${SIGNATURE_MAX_LENGTH} characters)`, "too_long");
  return text === "" ? null : text;
}
