// GET /api/v1/profile: the caller's user with its accounts and roles; POST …/reset_access_token
// (Chatwoot's): every API token of the user is revoked and the profile answers with the new one.
import { Elysia } from "elysia";
import { profileOf } from "../domain/presenters/user.presenter.ts";
import type { Deps } from "../deps.ts";
import { userScope } from "./auth.ts";
import { Profile, errorResponses } from "./schemas.ts";

export function profileRoutes(d: Deps) {
  const profile = (userId: number, token: string | null) => {
    const { user, accounts } = d.services.accounts.userWithAccounts(userId);
    return profileOf(user, accounts, token, (accountId) => d.realtime.presence.isOnline(accountId, userId));
  };
  return new Elysia()
    .use(userScope(d.services.auth))
    .get("/api/v1/profile", ({ caller }) => profile(caller.user.id, caller.token), {
      response: { 200: Profile, 401: errorResponses[401] },
      detail: { tags: ["profile"], summary: "The token's user, with its accounts and roles" },
    })
    .post(
      "/api/v1/profile/reset_access_token",
      ({ caller }) => {
        return profile(caller.user.id, d.services.credentials.resetAccessToken(caller.user.id));
      },
      {
        response: { 200: Profile, 401: errorResponses[401] },
        detail: {
          tags: ["profile"],
          summary:
            "Revoke every API access token of the caller and issue a new one (answered once); realtime sockets opened with the old ones close",
        },
      },
    );
}
