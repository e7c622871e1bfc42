// The settings pages' writes as awaited bodies (writeTx.steps, src/db/tx.ts): what they change is the
// same on both engines, checked here on both; on PostgreSQL none of them sends a statement through the
// synchronous bridge in place (the process answers other requests while PostgreSQL works). A refused
// write changes nothing. The periodic repair of webhook delivery streams is held to the same.
import { afterEach, describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { newConversation, send, type World, world } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { deliveryRows, type Receiver, startReceiver } from "../helpers/webhooks.ts";

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

function receiver(status = 201): Receiver {
  const rx = startReceiver(() => status);
  receivers.push(rx);
  return rx;
}

async function webhookIds(w: World): Promise<number[]> {
  const r = await w.h.request("GET", `${w.base}/webhooks`, { token: w.a.adminToken });
  return r.body.payload.webhooks.map((x: { id: number }) => x.id);
}

describe("webhooks: writes in one awaited body each", () => {
  test("create, a refused duplicate and foreign inbox, update, rotate, redeliver, delete", async () => {
    const w = await world({ config: { allowPrivateWebhooks: true } });
    const first = receiver(500); // its delivery stays pending, for the new URL to apply to
    const second = receiver();
    const b = await makeAccount(w.h, "Globex");
    const theirInbox = (
      await w.h.request("POST", `/api/v1/accounts/${b.accountId}/inboxes`, {
        token: b.adminToken,
        body: { name: "Theirs", channel: { type: "api" } },
      })
    ).body.id as number;
    const hooks = `${w.base}/webhooks`;
    const admin = { token: w.a.adminToken };
    const answers: unknown[] = [];
    let id = 0;
    let secret = "";
    const blocking = await inPlaceDuring(async () => {
      const made = await w.h.request("POST", hooks, {
        ...admin,
        body: { url: first.url, name: "CRM", subscriptions: ["message_created"], inbox_id: w.inboxId },
      });
      id = made.body.id;
      secret = made.body.secret;
      answers.push([made.status, made.body.payload.webhook.url, made.body.payload.webhook.inbox]);
      const duplicate = await w.h.request("POST", hooks, { ...admin, body: { url: first.url } });
      answers.push([duplicate.status, duplicate.body.errors]);
      const foreign = await w.h.request("POST", hooks, { ...admin, body: { url: second.url, inbox_id: theirInbox } });
      answers.push(foreign.status);
    });
    expect(answers).toEqual([
      [200, first.url, { id: w.inboxId, name: "API" }],
      [422, [{ field: "url", message: "has already been taken", code: "taken" }]],
      404,
    ]);
    expect(await webhookIds(w)).toEqual([id]);
    expect(blocking).toEqual([]);

    // A delivery its receiver refused, pending until its retry: a new URL applies to it.
    const c = await newConversation(w);
    expect((await send(w, c.id, { content: "Hello Carla" })).status).toBe(200);
    await w.h.deps.bus.drain();
    await w.h.deps.deliverer.drain();
    const pending = deliveryRows(w.h, "event_kind = 'message_created'");
    expect(pending.map((r) => [r.status, r.attempts, r.target_url])).toEqual([["pending", 1, first.url]]);
    answers.length = 0;
    const changed = await inPlaceDuring(async () => {
      const renamed = await w.h.request("PATCH", `${hooks}/${id}`, {
        ...admin,
        body: { url: second.url, name: "CRM 2" },
      });
      answers.push([renamed.status, renamed.body.url, renamed.body.name, renamed.body.subscriptions]);
      const taken = await w.h.request("POST", hooks, { ...admin, body: { url: first.url } });
      answers.push(taken.status);
      const clash = await w.h.request("PATCH", `${hooks}/${id}`, { ...admin, body: { url: first.url } });
      answers.push([clash.status, clash.body.errors[0].code]);
      const unknown = await w.h.request("PATCH", `${hooks}/${id + 1000}`, { ...admin, body: { name: "x" } });
      answers.push(unknown.status);
      const rotated = await w.h.request("POST", `${hooks}/${id}/rotate_secret`, admin);
      answers.push([rotated.status, rotated.body.secret === secret, rotated.body.secret.length]);
    });
    const other = (await webhookIds(w)).find((x) => x !== id)!;
    expect(answers).toEqual([
      [200, second.url, "CRM 2", ["message_created"]],
      200,
      [422, "taken"],
      404,
      [200, false, secret.length],
    ]);
    expect(changed).toEqual([]);
    expect(deliveryRows(w.h, `webhook_id = ${id}`).map((r) => [r.status, r.target_url])).toEqual([
      ["pending", second.url],
    ]);

    w.h.clock.advance(3_600_000); // past the retry
    await w.h.deps.deliverer.drain();
    const [delivered] = deliveryRows(w.h, `webhook_id = ${id}`);
    expect([delivered.status, delivered.attempts, second.received.length]).toEqual(["delivered", 2, 1]);
    answers.length = 0;
    const redelivered = await inPlaceDuring(async () => {
      const again = await w.h.request("POST", `${hooks}/${id}/deliveries/${delivered.delivery_id}/redeliver`, admin);
      answers.push([again.status, again.body.id, again.body.status]);
      const none = await w.h.request("POST", `${hooks}/${id}/deliveries/no-such/redeliver`, admin);
      answers.push(none.status);
      const gone = await w.h.request("DELETE", `${hooks}/${other}`, admin);
      answers.push(gone.status);
      const theirs = await w.h.request("DELETE", `/api/v1/accounts/${b.accountId}/webhooks/${id}`, {
        token: b.adminToken,
      });
      answers.push(theirs.status);
    });
    expect(answers).toEqual([[200, delivered.delivery_id, "pending"], 404, 200, 404]);
    expect(redelivered).toEqual([]);
    await w.h.deps.deliverer.drain(); // the redelivery woke it: one more attempt, to the new URL
    const [again] = deliveryRows(w.h, `webhook_id = ${id}`);
    expect([again.status, again.max_attempts, again.attempts, second.received.length]).toEqual(["delivered", 3, 3, 2]);
    expect(await webhookIds(w)).toEqual([id]);
  });

  test("the delivery streams' repair job unblocks a head left blocked", async () => {
    const w = await world({ config: { allowPrivateWebhooks: true } });
    const rx = receiver(500); // the stream's head stays pending, the next blocked behind it
    expect(
      (
        await w.h.request("POST", `${w.base}/webhooks`, {
          token: w.a.adminToken,
          body: { url: rx.url, subscriptions: ["message_created"] },
        })
      ).status,
    ).toBe(200);
    const c = await newConversation(w);
    expect((await send(w, c.id, { content: "One" })).status).toBe(200);
    expect((await send(w, c.id, { content: "Two" })).status).toBe(200);
    await w.h.deps.bus.drain();
    await w.h.deps.deliverer.drain();
    const rows = deliveryRows(w.h, "event_kind = 'message_created'");
    expect(rows.map((r) => r.blocked)).toEqual([0, 1]);
    // The first finished without letting the next go (what the repair is a safety net for).
    await w.h.deps.writeTx(() =>
      w.h.deps.db.run(`UPDATE webhook_deliveries SET status = 'failed' WHERE id = ${rows[0].id}`),
    );
    const job = w.h.deps.jobs.find((j) => j.name === "repair-webhook-streams")!;
    const blocking = await inPlaceDuring(async () => {
      await job.run();
    });
    expect(deliveryRows(w.h, "event_kind = 'message_created'").map((r) => [r.status, r.blocked])).toEqual([
      ["failed", 0],
      ["pending", 0],
    ]);
    expect(blocking).toEqual([]);
  });
});

describe("macros: writes in one awaited body each", () => {
  test("create, refusals, update by its author, another agent's 404, delete", async () => {
    const w = await world();
    const b = await makeAccount(w.h, "Globex");
    const resolve = [{ action_name: "resolve_conversation", action_params: [] }];
    const macros = `${w.base}/macros`;
    const agent = { token: w.agent.token };
    const answers: unknown[] = [];
    let id = 0;
    const blocking = await inPlaceDuring(async () => {
      const made = await w.h.request("POST", macros, { ...agent, body: { name: "Close", actions: resolve } });
      id = made.body.payload.id;
      answers.push([
        made.status,
        made.body.payload.name,
        made.body.payload.visibility,
        made.body.payload.created_by.name,
      ]);
      const noTeam = await w.h.request("POST", macros, {
        ...agent,
        body: { name: "Team", actions: [{ action_name: "assign_team", action_params: [9999] }] },
      });
      answers.push([noTeam.status, noTeam.body.errors]);
      const edited = await w.h.request("PATCH", `${macros}/${id}`, { ...agent, body: { name: "Close it" } });
      answers.push([edited.status, edited.body.payload.name, edited.body.payload.updated_by.name]);
      answers.push(
        (await w.h.request("PATCH", `${macros}/${id}`, { token: w.outsider.token, body: { name: "x" } })).status,
      );
      answers.push(
        (await w.h.request("DELETE", `/api/v1/accounts/${b.accountId}/macros/${id}`, { token: b.adminToken })).status,
      );
      answers.push((await w.h.request("DELETE", `${macros}/${id}`, agent)).status);
    });
    expect(answers).toEqual([
      [200, "Close", "personal", "Ann Agent"],
      [422, [{ field: "actions[0].action_params", message: "no team 9999 in this account", code: "not_found" }]],
      [200, "Close it", "Ann Agent"],
      404,
      404,
      200,
    ]);
    expect(blocking).toEqual([]);
    expect((await w.h.request("GET", macros, { token: w.a.adminToken })).body.payload).toEqual([]);
  });
});
