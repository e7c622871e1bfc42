// /platform/api/v1 — accounts, users, account users and user tokens for an external system,
// authenticated by a platform app token (`parley platform-token`) in the api_access_token header.
import { Elysia, t } from "elysia";
import type { PlatformAppRow, PlatformMembershipRow } from "../db/platform.repo.ts";
import type { UserRow } from "../db/users.repo.ts";
import type { Deps } from "../deps.ts";
import { ROLES } from "../domain/agents.service.ts";
import { accountOf, profileOf } from "../domain/presenters/user.presenter.ts";
import type { PlatformService } from "../domain/platform.service.ts";
import { whenReady } from "../lib/when-ready.ts";
import { Account } from "./accounts.routes.ts";
import { bodyOf } from "./request.ts";
import { Attributes, Checked, errorResponses, Integer, Nullable, PlainInteger, Profile, Text } from "./schemas.ts";

// Unchecked here: the platform service checks each field with Chatwoot-style messages.
const Name = t.Optional(Checked(t.String({ minLength: 1, maxLength: 255 })));
const AccountBody = t.Object({
  name: Name,
  locale: t.Optional(Checked(Text(10, "default en"))),
  status: t.Optional(Checked(t.String({ enum: ["active", "suspended"] }))),
  custom_attributes: t.Optional(Attributes),
});
const UserBody = t.Object({
  name: Name,
  display_name: t.Optional(Checked(Text(255))),
  email: t.Optional(Checked(t.String({ format: "email", maxLength: 254 }))),
  password: t.Optional(Checked(Nullable(t.String({ minLength: 8, maxLength: 128, description: "web sign-in" })))),
});
const AccountUserBody = t.Object({
  user_id: t.Optional(Checked(PlainInteger({ minimum: 1 }))),
  role: t.Optional(Checked(t.String({ enum: [...ROLES], default: "agent" }))),
});

const AccountUser = t.Object({
  account_id: Integer(),
  user_id: Integer(),
  role: t.String(),
  availability: t.String(),
  auto_offline: t.Boolean(),
  created_at: Integer(),
});

const UserToken = t.Object({
  access_token: t.String({ description: "a new API access token for the user, shown once" }),
  expiry: t.Null(),
  user: t.Object({
    id: Integer(),
    name: t.String(),
    display_name: t.Union([t.String(), t.Null()]),
    email: t.String(),
    pubsub_token: t.String(),
  }),
});

const IdParams = t.Object({ id: t.String() });
const ok = () => new Response(null, { status: 200 });
const tags = ["platform"];
const responses = { 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] };

type Headers = Record<string, string | undefined>;

/**
 * The platform app whose token is in the api_access_token header, or 401. Elysia awaits a derive
 * only if it is an async function (src/http/auth.ts): on PostgreSQL the token's app is awaited on
 * the read pool (a token written by earlier requests or the CLI, committed), for every route; on
 * SQLite it is read in place and the derive stays synchronous.
 */
export function platformScope(platform: PlatformService) {
  const { reads } = platform;
  const derive = reads.awaits
    ? async ({ headers }: { headers: Headers }) => ({ platformApp: await reads.app(headers.api_access_token) })
    : ({ headers }: { headers: Headers }) => ({ platformApp: platform.authenticate(headers.api_access_token) });
  return new Elysia().derive({ as: "scoped" }, derive);
}

export function platformRoutes(d: Deps) {
  const s = d.services.platform;
  // The read-only routes' reads: awaited on PostgreSQL, in place on SQLite (src/db/reads.ts).
  const { reads } = s;
  // The platform's view of a user lists only the accounts this app created.
  const userOf = (app: PlatformAppRow, user: UserRow, token: string | null) =>
    whenReady(s.visibleAccountsOf(app, user.id), (accounts) => profileOf(user, accounts, token));
  const accountUser = (m: PlatformMembershipRow) => ({
    ...m,
    auto_offline: m.auto_offline === 1,
  });
  return new Elysia({ prefix: "/platform/api/v1" })
    .use(platformScope(s))
    .post("/accounts", async ({ platformApp, body }) => accountOf(await s.createAccount(platformApp, body)), {
      ...bodyOf(AccountBody, "account"),
      response: { 200: Account, ...responses },
      detail: { tags, summary: "Create an account" },
    })
    .get("/accounts/:id", ({ platformApp, params }) => whenReady(reads.account(platformApp, params.id), accountOf), {
      params: IdParams,
      response: { 200: Account, ...responses },
      detail: { tags, summary: "Show an account this app created" },
    })
    .patch(
      "/accounts/:id",
      async ({ platformApp, params, body }) => accountOf(await s.updateAccount(platformApp, params.id, body)),
      {
        params: IdParams,
        ...bodyOf(AccountBody, "account"),
        response: { 200: Account, ...responses },
        detail: {
          tags,
          summary: "Update an account (name, locale, custom_attributes merged, status active/suspended)",
        },
      },
    )
    .delete("/accounts/:id", async ({ platformApp, params }) => (await s.deleteAccount(platformApp, params.id), ok()), {
      params: IdParams,
      response: { 200: t.Void(), ...responses },
      detail: { tags, summary: "Delete an account and everything in it" },
    })
    .get(
      "/accounts/:id/account_users",
      ({ platformApp, params }) => whenReady(reads.accountUsers(platformApp, params.id), (m) => m.map(accountUser)),
      {
        params: IdParams,
        response: { 200: t.Array(AccountUser), ...responses },
        detail: { tags, summary: "The account's users and their roles" },
      },
    )
    .post(
      "/accounts/:id/account_users",
      async ({ platformApp, params, body }) => accountUser(await s.addAccountUser(platformApp, params.id, body)),
      {
        params: IdParams,
        ...bodyOf(AccountUserBody, "account_user"),
        response: { 200: AccountUser, ...responses },
        detail: { tags, summary: "Add a user this app created to the account with a role, or change the role" },
      },
    )
    .delete(
      "/accounts/:id/account_users",
      async ({ platformApp, params, body }) => (await s.removeAccountUser(platformApp, params.id, body), ok()),
      {
        params: IdParams,
        ...bodyOf(AccountUserBody, "account_user"),
        response: { 200: t.Void(), ...responses },
        detail: { tags, summary: "Take a user out of the account" },
      },
    )
    .post(
      "/users",
      async ({ platformApp, body }) => {
        const { user, token } = await s.createUser(platformApp, body);
        return userOf(platformApp, user, token);
      },
      {
        ...bodyOf(UserBody, "user"),
        response: { 200: Profile, ...responses },
        detail: { tags, summary: "Create a user; access_token holds its first API token (shown once)" },
      },
    )
    .get(
      "/users/:id",
      ({ platformApp, params }) =>
        whenReady(reads.user(platformApp, params.id), ({ user, accounts }) => profileOf(user, accounts, null)),
      {
        params: IdParams,
        response: { 200: Profile, ...responses },
        detail: { tags, summary: "Show a user this app created (access_token is null: tokens are stored hashed)" },
      },
    )
    .patch(
      "/users/:id",
      async ({ platformApp, params, body }) =>
        userOf(platformApp, await s.updateUser(platformApp, params.id, body), null),
      {
        params: IdParams,
        ...bodyOf(UserBody, "user"),
        response: { 200: Profile, ...responses },
        detail: { tags, summary: "Update a user (name, display_name, email, password)" },
      },
    )
    .delete("/users/:id", async ({ platformApp, params }) => (await s.deleteUser(platformApp, params.id), ok()), {
      params: IdParams,
      response: { 200: t.Void(), ...responses },
      detail: { tags, summary: "Delete a user with its memberships and tokens" },
    })
    .post(
      "/users/:id/token",
      async ({ platformApp, params }) => {
        const { user, token } = await s.issueUserToken(platformApp, params.id);
        return {
          access_token: token,
          expiry: null,
          user: {
            id: user.id,
            name: user.name,
            display_name: user.display_name,
            email: user.email,
            pubsub_token: user.pubsub_token,
          },
        };
      },
      {
        params: IdParams,
        response: { 200: UserToken, ...responses },
        detail: {
          tags,
          summary: "Issue a new API access token for the user (tokens are stored hashed, so each call makes a new one)",
        },
      },
    );
}
