// A signed-in user's mobile devices (Chatwoot's NotificationSubscriptionsController): the Chatwoot
// mobile app registers its FCM token after each sign-in and removes it on sign-out. One row per
// device (`device_id`); signing in as someone else on the same phone moves the row to them. Only
// FCM is taken: browser push (VAPID) and VoIP tokens are the Chatwoot dashboard's and iOS calls',
// which Parley has no use for.
import type { PushRepo, SubscriptionRow } from "../db/push.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { FieldErrors, ValidationError } from "./errors.ts";

/** What the app sends about a device (name, platform, build…) is kept, within reason. */
const ATTRIBUTES_MAX_BYTES = 4096;
const TOKEN_MAX = 4096;
const DEVICE_ID_MAX = 255;

export interface SubscriptionInput {
  subscription_type?: unknown;
  subscription_attributes?: unknown;
}

export class PushSubscriptionsService {
  constructor(private readonly d: { push: PushRepo; writeTx: WriteTx; clock: Clock }) {}

  subscribe(userId: number, input: SubscriptionInput): Promise<SubscriptionRow> {
    const errors = new FieldErrors();
    if (input.subscription_type === undefined || input.subscription_type === null || input.subscription_type === "")
      errors.add("subscription_type", "can't be blank", "required");
    else if (input.subscription_type !== "fcm")
      errors.add("subscription_type", "must be fcm (the Chatwoot mobile app's push)", "inclusion");
    const raw = input.subscription_attributes;
    const attributes =
      typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
    if (!attributes) errors.add("subscription_attributes", "must be an object", "invalid");
    const token = text(errors, "subscription_attributes.push_token", attributes?.push_token, TOKEN_MAX);
    // Older app builds send deviceId; the current one device_id.
    const device = text(
      errors,
      "subscription_attributes.device_id",
      attributes?.device_id ?? attributes?.deviceId,
      DEVICE_ID_MAX,
    );
    const json = attributes ? JSON.stringify(attributes) : "";
    if (attributes && Buffer.byteLength(json) > ATTRIBUTES_MAX_BYTES)
      errors.add("subscription_attributes", `is too large (maximum is ${ATTRIBUTES_MAX_BYTES} bytes)`, "too_long");
    errors.throwIfAny();
    return this.d.writeTx.steps(() =>
      this.d.push.subscribeSteps(
        { user_id: userId, identifier: device!, push_token: token!, attributes: json },
        unixSeconds(this.d.clock),
      ),
    );
  }

  /** Removes the caller's device with this token (200 whether or not there was one, as Chatwoot). */
  async unsubscribe(userId: number, pushToken: unknown): Promise<void> {
    if (typeof pushToken !== "string" || pushToken === "")
      throw ValidationError.of("push_token", "can't be blank", "required");
    await this.d.writeTx.steps(() => this.d.push.unsubscribeSteps(userId, pushToken));
  }
}

function text(errors: FieldErrors, field: string, value: unknown, max: number): string | null {
  if (typeof value !== "string" || value.trim() === "") {
    errors.add(field, "can't be blank", "required");
    return null;
  }
  if (value.length > max) errors.add(field, `is too long (maximum is ${max} characters)`, "too_long");
  return value;
}

/** Chatwoot's rendering of the record (`render json: notification_subscription`). */
export function subscriptionOf(s: SubscriptionRow) {
  return {
    id: s.id,
    user_id: s.user_id,
    subscription_type: s.subscription_type,
    subscription_attributes: JSON.parse(s.subscription_attributes) as Record<string, unknown>,
    identifier: s.identifier,
    created_at: new Date(s.created_at * 1000).toISOString(),
    updated_at: new Date(s.updated_at * 1000).toISOString(),
  };
}
