// Accounts, their first administrators, and API tokens. Bootstrap is what `parley bootstrap` and a
// first `parley serve` run: an account, an administrator, and a token shown once.
import type { AccountRow, AccountsRepo } from "../db/accounts.repo.ts";
import type { TokensRepo } from "../db/tokens.repo.ts";
import type { Role, UserAccountRow, UserRow, UsersRepo } from "../db/users.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
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
  userWithAccounts(userId: number): { user: UserRow; accounts: UserAccountRow[] } {
    return { user: this.d.users.byId(userId)!, accounts: this.d.users.accountsOf(userId) };
  }

  /** userWithAccounts() for a read-only route: awaited on PostgreSQL (src/db/reads.ts readSoon). */
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
    return this.d.writeTx(() => this.bootstrapBody(input));
  }

  /** bootstrap()'s body, run in its transaction. */
  private bootstrapBody(input: BootstrapInput): BootstrapResult {
    const errors = new FieldErrors();
    const accountName = requiredString(errors, "account", input.account);
    const name = requiredString(errors, "name", input.name);
    const email = emailValue(errors, "email", input.email, true);
    errors.throwIfAny();
    const now = unixSeconds(this.d.clock);
    const accountId = this.d.accounts.insert({ name: accountName!, locale: "en", now });
    const userId = this.findOrCreateUser(name!, email!, now);
    this.d.users.addMembership({ account_id: accountId, user_id: userId, role: "administrator", now });
    const token = this.issueTokenInTx(userId, now);
    return { account_id: accountId, user_id: userId, api_access_token: token };
  }

  findOrCreateUser(name: string, email: string, now: number): number {
    const existing = this.d.users.byEmail(email);
    if (existing) return existing.id;
    return this.d.users.insert({ name, email, pubsub_token: randomToken(24), now });
  }

  /** findOrCreateUser as steps of an awaited body (an agent's creation). */
  *findOrCreateUserSteps(name: string, email: string, now: number): Reads<number> {
    const existing = yield* this.d.users.readByEmail(email);
    if (existing) return existing.id;
    return yield* this.d.users.insertSteps({ name, email, pubsub_token: randomToken(24), now });
  }

  async addMember(accountId: number, userId: number, role: Role): Promise<void> {
    await this.d.writeTx(() =>
      this.d.users.addMembership({ account_id: accountId, user_id: userId, role, now: unixSeconds(this.d.clock) }),
    );
  }

  /** Issues a new token for a user (older tokens keep working). Returns the plaintext, shown once. */
  issueToken(userId: number): Promise<string> {
    return this.d.writeTx(() => this.issueTokenInTx(userId, unixSeconds(this.d.clock)));
  }

  /** A new token for the user, inside the caller's writeTx (bootstrap, issueToken, a platform user's first token). */
  issueTokenInTx(userId: number, now: number): string {
    const token = newAccessToken();
    this.d.tokens.insert({ token_hash: sha256Hex(token), owner_type: "user", owner_id: userId, now });
    return token;
  }

  /** Issues a token for the user with this email, for `parley token`. */
  async issueTokenForEmail(email: string): Promise<{ user_id: number; api_access_token: string }> {
    const user = this.d.users.byEmail(email.trim().toLowerCase());
    if (!user) throw new NotFoundError("User", "email", `no user with email ${email}`);
    return { user_id: user.id, api_access_token: await this.issueToken(user.id) };
  }

  get(accountId: number): AccountRow {
    const account = this.d.accounts.byId(accountId);
    if (!account) throw new NotFoundError("Account", "account_id");
    return account;
  }

  update(accountId: number, input: AccountInput): Promise<AccountRow> {
    return this.d.writeTx(() => this.updateNow(accountId, input));
  }

  /** update() in place: for a caller inside its own transaction (the Platform API's account writes). */
  updateNow(accountId: number, input: AccountInput): AccountRow {
    const current = this.get(accountId);
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
    this.d.writeTx.now(() =>
      this.d.accounts.update(accountId, {
        name: name!,
        locale: locale ?? "en",
        custom_attributes: custom,
        now: unixSeconds(this.d.clock),
      }),
    );
    return this.get(accountId);
  }
}
