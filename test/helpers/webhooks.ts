// Helpers for webhook tests: a real HTTP receiver on 127.0.0.1, inboxes written straight into the
// table (quicker than the inbox routes for these tests), and events recorded the way services record them.
import type { ChannelType } from "../../src/domain/channels.ts";
import { makeInbox as makeFixtureInbox } from "./directory-fixtures.ts";
import type { Harness } from "./harness.ts";
import type { EventKind } from "../../src/shared/event-types.ts";

export interface Received {
  body: string;
  json: any;
  headers: Headers;
  /** Real time the request arrived (ms). */
  at: number;
}

/** What the receiver answers to request number n (1-based): a status, or a promise of one to answer late. */
export type Behaviour = (n: number, req: Received) => number | Promise<number>;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  behaviour: Behaviour;
  /** Resolves once `n` requests have arrived (before they are answered). */
  reached(n: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function startReceiver(behaviour: Behaviour = () => 200, port = 0): Receiver {
  const waiting: { n: number; resolve: () => void }[] = [];
  const r: Receiver = {
    url: "",
    port: 0,
    received: [],
    behaviour,
    reached(n, timeoutMs = 5000) {
      if (r.received.length >= n) return Promise.resolve();
      const { promise, resolve, reject } = Promise.withResolvers<void>();
      const timer = setTimeout(
        () => reject(new Error(`receiver: ${r.received.length} of ${n} requests after ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiting.push({
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
      return promise;
    },
    stop: async () => void (await server.stop(true)),
  };
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.text();
      const rec: Received = { body, json: JSON.parse(body), headers: req.headers, at: Date.now() };
      r.received.push(rec);
      for (const w of waiting.filter((w) => r.received.length >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
      const status = await r.behaviour(r.received.length, rec);
      return new Response(status === 204 ? null : `answer ${status}`, { status });
    },
  });
  r.port = server.port!;
  r.url = `http://127.0.0.1:${r.port}/hook`;
  return r;
}

/** A port nothing listens on (connection refused). */
export async function closedPort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  await s.stop(true);
  return port;
}

/** An inbox row for webhook tests: the directory fixture, with the webhook tests' option names. */
export function makeInbox(
  h: Harness,
  accountId: number,
  o: { name?: string; channel_type?: ChannelType; webhook_url?: string | null } = {},
): number {
  return makeFixtureInbox(h, accountId, { name: o.name, channel: o.channel_type, webhook_url: o.webhook_url });
}

export interface EventSpec {
  kind: EventKind;
  accountId: number;
  conversationId?: number | null;
  contactId?: number | null;
  inboxId?: number | null;
  payload?: Record<string, unknown>;
}

/** Records events in one transaction, as a service would; returns their ids. */
export function recordEvents(h: Harness, events: EventSpec[]): Promise<number[]> {
  // The promise form: on PostgreSQL the deliverer's and the listeners' awaited bodies may be writing
  // (writeTx.now outside a body is refused then); it waits its turn behind them.
  return h.deps.writeTx(() =>
    events.map((e) => h.deps.outbox.record({ actor: { type: "user", id: 1 }, payload: {}, ...e }).id),
  );
}

/** Webhook record via the API; returns the created body (with secret). */
export async function createWebhook(h: Harness, accountId: number, token: string, body: Record<string, unknown>) {
  const r = await h.request("POST", `/api/v1/accounts/${accountId}/webhooks`, { token, body });
  if (r.status !== 200) throw new Error(`webhook create failed: ${r.status} ${r.text}`);
  return r.body as { id: number; secret: string; url: string; subscriptions: string[] };
}

export function deliveryRows(h: Harness, where = "1 = 1"): any[] {
  return h.deps.db.query(`SELECT * FROM webhook_deliveries WHERE ${where} ORDER BY id`).all();
}

export function attemptRows(h: Harness, deliveryRowId: number): any[] {
  return h.deps.db.query("SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY id").all(deliveryRowId);
}
