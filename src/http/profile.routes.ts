// GET /api/v1/profile: the token's user with its accounts and roles.
import { Elysia, t } from "elysia";
import { profileOf } from "../domain/presenters/user.presenter.ts";
import type { Deps } from "../deps.ts";
import { userScope } from "./auth.ts";
import { Nullable, errorResponses } from "./schemas.ts";

export const Profile = t.Object({
  id: t.Integer(),
  access_token: Nullable(t.String()),
  account_id: Nullable(t.Integer()),
  available_name: t.String(),
  avatar_url: t.String(),
  confirmed: t.Boolean(),
  display_name: Nullable(t.String()),
  message_signature: Nullable(t.String()),
  email: t.String(),
  name: t.String(),
  provider: t.String(),
  pubsub_token: t.String(),
  role: Nullable(t.String()),
  ui_settings: t.Record(t.String(), t.Any()),
  uid: t.String(),
  type: t.String(),
  accounts: t.Array(
    t.Object({
      id: t.Integer(),
      name: t.String(),
      status: t.String(),
      active_at: Nullable(t.Integer()),
      role: t.String(),
      permissions: t.Array(t.String()),
      availability: t.String(),
      availability_status: t.String(),
      auto_offline: t.Boolean(),
    }),
  ),
});

export function profileRoutes(d: Deps) {
  return new Elysia()
    .use(userScope(d.services.auth))
    .get("/api/v1/profile", ({ caller }) => profileOf(caller.user, d.repos.users.accountsOf(caller.user.id), caller.token), {
      response: { 200: Profile, 401: errorResponses[401] },
      detail: { tags: ["profile"], summary: "The token's user, with its accounts and roles" },
    });
}
