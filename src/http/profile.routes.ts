// GET /api/v1/profile: the caller's user with its accounts and roles.
import { Elysia } from "elysia";
import { profileOf } from "../domain/presenters/user.presenter.ts";
import type { Deps } from "../deps.ts";
import { userScope } from "./auth.ts";
import { Profile, errorResponses } from "./schemas.ts";

export function profileRoutes(d: Deps) {
  return new Elysia()
    .use(userScope(d.services.auth))
    .get("/api/v1/profile", ({ caller }) => profileOf(caller.user, d.repos.users.accountsOf(caller.user.id), caller.token, (accountId) => d.realtime.presence.isOnline(accountId, caller.user.id)), {
      response: { 200: Profile, 401: errorResponses[401] },
      detail: { tags: ["profile"], summary: "The token's user, with its accounts and roles" },
    });
}
