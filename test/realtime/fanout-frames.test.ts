// The fan-out's batch framing: cursors move past every event offered, frames are grouped per
// connection in event order, and an event whose rendering throws is skipped alone — the frames of
// the events before it in the batch still go out (their cursors have already moved past them).
import { describe, expect, test } from "bun:test";
import type { EventRow } from "../../src/db/events.repo.ts";
import type { Connection, Subscription } from "../../src/realtime/connection.ts";
import { framesForBatch } from "../../src/realtime/fanout-frames.ts";
import type { EventRenderer, Rendered } from "../../src/realtime/render.ts";
import { Audience } from "../../src/realtime/visibility.ts";
import { world } from "../helpers/conversation-fixtures.ts";

const row = (id: number, accountId: number): EventRow => ({
  id,
  account_id: accountId,
  kind: "contact_updated",
  actor_type: "system",
  actor_id: null,
  inbox_id: null,
  conversation_id: null,
  contact_id: 1,
  private: 0,
  payload: JSON.stringify({ id: 1, name: `Carla ${id}` }),
  created_at_ms: id,
});

describe("framesForBatch", () => {
  test("a failing render skips its event only; cursors and frames follow the batch", async () => {
    const w = await world();
    const conn = { subs: new Map(), closed: false } as unknown as Connection;
    const sub = (userId: number, identifier: string): Subscription => ({
      conn,
      identifier,
      identifierJson: JSON.stringify(identifier),
      viewer: { kind: "user", accountId: w.a.accountId, userId },
      cursor: 0,
      replaying: false,
      credential: null,
    });
    const admin = sub(w.a.adminId, '{"channel":"RoomChannel","tab":1}');
    const agent = sub(w.agent.userId, '{"channel":"RoomChannel","tab":2}');
    // A renderer that fails on event 11 and renders the others as the real one would name them.
    const renderer = {
      render: (e: { id: number; payload: Record<string, unknown> }): Rendered => {
        if (e.id === 11) throw new Error("boom");
        return { seq: e.id, event: "contact.updated", data: e.payload, created_at: 0 };
      },
    } as unknown as EventRenderer;
    const reached: number[] = [];
    const failed: [number, string][] = [];
    const outbox = framesForBatch(
      [row(10, w.a.accountId), row(11, w.a.accountId), row(12, w.a.accountId), row(13, w.a.accountId + 1)],
      (accountId) => (accountId === w.a.accountId ? [admin, agent] : undefined),
      new Audience(w.h.deps.repos.realtime),
      renderer,
      (id) => reached.push(id),
      (id, error) => failed.push([id, String(error)]),
    );
    expect(reached).toEqual([10, 11, 12, 13]);
    expect(failed).toEqual([[11, "Error: boom"]]);
    expect([admin.cursor, agent.cursor]).toEqual([12, 12]);
    // Both subscriptions share the connection here: its frames, in order, each under its identifier.
    const frames = (outbox.get(conn) ?? []).map((f) => JSON.parse(f) as { identifier: string; message: Rendered });
    expect(frames.map((f) => [f.identifier, f.message.seq, (f.message.data as { name: string }).name])).toEqual([
      ['{"channel":"RoomChannel","tab":1}', 10, "Carla 10"],
      ['{"channel":"RoomChannel","tab":2}', 10, "Carla 10"],
      ['{"channel":"RoomChannel","tab":1}', 12, "Carla 12"],
      ['{"channel":"RoomChannel","tab":2}', 12, "Carla 12"],
    ]);
  });
});
