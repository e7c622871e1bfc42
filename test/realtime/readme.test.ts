// docs/realtime.md's "follow an account's events" script, run exactly as printed: it receives every event
// once and in order, across a server-side disconnect (it reconnects with since), and reports resync.
import { afterEach, expect, test } from "bun:test";
import { until } from "../helpers/until.ts";
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

/** What the script hands its callbacks, and a wait for the next of them (no polling). */
function collector<T>() {
  const items: T[] = [];
  let wake: (() => void) | null = null;
  return {
    items,
    add(item: T) {
      items.push(item);
      wake?.();
    },
    async reach(n: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (items.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${items.length} of ${n} after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
  };
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
  const seen = collector<number>();
  const since = r.h.lastEventId();
  const f = followParley({
    url: `http://127.0.0.1:${r.served.port}`,
    token: r.a.adminToken,
    accountId: r.a.accountId,
    since,
    onEvent: (e) => seen.add(e.seq),
  });
  stop = () => f.stop();
  await until(() => r!.h.deps.realtime.stats().subscriptions === 1); // so "one" goes out live
  await send(r, r.carlaA, { content: "one" });
  await seen.reach(2);
  // The server goes away (as on restart); events happen while the script is disconnected.
  r.h.deps.realtime.shutdown();
  await send(r, r.danA, { content: "two" });
  await send(r, r.carlaA, { content: "three" });
  const streamed = () =>
    r!.h
      .events(since)
      .filter((e) => e.kind === "message_created" || e.kind === "conversation_updated")
      .map((e) => e.id);
  await seen.reach(streamed().length);
  // One event more, live: a repeat of anything earlier would have come before it, in the stream's order.
  await send(r, r.danA, { content: "four" });
  const expected = streamed();
  await seen.reach(expected.length);
  expect(seen.items).toEqual(expected);
  expect(f.lastSeq).toBe(expected.at(-1)!);
});

test("the documented script reports a resync and goes on from latest_seq", async () => {
  r = await room();
  const followParley = await readmeScript();
  const resyncs = collector<unknown>();
  const seen = collector<number>();
  const latest = r.h.lastEventId();
  const f = followParley({
    url: `http://127.0.0.1:${r.served.port}`,
    token: r.a.adminToken,
    accountId: r.a.accountId,
    since: latest + 50,
    onEvent: (e) => seen.add(e.seq),
    onResync: (d) => resyncs.add(d),
  });
  stop = () => f.stop();
  await resyncs.reach(1);
  expect(resyncs.items).toEqual([{ oldest_seq: 1, latest_seq: latest }]);
  expect(f.lastSeq).toBe(latest);
  await send(r, r.carlaA, { content: "after" });
  await seen.reach(2);
  expect(seen.items).toEqual([latest + 1, latest + 2]);
});
