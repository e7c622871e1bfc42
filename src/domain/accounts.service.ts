// Accounts, their first administrators, and API tokens. Bootstrap is what `parley bootstrap` and a
// first `parley serve` run: an account, an administrator, and a token shown once.
import type { AccountRow, AccountsRepo } from "../db/accounts.repo.ts";
import type { TokensRepo } from "../db/tokens.repo.ts";
import type { Role, UsersRepo } from "../db/users.repo.ts";
import { nested, type Reads, readNow, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { newAccessToken, randomToken, sha256Hex } from "../lib/tokens.ts";
import { FieldErrors, NotFoundError } from "./errors.ts";
import { emailValue, optionalString, requiredString } from "./validate.ts";

export interface AccountsDeps {
  accounts: AccountsRepo;
  users: UsersRepo;
  tokens: TokensRepo;
  writeTx: WriteTx;
  clock: Clock;
}

export interface BootstrapResult {
  account_id: number;
  user_id: number;
  api_access_token: string;
}

export interface BootstrapInput {
  account: unknown;
  name: unknown;
  email: unknown;
}

export interface AccountInput {
  name?: unknown;
  locale?: unknown;
  custom_attributes?: unknown;
}

export class AccountsService {
  constructor(private readonly d: AccountsDeps) {}

  /** A user and the accounts they belong to (the profile's record). */
  /** The user with their accounts and roles: awaited on PostgreSQL (src/db/reads.ts readSoon). */
  userWithAccountsSoon(userId: number) {
    const { users } = this.d;
    return readSoon(
      (function* () {
        const user = (yield* nested(users.readById(userId)))!;
        return { user, accounts: yield* nested(users.readAccountsOf(userId)) };
      })(),
    );
  }

  /** Creates an account with an administrator (reusing a user with that email) and issues a token. */
  bootstrap(input: BootstrapInput): Promise<BootstrapResult> {
    const { accounts, users, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const errors = new FieldErrors();
      const accountName = requiredString(errors, "account", input.account);
      const name = requiredString(errors, "name", input.name);
      const email = emailValue(errors, "email", input.email, true);
      errors.throwIfAny();
      const now = unixSeconds(clock);
      const accountId = yield* accounts.insertSteps({ name: accountName!, locale: "en", now });
      const userId = yield* self.findOrCreateUserSteps(name!, email!, now);
      yield* users.addMembershipSteps({ account_id: accountId, user_id: userId, role: "administrator", now });
      const token = yield* self.issueTokenSteps(userId, now);
      return { account_id: accountId, user_id: userId, api_access_token: token };
    });
  }

  /** In place, for the demo seed's body. */
  findOrCreateUser(name: string, email: string, now: number): number {
    return readNow(this.findOrCreateUserSteps(name, email, now));
  }

  /** The user with this email, or a new one: steps of an awaited body (an account's or an agent's creation). */
  *findOrCreateUserSteps(name: string, email: string, now: number): Reads<number> {
    const existing = yield* this.d.users.readByEmail(email);
    if (existing) return existing.id;
    return yield* this.d.users.insertSteps({ name, email, pubsub_token: randomToken(24), now });
  }

  async addMember(accountId: number, userId: number, role: Role): Promise<void> {
    const now = unixSeconds(this.d.clock);
    await this.d.writeTx.steps(() =>
      this.d.users.addMembershipSteps({ account_id: accountId, user_id: userId, role, now }),
    );
  }

  /** Issues a new token for a user (older tokens keep working). Returns the plaintext, shown once. */
  issueToken(userId: number): Promise<string> {
    return this.d.writeTx.steps(() => this.issueTokenSteps(userId, unixSeconds(this.d.clock)));
  }

  /** A new token for the user, as steps of the caller's body (bootstrap, issueToken, a platform user's first token). */
  *issueTokenSteps(userId: number, now: number): Reads<string> {
    const token = newAccessToken();
    yield* this.d.tokens.insertSteps({ token_hash: sha256Hex(token), owner_type: "user", owner_id: userId, now });
    return token;
  }

  /** Issues a token for the user with this email, for `parley token`. */
  async issueTokenForEmail(email: string): Promise<{ user_id: number; api_access_token: string }> {
    const user = await readSoon(this.d.users.readByEmail(email.trim().toLowerCase()));
    if (!user) throw new NotFoundError("User", "email", `no user with email ${email}`);
    return { user_id: user.id, api_access_token: await this.issueToken(user.id) };
  }

  update(accountId: number, input: AccountInput): Promise<AccountRow> {
    return this.d.writeTx.steps(() => this.updateSteps(accountId, input));
  }

  /** update() as steps of a body: the account API's, the Platform API's account writes. */
  *updateSteps(accountId: number, input: AccountInput): Reads<AccountRow> {
    const current = yield* this.readExisting(accountId);
    const errors = new FieldErrors();
    const name = input.name === undefined ? current.name : requiredString(errors, "name", input.name);
    const locale = input.locale === undefined ? current.locale : optionalString(errors, "locale", input.locale, 10);
    let custom = current.custom_attributes;
    if (input.custom_attributes !== undefined) {
      const v = input.custom_attributes;
      if (v === null || typeof v !== "object" || Array.isArray(v))
        errors.add("custom_attributes", "must be an object", "invalid");
      else custom = JSON.stringify({ ...(JSON.parse(current.custom_attributes) as object), ...(v as object) });
    }
    errors.throwIfAny();
    const fields = { name: name!, locale: locale ?? "en", custom_attributes: custom, now: unixSeconds(this.d.clock) };
    yield* this.d.accounts.updateSteps(accountId, fields);
    return yield* this.readExisting(accountId);
  }

  private *readExisting(accountId: number): Reads<AccountRow> {
    const account = yield* this.d.accounts.readById(accountId);
    if (!account) throw new NotFoundError("Account", "account_id");
    return account;
  }
}
