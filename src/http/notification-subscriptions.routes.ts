// /api/v1/notification_subscriptions (Chatwoot's): the mobile app registers a device's FCM token
// after signing in (POST) and removes it on signing out (DELETE with push_token). The user's own
// devices only; pushes go out through PARLEY_PUSH_RELAY_URL (src/jobs/push-relay.job.ts).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { subscriptionOf } from "../domain/push-subscriptions.service.ts";
import { userScope } from "./auth.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { bodyOf } from "./request.ts";
import { Checked, errorResponses, Integer, JsonValue } from "./schemas.ts";

const tags = ["profile"];

const SubscriptionBody = t.Object({
  subscription_type: t.Optional(Checked(t.String({ enum: ["fcm"] }))),
  subscription_attributes: t.Optional(
    Checked(
      t.Object(
        { push_token: t.String(), device_id: t.String() },
        { additionalProperties: true, description: "the device: its FCM push_token, device_id, name, platform…" },
      ),
    ),
  ),
});

const Subscription = t.Object({
  id: Integer(),
  user_id: Integer(),
  subscription_type: t.String(),
  subscription_attributes: t.Record(t.String(), JsonValue),
  identifier: t.String(),
  created_at: t.String({ description: "ISO 8601, as Rails renders it" }),
  updated_at: t.String(),
});

export function notificationSubscriptionRoutes(d: Deps) {
  const subscriptions = d.services.pushSubscriptions;
  return new Elysia()
    .use(userScope(d.services.auth))
    .post(
      "/api/v1/notification_subscriptions",
      async ({ caller, body }) => subscriptionOf(await subscriptions.subscribe(caller.user.id, body)),
      {
        ...bodyOf(SubscriptionBody, "notification_subscription"),
        response: { 200: Subscription, ...errorResponses },
        detail: {
          tags,
          summary: "Register this device's FCM token for mobile push (one row per device_id; the caller's)",
        },
      },
    )
    .delete(
      "/api/v1/notification_subscriptions",
      async ({ caller, body }) => {
        await subscriptions.unsubscribe(caller.user.id, body.push_token);
        return emptyOk();
      },
      {
        ...bodyOf(t.Object({ push_token: t.Optional(Checked(t.String())) })),
        response: { 200: t.Void(), ...errorResponses },
        detail: { tags, summary: "Remove the caller's device with this push_token (200 whether or not it was there)" },
      },
    );
}
