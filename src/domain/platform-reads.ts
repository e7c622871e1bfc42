// The Platform API's reads, written once as Reads (src/db/reads.ts): the app behind a platform
// token, and the account or user a path names, each only if this app created it
// (anything else is 404, as if it did not exist). The write paths run them in place (readNow, in
// platform.service.ts); the read-only routes take the forms below, awaited on PostgreSQL's read
// pool (readSoon) and in place on SQLite.
import type { AccountRow, AccountsRepo } from "../db/accounts.repo.ts";
import type { PlatformAppRow, PlatformMembershipRow, PlatformRepo } from "../db/platform.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { UserAccountRow, UserRow, UsersRepo } from "../db/users.repo.ts";
import { sha256Hex } from "../lib/tokens.ts";
import { parseId } from "./auth.service.ts";
import { NotFoundError, UnauthorizedError } from "./errors.ts";

export interface PlatformReadDeps {
  platform: PlatformRepo;
  accounts: AccountsRepo;
  users: UsersRepo;
}

/** A user as the platform shows them: with their memberships of the accounts this app created. */
export interface PlatformUser {
  user: UserRow;
  accounts: UserAccountRow[];
}

type Soon<T> = T | Promise<T>;

export class PlatformReads {
  constructor(private readonly d: PlatformReadDeps) {}

  /** Whether the forms below await (PostgreSQL), so that the platform scope stays synchronous on SQLite. */
  get awaits(): boolean {
    return this.d.platform.pooled;
  }

  // ---- read-only routes: awaited on PostgreSQL, in place on SQLite ----

  app(token: string | null | undefined): Soon<PlatformAppRow> {
    return readSoon(this.readApp(token));
  }

  account(app: PlatformAppRow, rawId: unknown): Soon<AccountRow> {
    return readSoon(this.readAccount(app, rawId));
  }

  accountUsers(app: PlatformAppRow, rawAccountId: unknown): Soon<PlatformMembershipRow[]> {
    return readSoon(chain(this.readAccount(app, rawAccountId), (a) => this.d.platform.readMemberships(a.id)));
  }

  user(app: PlatformAppRow, rawId: unknown): Soon<PlatformUser> {
    return readSoon(this.readProfile(app, rawId));
  }

  // ---- the Reads, for both ----

  /** The app a platform token belongs to; user tokens do not open the Platform API. */
  *readApp(token: string | null | undefined): Reads<PlatformAppRow> {
    if (!token) throw new UnauthorizedError();
    const app = yield* nested(this.d.platform.readAppByToken(sha256Hex(token)));
    if (!app) throw new UnauthorizedError("Invalid access_token");
    return app;
  }

  *readAccount(app: PlatformAppRow, rawId: unknown): Reads<AccountRow> {
    const { platform, accounts } = this.d;
    return yield* readOwned(
      "Account",
      rawId,
      (id) => platform.readOwnsAccount(app.id, id),
      (id) => accounts.readById(id),
    );
  }

  *readUser(app: PlatformAppRow, rawId: unknown): Reads<UserRow> {
    const { platform, users } = this.d;
    return yield* readOwned(
      "User",
      rawId,
      (id) => platform.readOwnsUser(app.id, id),
      (id) => users.readById(id),
    );
  }

  *readProfile(app: PlatformAppRow, rawId: unknown): Reads<PlatformUser> {
    const user = yield* nested(this.readUser(app, rawId));
    return { user, accounts: yield* nested(this.readVisibleAccountsOf(app, user.id)) };
  }

  /** The user's memberships of accounts this app created (the only ones it may see). */
  *readVisibleAccountsOf(app: PlatformAppRow, userId: number): Reads<UserAccountRow[]> {
    const visible = yield* nested(this.d.platform.readAccountIds(app.id));
    return (yield* nested(this.d.users.readAccountsOf(userId))).filter((a) => visible.has(a.account_id));
  }
}

/** The account or user at `rawId` if this app created it: not an id, unknown or not its own are one 404. */
function* readOwned<T>(
  entity: "Account" | "User",
  rawId: unknown,
  owns: (id: number) => Reads<boolean>,
  byId: (id: number) => Reads<T | null>,
): Reads<T> {
  const id = parseId(rawId);
  const row = id !== null && (yield* nested(owns(id))) ? yield* nested(byId(id)) : null;
  if (!row) {
    const message = `no ${entity.toLowerCase()} ${String(rawId)} created by this platform app`;
    throw new NotFoundError(entity, "id", message);
  }
  return row;
}
