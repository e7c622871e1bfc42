// The Platform API: an external system (a platform app, created by `parley platform-token`) creates
// accounts and users, puts users in accounts, and gets a user's API token to act on their behalf.
// An app sees only the accounts and users it created; anything else is 404, as if it did not exist.
// Those checks and the read-only routes' reads are in platform-reads.ts; the writes here run
// them in place.
import type { AttachmentsService } from "./attachments.service.ts";
import type { AccountRow } from "../db/accounts.repo.ts";
import type { AgentsRepo } from "../db/agents.repo.ts";
import type { PlatformAppRow } from "../db/platform.repo.ts";
import { readNow, readSoon } from "../db/reads.ts";
import type { TokensRepo } from "../db/tokens.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import type { MembershipRow, UserAccountRow, UserRow } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { newAccessToken, randomToken, sha256Hex } from "../lib/tokens.ts";
import type { AccountsService } from "./accounts.service.ts";
import { ROLES } from "./agents.service.ts";
import { FieldErrors, ValidationError } from "./errors.ts";
import { type PlatformReadDeps, PlatformReads } from "./platform-reads.ts";
import { emailValue, oneOf, optionalString, requiredString } from "./validate.ts";

export interface PlatformDeps extends PlatformReadDeps {
  agents: AgentsRepo;
  tokens: TokensRepo;
  accountsService: AccountsService;
  attachmentsService: AttachmentsService;
  writeTx: WriteTx;
  clock: Clock;
}

export interface PlatformAccountInput {
  name?: unknown;
  locale?: unknown;
  status?: unknown;
  custom_attributes?: unknown;
}

export interface PlatformUserInput {
  name?: unknown;
  display_name?: unknown;
  email?: unknown;
  password?: unknown;
}

const STATUSES = ["active", "suspended"] as const;

export interface CreatedApp {
  platform_app_id: number;
  api_access_token: string;
}

export class PlatformService {
  /** The read-only routes' forms (awaited on PostgreSQL) and the checks the writes below run in place. */
  readonly reads: PlatformReads;

  constructor(private readonly d: PlatformDeps) {
    this.reads = new PlatformReads(d);
  }

  /** A new platform app and its token (shown once). */
  createApp(name = "Platform app"): Promise<CreatedApp> {
    const { platform, tokens, clock } = this.d;
    return this.d.writeTx.steps(function* () {
      const now = unixSeconds(clock);
      const id = yield* platform.insertAppSteps(name, now);
      const token = newAccessToken();
      yield* tokens.insertSteps({ token_hash: sha256Hex(token), owner_type: "platform_app", owner_id: id, now });
      return { platform_app_id: id, api_access_token: token };
    });
  }

  /** The app a platform token belongs to, read in place (on PostgreSQL the routes await `reads.app`). */
  authenticate(token: string | null | undefined): PlatformAppRow {
    return readNow(this.reads.readApp(token));
  }

  // ---- accounts ----

  async createAccount(app: PlatformAppRow, input: PlatformAccountInput): Promise<AccountRow> {
    const errors = new FieldErrors();
    const name = requiredString(errors, "name", input.name);
    const locale = optionalString(errors, "locale", input.locale, 10);
    const status = input.status === undefined ? undefined : oneOf(errors, "status", input.status, STATUSES);
    errors.throwIfAny();
    const { accounts, platform, accountsService, clock } = this.d;
    return this.d.writeTx.steps(function* () {
      const now = unixSeconds(clock);
      const id = yield* accounts.insertSteps({ name: name!, locale: locale ?? "en", now });
      yield* platform.grantAccountSteps(app.id, id, now);
      if (input.custom_attributes !== undefined)
        yield* accountsService.updateSteps(id, { custom_attributes: input.custom_attributes });
      if (status) yield* platform.setAccountStatusSteps(id, status, now);
      return (yield* accounts.readById(id))!;
    });
  }

  /** name, locale and custom_attributes (merged) as the account API updates them, plus status. */
  async updateAccount(app: PlatformAppRow, rawId: unknown, input: PlatformAccountInput): Promise<AccountRow> {
    const { accounts, platform, accountsService, clock } = this.d;
    const reads = this.reads;
    return this.d.writeTx.steps(function* () {
      const account = yield* reads.readAccount(app, rawId);
      const errors = new FieldErrors();
      const status = input.status === undefined ? undefined : oneOf(errors, "status", input.status, STATUSES);
      errors.throwIfAny();
      const { name, locale, custom_attributes } = input;
      if (name !== undefined || locale !== undefined || custom_attributes !== undefined)
        yield* accountsService.updateSteps(account.id, { name, locale, custom_attributes });
      if (status && status !== account.status)
        yield* platform.setAccountStatusSteps(account.id, status, unixSeconds(clock));
      return (yield* accounts.readById(account.id))!;
    });
  }

  /** Deletes the account with everything in it; its users stay. */
  async deleteAccount(app: PlatformAppRow, rawId: unknown): Promise<void> {
    const { platform, attachmentsService } = this.d;
    const reads = this.reads;
    const files = await this.d.writeTx.steps(function* () {
      const account = yield* reads.readAccount(app, rawId);
      const keys = yield* attachmentsService.readKeysOfAccount(account.id);
      yield* platform.deleteAccountSteps(account.id);
      return keys;
    });
    attachmentsService.release(files);
  }

  // ---- users ----

  /**
   * Creates a user and issues its first API token. An email already in use is refused: Chatwoot
   * would hand the app that existing user (and so a token for it), which lets any app take over
   * any user by knowing their email.
   */
  async createUser(app: PlatformAppRow, input: PlatformUserInput): Promise<{ user: UserRow; token: string }> {
    const errors = new FieldErrors();
    const name = requiredString(errors, "name", input.name);
    const email = emailValue(errors, "email", input.email, true);
    const displayName = optionalString(errors, "display_name", input.display_name);
    const passwordHash = this.passwordHash(errors, input.password);
    errors.throwIfAny();
    const { users, platform, accountsService, clock } = this.d;
    return this.d.writeTx.steps(function* () {
      if (yield* users.readByEmail(email!)) throw ValidationError.of("email", "has already been taken", "taken");
      const now = unixSeconds(clock);
      const id = yield* users.insertSteps({ name: name!, email: email!, pubsub_token: randomToken(24), now });
      yield* platform.updateUserSteps(id, {
        name: name!,
        display_name: displayName ?? null,
        email: email!,
        password_hash: passwordHash ?? null,
        now,
      });
      yield* platform.grantUserSteps(app.id, id, now);
      const token = yield* accountsService.issueTokenSteps(id, now);
      return { user: (yield* users.readById(id))!, token };
    });
  }

  async updateUser(app: PlatformAppRow, rawId: unknown, input: PlatformUserInput): Promise<UserRow> {
    const { users, platform, clock } = this.d;
    const reads = this.reads;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const user = yield* reads.readUser(app, rawId);
      const errors = new FieldErrors();
      const name = input.name === undefined ? user.name : requiredString(errors, "name", input.name);
      const email = input.email === undefined ? user.email : emailValue(errors, "email", input.email, true);
      const displayName =
        input.display_name === undefined
          ? user.display_name
          : optionalString(errors, "display_name", input.display_name);
      const passwordHash =
        input.password === undefined ? user.password_hash : self.passwordHash(errors, input.password);
      errors.throwIfAny();
      const holder = yield* users.readByEmail(email!);
      if (holder && holder.id !== user.id) throw ValidationError.of("email", "has already been taken", "taken");
      yield* platform.updateUserSteps(user.id, {
        name: name!,
        email: email!,
        display_name: displayName ?? null,
        password_hash: passwordHash ?? null,
        now: unixSeconds(clock),
      });
      return (yield* users.readById(user.id))!;
    });
  }

  /** Deletes the user, its memberships everywhere and its tokens. */
  async deleteUser(app: PlatformAppRow, rawId: unknown): Promise<void> {
    const { tokens, platform } = this.d;
    const reads = this.reads;
    await this.d.writeTx.steps(function* () {
      const user = yield* reads.readUser(app, rawId);
      yield* tokens.revokeAllSteps("user", user.id);
      yield* platform.deleteUserSteps(user.id);
    });
  }

  /** Tokens are stored hashed, so "get the user's token" issues a new one (older ones keep working). */
  async issueUserToken(app: PlatformAppRow, rawId: unknown): Promise<{ user: UserRow; token: string }> {
    const { accountsService, clock } = this.d;
    const reads = this.reads;
    return this.d.writeTx.steps(function* () {
      const user = yield* reads.readUser(app, rawId);
      return { user, token: yield* accountsService.issueTokenSteps(user.id, unixSeconds(clock)) };
    });
  }

  /** The user's memberships of accounts this app created (the only ones it may see). */
  visibleAccountsOf(app: PlatformAppRow, userId: number): UserAccountRow[] | Promise<UserAccountRow[]> {
    return readSoon(this.reads.readVisibleAccountsOf(app, userId));
  }

  // ---- account users ----

  /** Adds a user the app created to an account it created, or changes their role there. */
  async addAccountUser(
    app: PlatformAppRow,
    rawAccountId: unknown,
    input: { user_id?: unknown; role?: unknown },
  ): Promise<MembershipRow> {
    const { users, platform, clock } = this.d;
    const reads = this.reads;
    return this.d.writeTx.steps(function* () {
      const account = yield* reads.readAccount(app, rawAccountId);
      const errors = new FieldErrors();
      if (input.user_id === undefined || input.user_id === null) errors.add("user_id", "can't be blank", "required");
      const role = input.role === undefined ? "agent" : oneOf(errors, "role", input.role, ROLES);
      errors.throwIfAny();
      const user = yield* reads.readUser(app, input.user_id);
      if (yield* users.readMembership(account.id, user.id)) yield* platform.setRoleSteps(account.id, user.id, role!);
      else
        yield* users.addMembershipSteps({
          account_id: account.id,
          user_id: user.id,
          role: role!,
          now: unixSeconds(clock),
        });
      return (yield* users.readMembership(account.id, user.id))!;
    });
  }

  /** Takes a user out of the account (with their inbox and team memberships there). */
  async removeAccountUser(app: PlatformAppRow, rawAccountId: unknown, input: { user_id?: unknown }): Promise<void> {
    const { agents } = this.d;
    const reads = this.reads;
    await this.d.writeTx.steps(function* () {
      const account = yield* reads.readAccount(app, rawAccountId);
      if (input.user_id === undefined || input.user_id === null)
        throw ValidationError.of("user_id", "can't be blank", "required");
      const user = yield* reads.readUser(app, input.user_id);
      yield* agents.removeFromAccountSteps(account.id, user.id);
    });
  }

  private passwordHash(errors: FieldErrors, password: unknown): string | null | undefined {
    if (password === undefined || password === null) return undefined;
    if (typeof password !== "string" || password.length < 8 || password.length > 128) {
      errors.add("password", "must be a string of 8 to 128 characters", "invalid");
      return undefined;
    }
    // Argon2id for web sign-in passwords (rare); API tokens stay SHA-256.
    return Bun.password.hashSync(password);
  }
}
