// /api/v1/profile (Chatwoot's ProfilesController): GET the caller's user with its accounts and
// roles; PUT/PATCH to change name, display name, email or password; POST …/availability (one
// account's online/busy/offline, the mobile app's status toggle); PUT …/set_active_account (the
// account the profile's account_id names); POST …/reset_access_token: every API token of the user is
// revoked and the profile answers with the new one. Bodies may nest under `profile`, as Chatwoot's do.
import { Elysia, t } from "elysia";
import { profileOf } from "../domain/presenters/user.presenter.ts";
import type { Deps } from "../deps.ts";
import { whenReady } from "../lib/when-ready.ts";
import { userScope } from "./auth.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { bodyOf } from "./request.ts";
import { Checked, Integer, Nullable, Profile, errorResponses } from "./schemas.ts";

const tags = ["profile"];
const ProfileBody = t.Object({
  name: t.Optional(Checked(t.String({ maxLength: 255 }))),
  display_name: t.Optional(Checked(Nullable(t.String({ maxLength: 255 })))),
  email: t.Optional(Checked(t.String({ format: "email" }))),
  current_password: t.Optional(Checked(t.String({ description: "required to change the password" }))),
  password: t.Optional(Checked(t.String({ minLength: 8, maxLength: 256 }))),
  password_confirmation: t.Optional(Checked(t.String({ description: "when sent, must equal password" }))),
  message_signature: t.Optional(
    Checked(
      Nullable(
        t.String({ maxLength: 2000, description: "added below replies by the web app; null or blank removes it" }),
      ),
    ),
  ),
});
const AccountChoice = {
  account_id: t.Optional(Checked(Integer({ description: "one of the caller's accounts" }))),
};

export function profileRoutes(d: Deps) {
  // Read on the read pool on PostgreSQL (after a change, once its body has committed).
  const profile = (userId: number, token: string | null) =>
    whenReady(d.services.accounts.userWithAccountsSoon(userId), ({ user, accounts }) =>
      profileOf(user, accounts, token, (accountId) => d.realtime.presence.isOnline(accountId, user.id)),
    );
  const answers = {
    response: { 200: Profile, 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] },
  };
  return new Elysia()
    .use(userScope(d.services.auth))
    .get("/api/v1/profile", ({ caller }) => profile(caller.user.id, caller.token), {
      response: { 200: Profile, 401: errorResponses[401] },
      detail: { tags, summary: "The token's user, with its accounts and roles" },
    })
    .patch(
      "/api/v1/profile",
      async ({ caller, body }) => {
        await d.services.profile.update(caller.user.id, body);
        return profile(caller.user.id, caller.token);
      },
      {
        ...bodyOf(ProfileBody, "profile"),
        ...answers,
        detail: {
          tags,
          summary:
            "Change the caller's name, display name, email, message signature or password (with current_password; ends their browser sessions)",
        },
      },
    )
    .post(
      "/api/v1/profile/availability",
      async ({ caller, body }) => {
        const accountId = await d.services.profile.setAvailability(caller.user.id, body);
        d.realtime.availabilityChanged(accountId); // the others' agent lists show the new status
        return await profile(caller.user.id, caller.token); // the availability's body has committed
      },
      {
        ...bodyOf(
          t.Object({
            ...AccountChoice,
            availability: t.Optional(Checked(t.String({ enum: ["online", "busy", "offline"] }))),
          }),
          "profile",
        ),
        ...answers,
        detail: { tags, summary: "Set the caller's availability in one of their accounts" },
      },
    )
    .put(
      "/api/v1/profile/set_active_account",
      async ({ caller, body }) => {
        await d.services.profile.setActiveAccount(caller.user.id, body);
        return emptyOk();
      },
      {
        ...bodyOf(t.Object(AccountChoice), "profile"),
        detail: { tags, summary: "Make one of the caller's accounts the profile's account_id (200, no body)" },
      },
    )
    .post(
      "/api/v1/profile/reset_access_token",
      async ({ caller }) => {
        const token = await d.services.credentials.resetAccessToken(caller.user.id);
        return await profile(caller.user.id, token); // the new token's body has committed
      },
      {
        response: { 200: Profile, 401: errorResponses[401] },
        detail: {
          tags,
          summary:
            "Revoke every API access token of the caller and issue a new one (answered once); realtime sockets opened with the old ones close",
        },
      },
    );
}
