// /api/v1/accounts/:account_id/webhooks — subscriptions (administrators) and their delivery log.
// Create returns the bare record plus its secret; create and update both add, for clients written
// against Chatwoot (Activepieces reads payload.webhook.id), the same record again under payload.webhook.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { deliveryDetailOf, deliveryOf, webhookOf, webhookWithSecret } from "../domain/presenters/webhook.presenter.ts";
import { MAX_WEBHOOK_URL_LENGTH } from "../lib/ssrf.ts";
import { whenReady } from "../lib/when-ready.ts";
import { WEBHOOK_KINDS } from "../shared/event-types.ts";
import { accountScope } from "./auth.ts";
import { bodyOf } from "./request.ts";
import {
  AccountParams,
  Attributes,
  Checked,
  Documented,
  errorResponses,
  Integer,
  JsonValue,
  Nullable,
  PlainInteger,
  Text,
} from "./schemas.ts";

const Webhook = t.Object({
  id: Integer(),
  account_id: Integer(),
  name: Nullable(t.String()),
  url: t.String(),
  subscriptions: t.Array(t.String()),
  inbox_id: Nullable(Integer()),
  inbox: t.Optional(t.Object({ id: Integer(), name: t.String() })),
  disabled_reason: Nullable(t.String()),
});
// Spreads, not t.Composite: a composite is worked out at start (~2 ms each), and these are plain objects.
const WebhookWithSecret = t.Object({ ...Webhook.properties, secret: t.String() });
const WebhookUpdated = t.Object({ ...Webhook.properties, payload: t.Object({ webhook: Webhook }) });

// Unchecked on purpose: the service checks each field and names it in Chatwoot-style messages. The
// array variant lets a form send subscriptions as JSON text.
const WebhookBody = t.Object({
  url: t.Optional(Checked(t.String({ format: "uri", maxLength: MAX_WEBHOOK_URL_LENGTH, description: "http(s)" }))),
  name: t.Optional(Checked(Text(255))),
  subscriptions: t.Optional(
    Documented(
      t.Union([t.Array(JsonValue), JsonValue]),
      t.Array(t.String({ enum: [...WEBHOOK_KINDS] }), { minItems: 1, description: "the events to deliver" }),
    ),
  ),
  inbox_id: t.Optional(Checked(Nullable(PlainInteger({ description: "only this inbox's events; null for all" })))),
});

const Delivery = t.Object({
  id: t.String({ description: "the X-Chatwoot-Delivery / webhook-id header value, the same on every attempt" }),
  event: t.String(),
  event_id: Integer(),
  status: t.Union([t.Literal("pending"), t.Literal("delivered"), t.Literal("failed")]),
  attempts: Integer(),
  max_attempts: Integer(),
  last_status_code: Nullable(Integer()),
  last_latency_ms: Nullable(Integer()),
  last_error: Nullable(t.String()),
  next_attempt_at: Nullable(Integer()),
  created_at: Integer(),
  updated_at: Integer(),
});
const Attempt = t.Object({
  attempt: Integer(),
  started_at: Integer(),
  status_code: Nullable(Integer()),
  latency_ms: Integer(),
  error: Nullable(t.String()),
  response_excerpt: Nullable(t.String()),
});
const DeliveryDetail = t.Object({
  ...Delivery.properties,
  target_url: t.String(),
  payload: Attributes,
  attempts_log: t.Array(Attempt),
});

const WebhookParams = t.Object({ account_id: t.String(), id: t.String() });
const DeliveryParams = t.Object({ account_id: t.String(), id: t.String(), delivery_id: t.String() });
const tags = ["webhooks"];

export function webhookRoutes(d: Deps) {
  const webhooks = d.services.webhooks;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/webhooks" })
    .use(accountScope(d.services.auth))
    .get(
      "",
      ({ principal }) =>
        whenReady(webhooks.list(principal.account.id), (rows) => ({ payload: { webhooks: rows.map(webhookOf) } })),
      {
        admin: true,
        params: AccountParams,
        response: { 200: t.Object({ payload: t.Object({ webhooks: t.Array(Webhook) }) }), ...errorResponses },
        detail: { tags, summary: "List webhooks (administrators)" },
      },
    )
    .post(
      "",
      async ({ principal, body }) => {
        const created = await webhooks.create(principal.account.id, body);
        return { ...webhookWithSecret(created), payload: { webhook: webhookOf(created) } };
      },
      {
        admin: true,
        params: AccountParams,
        ...bodyOf(WebhookBody, "webhook"),
        response: {
          200: t.Object({ ...WebhookWithSecret.properties, payload: t.Object({ webhook: Webhook }) }),
          ...errorResponses,
        },
        detail: {
          tags,
          summary:
            "Add a webhook; the response carries its signing secret, and the record again under payload.webhook (Chatwoot's shape)",
        },
      },
    )
    .patch(
      "/:id",
      async ({ principal, params, body }) => {
        const webhook = webhookOf(await webhooks.update(principal.account.id, params.id, body));
        return { ...webhook, payload: { webhook } };
      },
      {
        admin: true,
        params: WebhookParams,
        ...bodyOf(WebhookBody, "webhook"),
        response: { 200: WebhookUpdated, ...errorResponses },
        detail: { tags, summary: "Update a webhook (also re-enables one disabled by a 410)" },
      },
    )
    .delete(
      "/:id",
      async ({ principal, params }) => {
        await webhooks.delete(principal.account.id, params.id);
        return new Response(null, { status: 200 });
      },
      { admin: true, params: WebhookParams, detail: { tags, summary: "Delete a webhook and its delivery log" } },
    )
    .post(
      "/:id/rotate_secret",
      async ({ principal, params }) => webhookWithSecret(await webhooks.rotateSecret(principal.account.id, params.id)),
      {
        admin: true,
        params: WebhookParams,
        response: { 200: WebhookWithSecret, ...errorResponses },
        detail: { tags, summary: "Replace the signing secret (applies to pending retries too)" },
      },
    )
    .get(
      "/:id/deliveries",
      ({ principal, params, query }) =>
        whenReady(webhooks.deliveries(principal.account.id, params.id, query.page), ({ rows, count, page }) => ({
          meta: { count, current_page: String(page) },
          payload: rows.map(deliveryOf),
        })),
      {
        admin: true,
        params: WebhookParams,
        query: t.Object({ page: t.Optional(t.String()) }),
        response: {
          200: t.Object({
            meta: t.Object({ count: Integer(), current_page: t.String() }),
            payload: t.Array(Delivery),
          }),
          ...errorResponses,
        },
        detail: { tags, summary: "Recent deliveries of a webhook, newest first, 25 a page" },
      },
    )
    .get(
      "/:id/deliveries/:delivery_id",
      ({ principal, params }) =>
        whenReady(webhooks.delivery(principal.account.id, params.id, params.delivery_id), ({ row, attempts }) =>
          deliveryDetailOf(row, attempts),
        ),
      {
        admin: true,
        params: DeliveryParams,
        response: { 200: DeliveryDetail, ...errorResponses },
        detail: { tags, summary: "One delivery with its body and attempts" },
      },
    )
    .post(
      "/:id/deliveries/:delivery_id/redeliver",
      async ({ principal, params }) =>
        deliveryOf(await webhooks.redeliver(principal.account.id, params.id, params.delivery_id)),
      {
        admin: true,
        params: DeliveryParams,
        response: { 200: Delivery, 409: errorResponses[422], ...errorResponses },
        detail: { tags, summary: "Send a delivery again now" },
      },
    );
}
