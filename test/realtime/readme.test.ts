// docs/realtime.md's "follow an account's events" script, run exactly as printed: it receives every event
// once and in order, across a server-side disconnect (it reconnects with since), and reports resync.
import { afterEach, expect, test } from "bun:test";
import { send } from "../helpers/conversation-fixtures.ts";
import { readmeModule } from "../helpers/readme.ts";
import { room, type Room } from "../helpers/realtime-fixtures.ts";

type Follow = (o: {
  url: string;
  token: string;
  accountId: number;
  since?: number | null;
  onEvent: (e: any) => void;
  onResync?: (d: any) => void;
}) => { stop(): void; readonly lastSeq: number | null };

async function readmeScript(): Promise<Follow> {
  return (await readmeModule("realtime-follow")).followParley as Follow;
}

async function until(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(20);
  }
}

let r: Room | null = null;
let stop: (() => void) | null = null;
afterEach(async () => {
  stop?.();
  await r?.served.stop();
  r = stop = null;
});

test("the documented script follows the account through a disconnect without losing or repeating an event", async () => {
  r = await room();
  const followParley = await readmeScript();
  const seen: number[] = [];
  const since = r.h.lastEventId();
  const f = followParley({
    url: `http://127.0.0.1:${r.served.port}`,
    token: r.a.adminToken,
    accountId: r.a.accountId,
    since,
    onEvent: (e) => seen.push(e.seq),
  });
  stop = () => f.stop();
  await until(() => r!.h.deps.realtime.stats().subscriptions === 1);
  await send(r, r.carlaA, { content: "one" });
  await until(() => seen.length === 2);
  // The server goes away (as on restart); events happen while the script is disconnected.
  r.h.deps.realtime.shutdown();
  await send(r, r.danA, { content: "two" });
  await send(r, r.carlaA, { content: "three" });
  const expected = r.h
    .events(since)
    .filter((e) => e.kind === "message_created" || e.kind === "conversation_updated")
    .map((e) => e.id);
  await until(() => seen.length === expected.length);
  await Bun.sleep(100);
  expect(seen).toEqual(expected);
  expect(f.lastSeq).toBe(expected.at(-1)!);
});

test("the documented script reports a resync and goes on from latest_seq", async () => {
  r = await room();
  const followParley = await readmeScript();
  const resyncs: unknown[] = [];
  const seen: number[] = [];
  const latest = r.h.lastEventId();
  const f = followParley({
    url: `http://127.0.0.1:${r.served.port}`,
    token: r.a.adminToken,
    accountId: r.a.accountId,
    since: latest + 50,
    onEvent: (e) => seen.push(e.seq),
    onResync: (d) => resyncs.push(d),
  });
  stop = () => f.stop();
  await until(() => resyncs.length === 1);
  expect(resyncs).toEqual([{ oldest_seq: 1, latest_seq: latest }]);
  expect(f.lastSeq).toBe(latest);
  await send(r, r.carlaA, { content: "after" });
  await until(() => seen.length === 2);
  expect(seen).toEqual([latest + 1, latest + 2]);
});
