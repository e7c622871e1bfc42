// Realtime across several `parley serve` processes on one PostgreSQL: what one process learns
// reaches sockets held by another. A notification made by the process running the listeners reaches
// its user's socket on another; an agent connected to one process is online for sockets and the
// agents list on another, and offline there once they leave. Runs once, in `npm test` (it brings
// its own PostgreSQL; skipped where there is none).
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
const { server, skip } = await postgresForFile("realtime across processes on PostgreSQL");

/** An API inbox whose members include the administrator (user 1), and a public API poster for it. */
async function siteInbox(c: Cluster, via: ServerProcess) {
  const inbox = (await c.call(via, "POST", "/inboxes", { name: "Site", channel: { type: "api" } })).body;
  expect((await c.call(via, "POST", "/inbox_members", { inbox_id: inbox.id, user_ids: [1] })).status).toBe(200);
  const post = async (p: ServerProcess, path: string, body: unknown) =>
    (await fetch(`${p.base}/public/api/v1/inboxes/${inbox.inbox_identifier}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as any;
  return { inbox, post };
}

const cable = (p: ServerProcess, query = "") => CableClient.connect(`${p.base.replace("http", "ws")}/cable${query}`);

describe.skipIf(skip !== null || TEST_ENGINE === "postgres")("realtime across processes on one PostgreSQL", () => {
  test("notification.created reaches the user's socket on a process other than the one making notifications", async () => {
    const c = await startCluster(server!, procs, "notified", 2);
    const [maker, other] = c.processes as [ServerProcess, ServerProcess];
    const { post } = await siteInbox(c, maker);
    const socket = await cable(other, `?api_access_token=${c.token}`);
    await socket.subscribe({ account_id: 1 });

    // A visitor starts a conversation: the inbox's member is told, by the process running the
    // notifications listener (the first), on a socket of the second.
    const visitor = await post(other, "/contacts", { name: "Vera" });
    const conversation = await post(other, `/contacts/${visitor.source_id}/conversations`, {});
    const frame = await socket.until((f) => f.message?.event === "notification.created", 20_000);
    expect(frame.message.data.notification).toMatchObject({
      notification_type: "conversation_creation",
      primary_actor_id: conversation.id,
    });
    expect(frame.message.data.unread_count).toBe(1);
    expect(socket.messages("notification.created").length).toBe(1);
  }, 60_000);

  test("an agent connected to one process is online on another, and offline there once gone", async () => {
    const c = await startCluster(server!, procs, "presence", 2);
    const [a, b] = c.processes as [ServerProcess, ServerProcess];
    const { post } = await siteInbox(c, a);
    // A visitor's socket on a: contacts hear presence.update with the agents online.
    const visitor = await post(a, "/contacts", { name: "Otto" });
    const watcher = await cable(a);
    await watcher.subscribe({ pubsub_token: visitor.pubsub_token, account_id: 1 });
    const agentsOnA = async () =>
      (await c.call(a, "GET", "/agents")).body as { id: number; availability_status: string }[];
    expect((await agentsOnA()).find((u) => u.id === 1)?.availability_status).toBe("offline");

    // The administrator (automatic offline, as by default) connects to b.
    const agent = await cable(b, `?api_access_token=${c.token}`);
    await agent.subscribe({ account_id: 1 });
    const online = await watcher.until(
      (f) => f.message?.event === "presence.update" && f.message.data.users["1"],
      20_000,
    );
    expect(online.message.data.users).toEqual({ 1: "online" });
    expect((await agentsOnA()).find((u) => u.id === 1)?.availability_status).toBe("online");

    const after = watcher.frames.length;
    agent.close();
    await watcher.until(
      (f) => f.message?.event === "presence.update" && watcher.frames.indexOf(f) >= after && !f.message.data.users["1"],
      20_000,
    );
    expect((await agentsOnA()).find((u) => u.id === 1)?.availability_status).toBe("offline");
  }, 60_000);
});
