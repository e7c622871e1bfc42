// The fan-out's inner loop: for a batch of new events, the frames each connection should get, in
// event order. Each event is decoded and rendered at most once; each live subscription's cursor
// moves past every event it was offered (seen or not), so a later replay or batch never repeats
// one. Frames are grouped per connection, so the hub writes each socket once per batch (one
// message is several events; with 200 agents the writes were most of the writer's time).
import { eventFromRow, type EventRow } from "../db/events.repo.ts";
import type { StoredEvent } from "../shared/event-types.ts";
import { messageFrame } from "../shared/cable-frames.ts";
import type { Connection, Subscription } from "./connection.ts";
import { renderedJson, type EventRenderer, type Rendered } from "./render.ts";
import { type Audience, visible } from "./visibility.ts";

export function framesForBatch(
  rows: readonly EventRow[],
  subscriptionsOf: (accountId: number) => Iterable<Subscription> | undefined,
  audience: Audience,
  renderer: EventRenderer,
  /** Called with each row's id before its frames are made (the hub's read cursor). */
  reached: (id: number) => void,
): Map<Connection, string[]> {
  const outbox = new Map<Connection, string[]>();
  for (const row of rows) {
    reached(row.id);
    const subs = subscriptionsOf(row.account_id);
    if (!subs) continue;
    let event: StoredEvent | null = null;
    let rendered: Rendered | null | undefined;
    // One frame string per identifier: a user's tabs share theirs, and a string sent to many
    // sockets is flattened and encoded once instead of once per socket.
    const frames = new Map<string, string>();
    for (const sub of subs) {
      if (sub.replaying || row.id <= sub.cursor) continue;
      sub.cursor = row.id;
      event ??= eventFromRow(row);
      if (!visible(event, sub.viewer, audience)) continue;
      if (rendered === undefined) rendered = renderer.render(event);
      if (rendered === null) break;
      let frame = frames.get(sub.identifierJson);
      if (frame === undefined)
        frames.set(sub.identifierJson, (frame = messageFrame(sub.identifierJson, renderedJson(rendered))));
      const queued = outbox.get(sub.conn);
      if (queued) queued.push(frame);
      else outbox.set(sub.conn, [frame]);
    }
  }
  return outbox;
}
