// The administrators' settings pages on PostgreSQL: webhooks with their delivery log, automation
// rules, macros, dashboard apps, a label and a saved filter are read-only GETs that send nothing
// through the synchronous bridge in place; their statements go to the read pool. An automation
// rule's changes and a label's rename are awaited bodies, which send nothing there either. The refusals (an agent's 403 on an
// administrators' route, an unknown or another account's id's 404) are answered the same way, with
// the same envelopes. PostgreSQL only.
import { afterEach, describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { newConversation, send, type World, world } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { deliveryRows, type Receiver, startReceiver } from "../helpers/webhooks.ts";

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

/** A GET as an app sends it, straight to the app (no request helper of its own in between). */
function reader(w: World) {
  return async (path: string, token: string) => {
    const res = await w.h.app.handle(new Request(`http://localhost${path}`, { headers: { api_access_token: token } }));
    return { status: res.status, body: (await res.json()) as any };
  };
}

/** The error envelope of a 404 (src/http/errors.ts), as it was before these routes were awaited. */
function notFound(record: string, field: string, message: string) {
  const description = `${record} not found`;
  return { description, error: description, errors: [{ field, message, code: "not_found" }] };
}

/** POSTs as `token`; answers the created record's id. */
async function made(w: World, path: string, token: string, body: Record<string, unknown>): Promise<number> {
  const r = await w.h.request("POST", path, { token, body });
  expect(r.status).toBe(200);
  return (r.body.payload?.id ?? r.body.id) as number;
}

describe.skipIf(TEST_ENGINE !== "postgres")("the settings pages on PostgreSQL wait on nothing in place", () => {
  test("webhooks, a webhook's deliveries and one delivery with its attempts: all awaited", async () => {
    const w = await world({ config: { allowPrivateWebhooks: true } });
    const rx = startReceiver(() => 201);
    receivers.push(rx);
    const hooks = `${w.base}/webhooks`;
    const body = { url: rx.url, name: "CRM sync", subscriptions: ["message_created"], inbox_id: w.inboxId };
    const id = await made(w, hooks, w.a.adminToken, body);
    const c = await newConversation(w);
    expect((await send(w, c.id, { content: "Hello Carla" })).status).toBe(200);
    await w.h.deps.bus.drain();
    await w.h.deps.bus.drain();
    await w.h.deps.deliverer.drain();
    const b = await makeAccount(w.h, "Globex");
    const theirs = await made(w, `/api/v1/accounts/${b.accountId}/webhooks`, b.adminToken, { url: rx.url });
    w.h.deps.commits.flush();
    const [delivery] = deliveryRows(w.h);
    const read = reader(w);
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const list = await read(hooks, w.a.adminToken);
      answers.push([list.status, list.body.payload.webhooks.map((x: any) => [x.id, x.name, x.subscriptions, x.inbox])]);
      answers.push((await read(hooks, w.agent.token)).status);
      const page = await read(`${hooks}/${id}/deliveries`, w.a.adminToken);
      answers.push([page.status, page.body.meta, page.body.payload.map((x: any) => [x.id, x.event, x.status])]);
      const one = await read(`${hooks}/${id}/deliveries/${delivery.delivery_id}`, w.a.adminToken);
      answers.push([
        one.status,
        one.body.id,
        one.body.target_url,
        one.body.payload.content,
        one.body.attempts_log.map((x: any) => [x.attempt, x.status_code, x.error]),
      ]);
      answers.push((await read(`${hooks}/${id}/deliveries`, w.agent.token)).status);
      answers.push((await read(`${hooks}/${id}/deliveries/${delivery.delivery_id}`, w.agent.token)).status);
      answers.push((await read(`${hooks}/${id}/deliveries?page=0`, w.a.adminToken)).body);
      answers.push((await read(`${hooks}/${theirs}/deliveries`, w.a.adminToken)).body);
      answers.push((await read(`${hooks}/${id + 1000}/deliveries/${delivery.delivery_id}`, w.a.adminToken)).status);
      answers.push((await read(`${hooks}/${id}/deliveries/no-such-delivery`, w.a.adminToken)).body);
    });
    expect(answers).toEqual([
      [200, [[id, "CRM sync", ["message_created"], { id: w.inboxId, name: "API" }]]],
      403,
      [200, { count: 1, current_page: "1" }, [[delivery.delivery_id, "message_created", "delivered"]]],
      [200, delivery.delivery_id, rx.url, "Hello Carla", [[1, 201, null]]],
      403,
      403,
      {
        description: "page must be a positive integer",
        error: "page must be a positive integer",
        errors: [{ field: "page", message: "must be a positive integer", code: "invalid" }],
      },
      notFound("Webhook", "id", `no webhook ${theirs} in this account`),
      404,
      notFound("Delivery", "delivery_id", `no delivery no-such-delivery for webhook ${id}`),
    ]);
    expect(blocking).toEqual([]);
  });

  test("automation rules, macros and dashboard apps, listed and opened one by one: all awaited", async () => {
    const w = await world();
    const admin = w.a.adminToken;
    const rule = {
      name: "Refunds resolved",
      event_name: "message_created",
      conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: null }],
      actions: [{ action_name: "resolve_conversation", action_params: [] }],
    };
    const resolve = [{ action_name: "resolve_conversation", action_params: [] }];
    const app = { title: "CRM", content: [{ type: "frame", url: "https://crm.example.com/" }] };
    const ruleId = await made(w, `${w.base}/automation_rules`, admin, rule);
    const shared = await made(w, `${w.base}/macros`, admin, { name: "Close", visibility: "global", actions: resolve });
    const mine = await made(w, `${w.base}/macros`, w.agent.token, { name: "Mine", actions: resolve });
    const appId = await made(w, `${w.base}/dashboard_apps`, admin, app);
    const b = await makeAccount(w.h, "Globex");
    const other = `/api/v1/accounts/${b.accountId}`;
    const theirRule = await made(w, `${other}/automation_rules`, b.adminToken, rule);
    const theirMacro = await made(w, `${other}/macros`, b.adminToken, { name: "Theirs", actions: resolve });
    const theirApp = await made(w, `${other}/dashboard_apps`, b.adminToken, app);
    w.h.deps.commits.flush();
    const read = reader(w);
    const macro = (m: any) => [m.id, m.name, m.visibility, m.created_by?.name ?? null, m.updated_by?.name ?? null];
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const rules = await read(`${w.base}/automation_rules`, admin);
      answers.push([rules.status, rules.body.payload.map((r: any) => [r.id, r.name, r.actions])]);
      const oneRule = await read(`${w.base}/automation_rules/${ruleId}`, admin);
      answers.push([oneRule.status, oneRule.body.payload.name, oneRule.body.payload.conditions[0].values]);
      answers.push((await read(`${w.base}/automation_rules`, w.agent.token)).status);
      answers.push((await read(`${w.base}/automation_rules/${ruleId}`, w.agent.token)).status);
      answers.push((await read(`${w.base}/automation_rules/${theirRule}`, admin)).body);
      const macros = await read(`${w.base}/macros`, admin);
      answers.push([macros.status, macros.body.payload.map(macro)]);
      answers.push((await read(`${w.base}/macros`, w.outsider.token)).body.payload.map(macro));
      answers.push(macro((await read(`${w.base}/macros/${mine}`, w.agent.token)).body.payload));
      answers.push((await read(`${w.base}/macros/${mine}`, w.outsider.token)).status);
      answers.push((await read(`${w.base}/macros/${theirMacro}`, admin)).body);
      const apps = await read(`${w.base}/dashboard_apps`, w.agent.token);
      answers.push([apps.status, apps.body.map((a: any) => [a.id, a.title, a.content, a.show_on_sidebar])]);
      answers.push((await read(`${w.base}/dashboard_apps/${appId}`, w.agent.token)).body.title);
      answers.push((await read(`${w.base}/dashboard_apps/${theirApp}`, w.agent.token)).body);
      answers.push((await read(`${w.base}/dashboard_apps/none`, w.agent.token)).status);
    });
    expect(answers).toEqual([
      [200, [[ruleId, "Refunds resolved", resolve]]],
      [200, "Refunds resolved", ["refund"]],
      403,
      403,
      notFound("Automation rule", "id", `no automation rule ${theirRule} in this account`),
      [
        200,
        [
          [shared, "Close", "global", "Admin", "Admin"],
          [mine, "Mine", "personal", "Ann Agent", "Ann Agent"],
        ],
      ],
      [[shared, "Close", "global", "Admin", "Admin"]],
      [mine, "Mine", "personal", "Ann Agent", "Ann Agent"],
      404,
      notFound("Macro", "id", `no macro ${theirMacro} in this account`),
      [200, [[appId, "CRM", app.content, false]]],
      "CRM",
      notFound("Dashboard app", "id", `no dashboard app ${theirApp} in this account`),
      404,
    ]);
    expect(blocking).toEqual([]);
  });

  test("a label and a saved filter shown alone; a rule's changes and a label's rename: all awaited", async () => {
    const w = await world();
    const admin = w.a.adminToken;
    const labelId = await made(w, `${w.base}/labels`, admin, { title: "billing" });
    const c = await newConversation(w);
    const tagged = await w.h.request("POST", `${w.base}/conversations/${c.id}/labels`, {
      token: admin,
      body: { labels: ["billing", "vip"] },
    });
    expect(tagged.status).toBe(200);
    const query = { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }] };
    const filter = { name: "Open ones", filter_type: "conversation", query };
    const filterId = await made(w, `${w.base}/custom_filters`, w.agent.token, filter);
    const rule = {
      name: "Refunds resolved",
      event_name: "message_created",
      conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: null }],
      actions: [{ action_name: "resolve_conversation", action_params: [] }],
    };
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const read = reader(w);
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await w.h.request(method, `${w.base}${path}`, { token: admin, body });
      return [r.status, r.body?.payload?.name ?? r.body?.title ?? null];
    };
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const label = await read(`${w.base}/labels/${labelId}`, admin);
      answers.push([label.status, label.body.title]);
      answers.push((await read(`${w.base}/labels/${labelId}`, w.agent.token)).status);
      answers.push((await read(`${w.base}/labels/none`, admin)).status);
      const saved = await read(`${w.base}/custom_filters/${filterId}`, w.agent.token);
      answers.push([saved.status, saved.body.name, saved.body.query]);
      answers.push((await read(`${w.base}/custom_filters/${filterId}`, admin)).status); // another user's
      const created = await w.h.request("POST", `${w.base}/automation_rules`, { token: admin, body: rule });
      const ruleId = created.body.id as number;
      answers.push([created.status, created.body.name]);
      answers.push(await call("PATCH", `/automation_rules/${ruleId}`, { name: "Refunds closed" }));
      answers.push(await call("PATCH", `/automation_rules/${ruleId}`, { event_name: "nothing_happened" }));
      answers.push(await call("DELETE", `/automation_rules/${ruleId}`));
      answers.push(await call("PATCH", `/labels/${labelId}`, { title: "Finance" }));
      await w.h.deps.bus.drain();
    });
    expect(answers).toEqual([
      [200, "billing"],
      403,
      404,
      [200, "Open ones", query],
      404,
      [200, "Refunds resolved"],
      [200, "Refunds closed"],
      [422, null],
      [200, null],
      [200, "finance"],
    ]);
    expect(blocking).toEqual([]);
    const labels = await w.h.request("GET", `${w.base}/conversations/${c.id}/labels`, { token: admin });
    expect(labels.body.payload).toEqual(["finance", "vip"]);
  });
});
