// One account's token never reads or changes another account's data: every account route of the
// app (read from its own OpenAPI document), called by account B's administrator (a) in account A
// with A's ids, (b) in B with A's ids in the path, (c) B's own lists, (d) B's own records with A's
// ids in the body. Refusals are 401/403/404 in the envelope and write nothing; no answer holds A's
// marker strings; no row of B's ends up pointing at A's record.
import { describe, expect, test } from "bun:test";
import { changeLog, envelopeProblem, routesOf } from "../helpers/hostile.ts";
import { pathOf, plausible } from "../helpers/hostile-probes.ts";
import { crossRowsCheck, foreignFields, MARKERS, tenants } from "../helpers/tenant-walls.ts";

// The reports of /api/v2 are account routes too.
const ACCOUNT = /^\/api\/v[12]\/accounts\/\{account_id\}/;

/** A list as it is, searched for A's strings, and filtered by A's records. */
const listQueries = (ids: Record<string, string>) => [
  "",
  `?q=${MARKERS[0]}`,
  `?q=${MARKERS[1]}`,
  `?inbox_id=${ids["{inbox_id}"]}`,
  `?team_id=${ids["{team_id}"]}`,
  `?assignee_id=${ids["agents/{id}"]}&assignee_type=all`,
  `?labels[]=${MARKERS[2]}`,
  // The reports' own way to name one record.
  ...[
    ["inbox", ids["{inbox_id}"]],
    ["team", ids["{team_id}"]],
    ["agent", ids["agents/{id}"]],
    ["label", MARKERS[2]],
  ].map(([type, id]) => `?type=${type}&id=${id}&since=0&until=2000000000`),
  "?since=0&until=2000000000",
];

describe("tenant walls, every account route", () => {
  test("B's administrator never reaches A's data", async () => {
    const started = performance.now();
    const { h, a, b } = await tenants();
    const log = await changeLog(h.deps.db);
    const doc = (await h.request("GET", "/openapi/json")).body;
    // Deletions last, so a leaking DELETE cannot hide what the other methods would show.
    const routes = routesOf(doc)
      .filter((r) => ACCOUNT.test(r.path))
      .sort((x, y) => Number(x.method === "DELETE") - Number(y.method === "DELETE"));
    const failures: string[] = [];
    let requests = 0;
    const settle = async () => {
      for (let n = -1; n !== log.size(); ) {
        n = log.size();
        await h.deps.commits.settled();
        await h.deps.bus.drain();
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const crossRows = crossRowsCheck(h.deps.db, a.id, b.id);
    // Each request ends settled, so the next one starts from a quiet database.
    await settle();
    const send = async (method: string, path: string, body: unknown, refused: number[] | null, variant: string) => {
      const before = log.size();
      const r = await h.request(method, path, { token: b.token, body });
      requests++;
      await settle();
      const wrote = log.size() > before;
      const fail = (why: string) =>
        failures.push(`${method} ${path} [${variant}] ${r.status} ${why}: ${r.text.slice(0, 160)}`);
      const marker = a.markers.find((m) => r.text.includes(m));
      if (marker) fail(`shows A's ${marker}`);
      if (refused) {
        if (!refused.includes(r.status)) fail(`not refused with ${refused.join(", ")}`);
        else if (envelopeProblem(r.body)) fail(envelopeProblem(r.body)!);
        if (wrote) fail(`wrote ${log.tablesSince(before).join(", ")}`);
      }
      // Only a write can link B to A: a request that changed no row (most are refused) is not
      // searched (a statement a table cost the PostgreSQL pass ~40 ms a request).
      if (wrote) for (const row of crossRows()) fail(`left ${row} joining B to A`);
      return r;
    };
    const inA = { ids: a.ids, widgetQuery: "", adminEmail: "" };
    const inB = { ids: { ...a.ids, "{account_id}": String(b.id) }, widgetQuery: "", adminEmail: "" };
    const bOwn = { ids: b.ids, widgetQuery: "", adminEmail: "" };
    for (const route of routes) {
      const body = route.bodyProps ? plausible(inA, route) : undefined;
      // (a) A's account, A's ids.
      await send(route.method, pathOf(inA, route), body, [401, 403, 404], "A's account");
      // (b) B's account, A's ids in the path (and in the body).
      if (route.params.length > 1) await send(route.method, pathOf(inB, route), body, [403, 404], "A's ids in B");
      // (b) again, B's own records in the path but the last: A's child of B's parent (a note, a message, a delivery).
      if (route.params.length > 2) {
        const last = route.params.at(-1)!;
        const at = route.path.split("/").indexOf(`{${last}}`);
        const foreign = pathOf(inA, route).split("/")[at]!;
        await send(route.method, pathOf(bOwn, route, [last, foreign]), body, [403, 404], "A's child of B's");
      }
      // (c) B's own lists, also searched for A's strings and filtered by A's records.
      if (route.method === "GET" && route.params.length === 1)
        for (const query of listQueries(a.ids))
          await send("GET", pathOf(bOwn, route) + query, undefined, null, "B's list");
      // (d) B's own records, A's records named in the body: a 2xx must not link B to A (crossRowsCheck).
      if (route.bodyProps && route.method !== "DELETE") {
        const fields = foreignFields(a.ids);
        const named = Object.fromEntries(route.bodyProps.filter((p) => p in fields).map((p) => [p, fields[p]]));
        const foreign = { ...(plausible(inA, route) ?? {}), ...named };
        if (JSON.stringify(foreign) !== JSON.stringify(plausible(bOwn, route)))
          await send(route.method, pathOf(bOwn, route), foreign, null, "A's ids in B's body");
      }
    }
    // The filter routes, asked for A's records by name and by id.
    const filter = (attribute_key: string, values: unknown[]) => ({
      payload: [{ attribute_key, filter_operator: "equal_to", values, query_operator: null }],
    });
    const api = `/api/v1/accounts/${b.id}`;
    await send("POST", `${api}/contacts/filter`, filter("name", [MARKERS[0]]), null, "A's name in B's filter");
    for (const [key, id] of [
      ["inbox_id", "{inbox_id}"],
      ["team_id", "{team_id}"],
      ["assignee_id", "agents/{id}"],
    ])
      await send(
        "POST",
        `${api}/conversations/filter`,
        filter(key!, [Number(a.ids[id!])]),
        null,
        "A's id in B's filter",
      );
    await send("POST", `${api}/conversations/filter`, filter("labels", [MARKERS[2]]), null, "A's label in B's filter");
    // B's own records made or changed with one of A's records named in the body, one field at a time.
    const own = { inbox_id: Number(b.ids["{inbox_id}"]), contact_id: Number(b.ids["contacts/{id}"]) };
    const aAgent = Number(a.ids["agents/{id}"]);
    const aTeam = Number(a.ids["{team_id}"]);
    for (const field of [{ assignee_id: aAgent }, { team_id: aTeam }])
      await send("POST", `${api}/conversations`, { ...own, ...field }, null, "A's id in B's new conversation");
    const conversation = `${api}/conversations/${b.ids["{conversation_id}"]}`;
    const inReplyTo = { content_attributes: { in_reply_to: Number(a.ids["{message_id}"]) } };
    await send("POST", `${conversation}/messages`, { content: "re", ...inReplyTo }, null, "reply to A's message");
    const actions = [
      { action_name: "assign_team", action_params: [aTeam] },
      { action_name: "assign_agent", action_params: [aAgent] },
    ];
    for (const action of actions) {
      const rule = {
        name: `Probe ${action.action_name}`,
        event_name: "message_created",
        conditions: [
          { attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: null },
        ],
        actions: [action],
      };
      await send("POST", `${api}/automation_rules`, rule, null, "A's id in B's rule");
    }
    await send("POST", `${conversation}/messages`, { content: "refund please" }, null, "B's rules fired");
    await send("GET", `${conversation}/messages`, undefined, null, "B's messages");
    const ms = Math.round(performance.now() - started);
    console.log(`tenant walls: ${requests} requests over ${routes.length} routes in ${ms} ms`);
    expect(failures).toEqual([]);
  }, 60_000);
});
