// Automation rules CRUD: the exact rule record, Chatwoot's wrappers, save-time validation
// (shapes and the records actions name), clone, the authorization matrix and tenant isolation.
import { describe, expect, test } from "bun:test";
import { makeTeam } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { world, type World } from "../helpers/conversation-fixtures.ts";
import { refundRule } from "../helpers/automation-fixtures.ts";

const NOW = Date.UTC(2026, 0, 5, 9, 0, 0) / 1000;

const rulesPath = (w: World) => `${w.base}/automation_rules`;
const createRule = (w: World, body: unknown, token = w.a.adminToken) =>
  w.h.request("POST", rulesPath(w), { token, body });
const listRules = async (w: World) => (await w.h.request("GET", rulesPath(w), { token: w.a.adminToken })).body.payload;
const withLabel = async (w: World, title = "billing") =>
  w.h.request("POST", `${w.base}/labels`, { token: w.a.adminToken, body: { title } });

describe("create and show", () => {
  test("create answers the bare rule; show wraps it in payload; created_on is Unix seconds", async () => {
    const w = await world();
    await withLabel(w);
    const r = await createRule(w, refundRule());
    expect(r.status).toBe(200);
    const record = {
      id: expect.any(Number),
      account_id: w.a.accountId,
      ...refundRule(),
      created_on: NOW,
      active: true,
      failure_count: 0,
      last_error: null,
      disabled_reason: null,
    };
    expect(r.body).toEqual(record);
    const show = await w.h.request("GET", `${rulesPath(w)}/${r.body.id}`, { token: w.a.adminToken });
    expect(show.status).toBe(200);
    expect(show.body).toEqual({ payload: { ...record, id: r.body.id } });
    expect(await listRules(w)).toEqual([{ ...record, id: r.body.id }]);
  });

  test("fields nested under automation_rule; AND upper-case is lower-cased; a trailing operator is dropped", async () => {
    const w = await world();
    const body = {
      automation_rule: {
        name: "Two",
        event_name: "conversation_created",
        conditions: [
          { attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: "AND" },
          { attribute_key: "priority", filter_operator: "equal_to", values: ["high"], query_operator: "OR" },
        ],
        actions: [{ action_name: "resolve_conversation" }],
        active: false,
      },
    };
    const r = await createRule(w, body);
    expect(r.body).toMatchObject({
      name: "Two",
      description: null,
      active: false,
      conditions: [
        { attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: "and" },
        { attribute_key: "priority", filter_operator: "equal_to", values: ["high"], query_operator: null },
      ],
      actions: [{ action_name: "resolve_conversation", action_params: [] }],
    });
  });

  test("unknown, malformed and other accounts' ids are 404", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    const theirs = await w.h.request("POST", `/api/v1/accounts/${other.accountId}/automation_rules`, {
      token: other.adminToken,
      body: { ...refundRule(), actions: [{ action_name: "resolve_conversation" }] },
    });
    for (const id of ["999", "abc", String(theirs.body.id)]) {
      for (const [method, suffix] of [
        ["GET", ""],
        ["PATCH", ""],
        ["DELETE", ""],
        ["POST", "/clone"],
      ] as const) {
        const r = await w.h.request(method, `${rulesPath(w)}/${id}${suffix}`, {
          token: w.a.adminToken,
          body: method === "PATCH" ? { name: "x" } : undefined,
        });
        expect(r.status).toBe(404);
        expect(r.body.errors).toEqual([
          { field: "id", message: `no automation rule ${id} in this account`, code: "not_found" },
        ]);
      }
    }
    const still = await w.h.request("GET", `/api/v1/accounts/${other.accountId}/automation_rules/${theirs.body.id}`, {
      token: other.adminToken,
    });
    expect(still.body.payload.name).toBe("Refunds to billing");
  });
});

describe("validation (422 naming the item; nothing stored)", () => {
  const cases: [string, (w: World, teamId: number) => unknown, [string, string][]][] = [
    ["no conditions", () => ({ ...refundRule(), conditions: undefined }), [["conditions", "required"]]],
    [
      "unknown attribute",
      () => ({ ...refundRule(), conditions: [{ attribute_key: "mood!", filter_operator: "equal_to", values: ["x"] }] }),
      [["conditions[0].attribute_key", "unsupported"]],
    ],
    [
      "unknown operator",
      () => ({
        ...refundRule(),
        conditions: [{ attribute_key: "content", filter_operator: "sounds_like", values: ["x"] }],
      }),
      [["conditions[0].filter_operator", "unsupported"]],
    ],
    [
      "unknown action",
      () => ({ ...refundRule(), actions: [{ action_name: "launch_rocket", action_params: [] }] }),
      [["actions[0].action_name", "unsupported"]],
    ],
    ["unknown event", () => ({ ...refundRule(), event_name: "contact_created" }), [["event_name", "unsupported"]]],
    [
      "agent not in the account",
      () => ({ ...refundRule(), actions: [{ action_name: "assign_agent", action_params: [99999] }] }),
      [["actions[0].action_params", "not_found"]],
    ],
    [
      "team not in the account",
      () => ({ ...refundRule(), actions: [{ action_name: "assign_team", action_params: [99999] }] }),
      [["actions[0].action_params", "not_found"]],
    ],
    [
      "email to a missing team",
      (_w, team) => ({
        ...refundRule(),
        actions: [{ action_name: "send_email_to_team", action_params: [{ team_ids: [team, 99999], message: "hi" }] }],
      }),
      [["actions[0].action_params", "not_found"]],
    ],
    [
      "label with no record",
      () => ({ ...refundRule(), actions: [{ action_name: "add_label", action_params: ["nosuch"] }] }),
      [["actions[0].action_params", "not_found"]],
    ],
    [
      "attachment",
      () => ({ ...refundRule(), actions: [{ action_name: "send_attachment", action_params: [1] }] }),
      [["actions[0].action_name", "unsupported"]],
    ],
    [
      "webhook URL with spaces",
      () => ({
        ...refundRule(),
        actions: [{ action_name: "send_webhook_event", action_params: ["https://exa mple.com/x"] }],
      }),
      [["actions[0].action_params", "invalid"]],
    ],
  ];
  test.each(cases)("%s", async (_name, body, expected) => {
    const w = await world();
    const team = makeTeam(w.h, w.a.accountId, "sales");
    const r = await createRule(w, body(w, team));
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual(expected);
    expect(await listRules(w)).toEqual([]);
  });

  test("the messages name the missing records", async () => {
    const w = await world();
    const r = await createRule(w, {
      ...refundRule(),
      actions: [
        { action_name: "assign_agent", action_params: [4242] },
        { action_name: "add_label", action_params: ["vip", "Gold"] },
      ],
    });
    expect(r.body.errors).toEqual([
      { field: "actions[0].action_params", message: "no agent 4242 in this account", code: "not_found" },
      {
        field: "actions[1].action_params",
        message: "no label vip, Gold in this account (create it first)",
        code: "not_found",
      },
    ]);
  });

  test("an agent, team and label of another account are not found here", async () => {
    const w = await world();
    const other = await makeAccount(w.h, "Other");
    const team = makeTeam(w.h, other.accountId, "theirs");
    await w.h.request("POST", `/api/v1/accounts/${other.accountId}/labels`, {
      token: other.adminToken,
      body: { title: "theirs" },
    });
    const r = await createRule(w, {
      ...refundRule(),
      actions: [
        { action_name: "assign_agent", action_params: [other.adminId] },
        { action_name: "assign_team", action_params: [team] },
        { action_name: "add_label", action_params: ["theirs"] },
      ],
    });
    expect(r.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ["actions[0].action_params", "not_found"],
      ["actions[1].action_params", "not_found"],
      ["actions[2].action_params", "not_found"],
    ]);
  });
});

describe("update, delete, clone", () => {
  test("PATCH changes only what is sent and answers {payload}; conditions and actions are replaced whole", async () => {
    const w = await world();
    await withLabel(w);
    const { id } = (await createRule(w, refundRule())).body;
    const named = await w.h.request("PATCH", `${rulesPath(w)}/${id}`, {
      token: w.a.adminToken,
      body: { name: "Renamed" },
    });
    expect(named.body.payload).toMatchObject({
      id,
      name: "Renamed",
      conditions: refundRule().conditions,
      actions: refundRule().actions,
    });
    const conditions = [{ attribute_key: "email", filter_operator: "contains", values: ["@vip.com"] }];
    const replaced = await w.h.request("PATCH", `${rulesPath(w)}/${id}`, {
      token: w.a.adminToken,
      body: { conditions },
    });
    expect(replaced.body.payload).toMatchObject({ name: "Renamed", conditions, actions: refundRule().actions });
    const bad = await w.h.request("PATCH", `${rulesPath(w)}/${id}`, {
      token: w.a.adminToken,
      body: { actions: [{ action_name: "assign_team", action_params: [777] }] },
    });
    expect(bad.status).toBe(422);
    const idle = await w.h.request("PATCH", `${rulesPath(w)}/${id}`, {
      token: w.a.adminToken,
      body: { event_name: "conversation_idle" },
    });
    expect(idle.status).toBe(422);
    expect(idle.body.errors[0].field).toBe("event_name");
    expect((await listRules(w))[0]).toMatchObject({
      name: "Renamed",
      event_name: "message_created",
      conditions,
      actions: refundRule().actions,
    });
  });

  test("clone copies the rule under a new id; delete answers 200 empty", async () => {
    const w = await world();
    await withLabel(w);
    const original = (await createRule(w, refundRule())).body;
    w.h.clock.advance(60_000);
    const copy = await w.h.request("POST", `${rulesPath(w)}/${original.id}/clone`, { token: w.a.adminToken });
    expect(copy.status).toBe(200);
    expect(copy.body).toEqual({ payload: { ...original, id: expect.any(Number), created_on: NOW + 60 } });
    expect(copy.body.payload.id).not.toBe(original.id);
    const del = await w.h.request("DELETE", `${rulesPath(w)}/${original.id}`, { token: w.a.adminToken });
    expect(del.status).toBe(200);
    expect(del.text).toBe("");
    expect((await listRules(w)).map((r: { id: number }) => r.id)).toEqual([copy.body.payload.id]);
  });

  test("renaming a label renames it in the rules that name it", async () => {
    const w = await world();
    const label = (await withLabel(w)).body;
    const rule = (
      await createRule(w, {
        ...refundRule(),
        conditions: [{ attribute_key: "labels", filter_operator: "not_equal_to", values: ["Billing", "vip"] }],
        actions: [
          { action_name: "add_label", action_params: ["billing"] },
          { action_name: "remove_label", action_params: ["BILLING", "other"] },
        ],
      })
    ).body;
    await w.h.request("PATCH", `${w.base}/labels/${label.id}`, { token: w.a.adminToken, body: { title: "finance" } });
    const after = (await w.h.request("GET", `${rulesPath(w)}/${rule.id}`, { token: w.a.adminToken })).body.payload;
    expect(after.conditions).toEqual([
      { attribute_key: "labels", filter_operator: "not_equal_to", values: ["finance", "vip"] },
    ]);
    expect(after.actions).toEqual([
      { action_name: "add_label", action_params: ["finance"] },
      { action_name: "remove_label", action_params: ["finance", "other"] },
    ]);
  });
});

describe("authorization", () => {
  test("agents 403, no token 401, another account's token 401, on every route", async () => {
    const w = await world();
    await withLabel(w);
    const { id } = (await createRule(w, refundRule())).body;
    const other = await makeAccount(w.h, "Other");
    const routes: [string, string, unknown][] = [
      ["GET", rulesPath(w), undefined],
      ["POST", rulesPath(w), refundRule()],
      ["GET", `${rulesPath(w)}/${id}`, undefined],
      ["PATCH", `${rulesPath(w)}/${id}`, { name: "x" }],
      ["DELETE", `${rulesPath(w)}/${id}`, undefined],
      ["POST", `${rulesPath(w)}/${id}/clone`, undefined],
    ];
    for (const [method, path, body] of routes) {
      const agent = await w.h.request(method, path, { token: w.agent.token, body });
      expect(agent.status).toBe(403);
      expect(agent.body.errors).toEqual([
        { field: "role", message: "You are not authorized to do this action", code: "forbidden" },
      ]);
      expect((await w.h.request(method, path, { body })).status).toBe(401);
      expect((await w.h.request(method, path, { token: other.adminToken, body })).status).toBe(401);
    }
    expect((await listRules(w)).map((r: { id: number; name: string }) => [r.id, r.name])).toEqual([
      [id, "Refunds to billing"],
    ]);
  });
});
