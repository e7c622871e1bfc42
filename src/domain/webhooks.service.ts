// Webhook subscriptions (administrators): validation, the signing secret, and the delivery log with
// manual redelivery. Sending is the job loop's (jobs/deliver-webhooks.job.ts); this service only wakes it.
import { inboxFound } from "./conversation-access.ts";
import type { WebhookDeliveriesRepo, DeliveryRow, AttemptRow } from "../db/webhook-deliveries.repo.ts";
import type { WebhookFields, WebhooksRepo, WebhookWithInbox } from "../db/webhooks.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { SPEC_WEBHOOK_KINDS, WEBHOOK_KINDS, type WebhookKind } from "../shared/event-types.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { validateWebhookUrl } from "./webhook-url.ts";
import { generateSecret } from "../lib/webhook-signature.ts";
import { parseId } from "./auth.service.ts";
import { AppError, ConflictError, FieldErrors, NotFoundError, ValidationError } from "./errors.ts";
import { readRecordAt } from "./path-record.ts";
import { optionalString } from "./validate.ts";

export interface WebhooksDeps {
  webhooks: WebhooksRepo;
  deliveries: WebhookDeliveriesRepo;
  writeTx: WriteTx;
  clock: Clock;
  /** Tells the delivery job there is something to send now. */
  wakeDeliveries: () => void;
}

export interface WebhookInput {
  url?: unknown;
  name?: unknown;
  subscriptions?: unknown;
  inbox_id?: unknown;
}

export const DELIVERIES_PER_PAGE = 25;
/** Attempts shown with one delivery. */
export const ATTEMPTS_SHOWN = 20;
/** Finished deliveries are kept this long for the delivery log, then pruned. */
export const DELIVERY_RETENTION_MS = 14 * 24 * 3_600_000;

/** Checks a subscriptions value; returns the kinds (deduplicated, in the order given) or undefined after an error. */
export function parseSubscriptions(errors: FieldErrors, value: unknown): WebhookKind[] | undefined {
  if (!Array.isArray(value)) {
    errors.add("subscriptions", "must be an array of event kinds", "invalid");
    return undefined;
  }
  if (value.length === 0) {
    errors.add("subscriptions", "can't be blank", "required");
    return undefined;
  }
  const unknown = value.filter((k) => typeof k !== "string" || !(WEBHOOK_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    const names = unknown.map((k) => (typeof k === "string" ? k : JSON.stringify(k))).join(", ");
    errors.add(
      "subscriptions",
      `contains unknown event kinds: ${names} (allowed: ${WEBHOOK_KINDS.join(", ")})`,
      "invalid",
    );
    return undefined;
  }
  return [...new Set(value as WebhookKind[])];
}

export interface DeliveryPage {
  rows: DeliveryRow[];
  count: number;
  page: number;
}

export interface DeliveryDetail {
  row: DeliveryRow;
  attempts: AttemptRow[];
}

export class WebhooksService {
  constructor(private readonly d: WebhooksDeps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(accountId: number): WebhookWithInbox[] | Promise<WebhookWithInbox[]> {
    return readSoon(this.d.webhooks.readList(accountId));
  }

  /** The webhook the path names, or its 404, as a step of a read or a write. */
  private readExisting(accountId: number, rawId: unknown): Reads<WebhookWithInbox> {
    return readRecordAt("Webhook", rawId, (id) => this.d.webhooks.readById(accountId, id));
  }

  create(accountId: number, input: WebhookInput): Promise<WebhookWithInbox> {
    const errors = new FieldErrors();
    const url = this.url(errors, input.url);
    const name = optionalString(errors, "name", input.name) ?? null;
    const subscriptions =
      input.subscriptions === undefined || input.subscriptions === null
        ? [...SPEC_WEBHOOK_KINDS]
        : parseSubscriptions(errors, input.subscriptions);
    errors.throwIfAny();
    const { webhooks, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const inboxId = yield* self.readInboxId(accountId, input.inbox_id);
      yield* self.ensureUniqueUrl(accountId, url!, null);
      const fields: WebhookFields = {
        url: url!,
        name,
        subscriptions: JSON.stringify(subscriptions),
        inbox_id: inboxId,
      };
      const id = yield* webhooks.insertSteps(accountId, {
        ...fields,
        secret: generateSecret(),
        now: unixSeconds(clock),
      });
      return (yield* webhooks.readById(accountId, id))!;
    });
  }

  /** Changes only the fields given; saving a webhook also re-enables it after a 410. */
  update(accountId: number, rawId: unknown, input: WebhookInput): Promise<WebhookWithInbox> {
    const { webhooks, deliveries, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const current = yield* self.readExisting(accountId, rawId);
      const errors = new FieldErrors();
      const url = input.url === undefined ? current.url : self.url(errors, input.url);
      const name = input.name === undefined ? current.name : (optionalString(errors, "name", input.name) ?? null);
      const subscriptions =
        input.subscriptions === undefined || input.subscriptions === null
          ? undefined
          : parseSubscriptions(errors, input.subscriptions);
      errors.throwIfAny();
      const inboxId =
        input.inbox_id === undefined ? current.inbox_id : yield* self.readInboxId(accountId, input.inbox_id);
      yield* self.ensureUniqueUrl(accountId, url!, current.id);
      const fields: WebhookFields = {
        url: url!,
        name,
        subscriptions: subscriptions ? JSON.stringify(subscriptions) : current.subscriptions,
        inbox_id: inboxId,
      };
      yield* webhooks.updateSteps(accountId, current.id, { ...fields, now: unixSeconds(clock) });
      if (url !== current.url) yield* deliveries.retargetPendingSteps(current.id, url!);
      return (yield* webhooks.readById(accountId, current.id))!;
    });
  }

  /** Deletes the webhook with its delivery log; deliveries still pending are not sent. */
  async delete(accountId: number, rawId: unknown): Promise<void> {
    const { webhooks } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      const current = yield* self.readExisting(accountId, rawId);
      yield* webhooks.deleteSteps(accountId, current.id);
    });
  }

  /** A new secret, effective at once, for pending retries too. */
  rotateSecret(accountId: number, rawId: unknown): Promise<WebhookWithInbox> {
    const { webhooks, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const current = yield* self.readExisting(accountId, rawId);
      yield* webhooks.setSecretSteps(accountId, current.id, generateSecret(), unixSeconds(clock));
      return (yield* webhooks.readById(accountId, current.id))!;
    });
  }

  /** A page of the delivery log (the webhook's 404 first, then the page's 422). Read-only: awaited on PostgreSQL. */
  deliveries(accountId: number, rawId: unknown, rawPage: unknown): DeliveryPage | Promise<DeliveryPage> {
    const { deliveries } = this.d;
    return readSoon(
      chain(this.readExisting(accountId, rawId), function* (webhook): Reads<DeliveryPage> {
        const page = rawPage === undefined || rawPage === "" ? 1 : parseId(rawPage);
        if (page === null) throw ValidationError.of("page", "must be a positive integer", "invalid");
        const offset = (page - 1) * DELIVERIES_PER_PAGE;
        const rows = yield* nested(deliveries.readForWebhook(webhook.id, DELIVERIES_PER_PAGE, offset));
        return { rows, count: yield* nested(deliveries.readCountForWebhook(webhook.id)), page };
      }),
    );
  }

  /** One delivery with its latest attempts. Read-only: awaited on PostgreSQL. */
  delivery(accountId: number, rawId: unknown, deliveryId: string): DeliveryDetail | Promise<DeliveryDetail> {
    const { deliveries } = this.d;
    const found = chain(this.readExisting(accountId, rawId), function* (webhook) {
      return existingDelivery(yield* nested(deliveries.readByDeliveryId(webhook.id, deliveryId)), webhook, deliveryId);
    });
    return readSoon(
      chain(found, function* (row): Reads<DeliveryDetail> {
        return { row, attempts: yield* nested(deliveries.readAttempts(row.id, ATTEMPTS_SHOWN)) };
      }),
    );
  }

  /**
   * Sends a delivery again soon. A pending one is tried now and keeps its retry schedule; a delivered or
   * failed one becomes pending for exactly one more attempt (its attempt count continues).
   */
  async redeliver(accountId: number, rawId: unknown, deliveryId: string): Promise<DeliveryRow> {
    const { deliveries, clock } = this.d;
    const self = this;
    const updated = await this.d.writeTx.steps(function* () {
      const webhook = yield* self.readExisting(accountId, rawId);
      if (webhook.disabled_reason !== null) {
        throw new ConflictError("Webhook is disabled", [
          {
            field: "webhook",
            message: `is disabled (${webhook.disabled_reason}); update the webhook to enable it`,
            code: "disabled",
          },
        ]);
      }
      const row = existingDelivery(yield* deliveries.readByDeliveryId(webhook.id, deliveryId), webhook, deliveryId);
      const maxAttempts = row.status === "pending" ? row.max_attempts : row.attempts + 1;
      yield* deliveries.redeliverSteps(row.id, maxAttempts, clock.nowMs());
      return (yield* deliveries.readById(row.id))!;
    });
    this.d.wakeDeliveries();
    return updated;
  }

  /** Drops finished deliveries older than the retention period, a batch at a time. */
  pruneDeliveries(batch = 5000): Promise<number> {
    const before = this.d.clock.nowMs() - DELIVERY_RETENTION_MS;
    return this.d.writeTx.steps(() => this.d.deliveries.pruneFinishedSteps(before, batch));
  }

  private url(errors: FieldErrors, value: unknown): string | undefined {
    try {
      return validateWebhookUrl(value);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      for (const item of e.errors) errors.add(item.field, item.message, item.code);
      return undefined;
    }
  }

  private *ensureUniqueUrl(accountId: number, url: string, selfId: number | null): Reads<void> {
    const other = yield* this.d.webhooks.readIdByUrl(accountId, url);
    if (other !== null && other !== selfId) throw ValidationError.of("url", "has already been taken", "taken");
  }

  /** null for none; an inbox of another account is 404, as every foreign record is. */
  private *readInboxId(accountId: number, value: unknown): Reads<number | null> {
    if (value === undefined || value === null || value === "") return null;
    const id = parseId(value);
    return inboxFound(value, id === null ? null : yield* this.d.webhooks.readInbox(accountId, id)).id;
  }
}

/** The delivery's 404, for the redelivery and the delivery page alike. */
function existingDelivery(row: DeliveryRow | null, webhook: WebhookWithInbox, deliveryId: string): DeliveryRow {
  if (!row) throw new NotFoundError("Delivery", "delivery_id", `no delivery ${deliveryId} for webhook ${webhook.id}`);
  return row;
}
