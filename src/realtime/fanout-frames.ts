// The fan-out's inner loop: for a batch of new events, the frames each connection should get, in
// event order. Each event is decoded and rendered at most once; each live subscription's cursor
// moves past every event it was offered (seen or not), so a later replay or batch never repeats
// one. Frames are grouped per connection, so the hub writes each socket once per batch (one
// message is several events; with 200 agents the writes were most of the writer's time). An event
// whose rendering throws is skipped, not the batch: the cursors have moved past the events before it,
// and dropping their frames would lose them for every live client.
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
  /** An event that could not be rendered is skipped (and reported here); the rest of the batch still goes out. */
  renderFailed: (eventId: number, error: unknown) => void,
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
      if (rendered === undefined) {
        try {
          rendered = renderer.render(event);
        } catch (error) {
          rendered = null;
          renderFailed(row.id, error);
        }
      }
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
