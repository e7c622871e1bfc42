// GET/PATCH /api/v1/accounts/:account_id — the account itself.
import { Elysia, t } from "elysia";
import { accountOf } from "../domain/presenters/user.presenter.ts";
import type { Deps } from "../deps.ts";
import { accountScope } from "./auth.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Attributes, errorResponses, Integer } from "./schemas.ts";

export const Account = t.Object({
  id: Integer(),
  name: t.String(),
  locale: t.String(),
  status: t.String(),
  custom_attributes: Attributes,
  created_at: Integer(),
});

const AccountUpdate = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
  locale: t.Optional(t.String({ maxLength: 10 })),
  custom_attributes: t.Optional(Attributes),
});

export function accountRoutes(d: Deps) {
  const accounts = d.services.accounts;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id" })
    .use(accountScope(d.services.auth))
    .get("", ({ principal }) => accountOf(principal.account), {
      params: AccountParams,
      response: { 200: Account, ...errorResponses },
      detail: { tags: ["accounts"], summary: "Show the account" },
    })
    .patch("", async ({ principal, body }) => accountOf(await accounts.update(principal.account.id, body)), {
      admin: true,
      params: AccountParams,
      ...bodyOf(AccountUpdate, "account"),
      response: { 200: Account, ...errorResponses },
      detail: { tags: ["accounts"], summary: "Update the account (administrators)" },
    });
}
