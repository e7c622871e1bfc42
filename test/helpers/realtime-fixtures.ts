// A served account for realtime tests: inbox A (the agent is a member) and inbox B (nobody but the
// administrator sees it), two contacts with conversations, and the tokens each party connects with.
import { expect } from "bun:test";
import { type CableClient, listen, type Served } from "./cable.ts";
import { newConversation, world, type World } from "./conversation-fixtures.ts";
import { makeInbox } from "./directory-fixtures.ts";

export interface Room extends World {
  served: Served;
  inboxB: number;
  danId: number;
  /** Display ids: Carla in inbox A, Dan in inbox A, Carla in inbox B. */
  carlaA: number;
  danA: number;
  carlaB: number;
  /** contact_inbox pubsub tokens (what the widget subscribes with). */
  carlaToken: string;
  danToken: string;
  /** The agent's user pubsub token (what Chatwoot's dashboard subscribes with). */
  agentPubsub: string;
}

/** The contact_inbox pubsub token of a conversation. */
export function conversationPubsub(w: World, displayId: number): string {
  const row = w.h.deps.db
    .query(
      "SELECT ci.pubsub_token FROM conversations c JOIN contact_inboxes ci ON ci.id = c.contact_inbox_id WHERE c.account_id = ? AND c.display_id = ?",
    )
    .get(w.a.accountId, displayId) as { pubsub_token: string };
  return row.pubsub_token;
}

export async function room(): Promise<Room> {
  const w = await world();
  const inboxB = makeInbox(w.h, w.a.accountId, { name: "Other" });
  const dan = await w.h.request("POST", `${w.base}/contacts`, {
    token: w.a.adminToken,
    body: { name: "Dan Doe", email: "dan@example.com" },
  });
  expect(dan.status).toBe(200);
  const danId = dan.body.payload.contact.id;
  const carlaA = (await newConversation(w)).id;
  const danA = (await newConversation(w, { contact_id: danId })).id;
  const carlaB = (await newConversation(w, { inbox_id: inboxB })).id;
  const profile = await w.h.request("GET", "/api/v1/profile", { token: w.agent.token });
  return {
    ...w,
    served: listen(w.h),
    inboxB,
    danId,
    carlaA,
    danA,
    carlaB,
    carlaToken: conversationPubsub(w, carlaA),
    danToken: conversationPubsub(w, danA),
    agentPubsub: profile.body.pubsub_token,
  };
}

/**
 * Everything written so far has reached these sockets: commits and the listeners they set off are
 * done, replays have ended, the fan-out has read every event, and a round trip on each socket came
 * back after its frames. What a client holds then is all it will get (no waiting to see that
 * nothing more comes).
 */
export async function quiet(r: Room, ...clients: CableClient[]): Promise<void> {
  await r.h.deps.commits.settled();
  await r.h.deps.bus.drain();
  await r.h.deps.commits.settled();
  await r.h.deps.realtime.replaysEnded();
  await r.h.deps.realtime.fanOut();
  await Promise.all(clients.map((c) => c.sync()));
}
