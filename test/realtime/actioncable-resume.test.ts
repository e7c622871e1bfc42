// docs/realtime.md's resume recipe for @rails/actioncable (Chatwoot's client) run as written: remember the
// last seq, and on `disconnected` replace the subscription with one that carries `since`. Events
// written while the client was away arrive after it reconnects (replayed or live, depending on how
// fast it is back): none lost, none twice.
import { afterEach, describe, expect, test } from "bun:test";
import { createConsumer, type Consumer, type Subscription } from "@rails/actioncable";
import { send } from "../helpers/conversation-fixtures.ts";
import { room, type Room } from "../helpers/realtime-fixtures.ts";

let r: Room | null = null;
let consumer: Consumer | null = null;
afterEach(async () => {
  consumer?.disconnect();
  consumer = null;
  await r?.served.stop();
  r = null;
});

describe("resuming with @rails/actioncable", () => {
  test("the subscription-replacement recipe loses nothing and repeats nothing", async () => {
    r = await room();
    const w = r;
    const seqs: number[] = [];
    const contents: string[] = [];
    let wake: (() => void) | null = null;
    const arrived = (n: number) =>
      new Promise<void>((resolve) => (wake = () => contents.length >= n && resolve())).then(() => (wake = null));

    // --- the recipe (docs/realtime.md, "Resuming with @rails/actioncable") ---
    consumer = createConsumer(w.served.url());
    const connected = Promise.withResolvers<void>();
    let lastSeq: number | null = null;
    let subscription: Subscription;
    const subscribe = () => {
      subscription = consumer!.subscriptions.create(
        {
          channel: "RoomChannel",
          pubsub_token: w.agentPubsub,
          account_id: w.a.accountId,
          ...(lastSeq === null ? {} : { since: lastSeq }),
        },
        {
          connected: () => connected.resolve(),
          received(m: { event: string; data: { content?: string; latest_seq?: number }; seq?: number }) {
            if (typeof m.seq === "number") lastSeq = m.seq;
            else if (m.event === "resync") lastSeq = m.data.latest_seq ?? lastSeq;
            if (m.event === "message.created") {
              seqs.push(m.seq!);
              contents.push(m.data.content!);
              wake?.();
            }
          },
          disconnected() {
            subscription.unsubscribe();
            subscribe(); // the next connection asks for what this one missed
          },
        },
      );
    };
    subscribe();
    // ---
    await connected.promise;

    const first = arrived(2);
    await send(w, w.carlaA, { content: "one", message_type: "incoming" });
    await send(w, w.carlaA, { content: "two", message_type: "incoming" });
    await first;

    // The server drops every socket (a restart, a proxy timing out); messages go on meanwhile.
    const rest = arrived(6);
    w.h.deps.realtime.shutdown();
    for (const content of ["three", "four", "five", "six"])
      await send(w, w.carlaA, { content, message_type: "incoming" });
    await rest;

    expect(contents).toEqual(["one", "two", "three", "four", "five", "six"]);
    expect(new Set(seqs).size).toBe(6);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    // Done: unsubscribed first, so the recipe does not subscribe again when the consumer closes.
    subscription!.unsubscribe();
  }, 20_000);
});
