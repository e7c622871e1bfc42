// What a `parley serve` process keeps in memory, while other processes write to the same PostgreSQL:
// a filter's kept count is recounted as soon as another process commits, and the automation rules
// the process running the automations compiled are read again once another process changes them.
// Runs once, in `npm test` (it brings its own PostgreSQL; skipped where there is none).
import { afterAll, describe, expect, test } from "bun:test";
import { CableClient } from "../helpers/cable.ts";
import { postgresForFile } from "../helpers/postgres.ts";
import { type Cluster, startCluster } from "../helpers/postgres-cluster.ts";
import type { ServerProcess } from "../helpers/server-process.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

const procs: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of procs) p.kill(9);
});
const { server, skip } = await postgresForFile("caches across processes on PostgreSQL");

/** An API inbox and a contact, made through `via`; a function that opens a conversation through any process. */
async function inboxAndContact(c: Cluster, via: ServerProcess) {
  const inbox = (await c.call(via, "POST", "/inboxes", { name: "Caches", channel: { type: "api" } })).body.id;
  const contact = (await c.call(via, "POST", "/contacts", { name: "Cora" })).body.payload.contact.id;
  return async (p: ServerProcess) => {
    const created = await c.call(p, "POST", "/conversations", { inbox_id: inbox, contact_id: contact });
    expect(created.status).toBe(200);
    return created.body.id as number;
  };
}

describe.skipIf(skip !== null || TEST_ENGINE === "postgres")("caches across processes on one PostgreSQL", () => {
  test("a filter's count kept by one process is current as soon as another process writes", async () => {
    const c = await startCluster(server!, procs, "counts", 2);
    const [writer, reader] = c.processes as [ServerProcess, ServerProcess];
    const open = await inboxAndContact(c, writer);
    const openOnes = async () => {
      const r = await c.call(reader, "POST", "/conversations/filter", {
        payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
      });
      expect(r.status).toBe(200);
      return r.body.meta.all_count as number;
    };
    expect(await openOnes()).toBe(0);
    expect(await openOnes()).toBe(0); // the second answer comes from the reader's kept count
    // Several writes in a row, each within a second of the last: PostgreSQL's statistics (what the
    // version was read from before) report a session's commits at most once a second.
    for (let n = 1; n <= 4; n++) {
      await open(writer);
      expect(await openOnes()).toBe(n);
    }
  }, 60_000);

  test("a rule made through one process runs in the process running the automations, which had compiled the rules before", async () => {
    const c = await startCluster(server!, procs, "rules", 2);
    // The first process holds the background lease: it runs the automations (helpers/postgres-cluster.ts).
    const [runner, other] = c.processes as [ServerProcess, ServerProcess];
    const open = await inboxAndContact(c, other);
    const socket = await CableClient.connect(`${runner.base.replace("http", "ws")}/cable?api_access_token=${c.token}`);
    await socket.subscribe({ account_id: 1 });
    // A conversation before any rule: the runner reads the account's conversation_created rules (none) and keeps them.
    const before = await open(other);
    await socket.until((f) => f.message?.event === "conversation.created" && f.message.data.id === before, 20_000);

    expect((await c.call(other, "POST", "/labels", { title: "triaged" })).status).toBe(200);
    const rule = await c.call(other, "POST", "/automation_rules", {
      name: "Triage",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
      actions: [{ action_name: "add_label", action_params: ["triaged"] }],
    });
    expect(rule.status).toBe(200);

    const after = await open(other);
    const labelled = await socket.until(
      (f) => f.message?.event === "conversation.updated" && f.message.data.id === after,
      20_000,
    );
    expect(labelled.message.data.labels).toEqual(["triaged"]);
    expect((await c.call(other, "GET", `/conversations/${after}/labels`)).body.payload).toEqual(["triaged"]);
    expect((await c.call(other, "GET", `/conversations/${before}/labels`)).body.payload).toEqual([]);
  }, 60_000);
});
