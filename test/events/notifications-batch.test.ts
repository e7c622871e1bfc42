// The notifications listener lets a batch's notifications share one commit with the bus's cursor
// (SQLite's write group stays open while the bus goes on to the next event): a customer message no
// longer costs a commit of its own in the background. The promises kept: no notification is made twice,
// and a batch whose commit fails leaves neither its notifications nor a moved cursor behind, and is
// handled again by the next drain. PostgreSQL commits each awaited body before the listener goes on
// (src/db/awaited-writes.ts), so there is no shared commit to test there.
import { describe, expect, test } from "bun:test";
import { NOTIFICATIONS_LISTENER } from "../../src/events/listeners/notifications.listener.ts";
import { newConversation, send, type World, world } from "../helpers/conversation-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

const MESSAGES = 5;

/** Counts the write groups' commits (and, with `failNext`, makes the next one fail) on the database. */
function commitsOf(w: World) {
  const db = w.h.deps.db;
  const run = db.run.bind(db);
  const seen = { writes: 0, failNext: false };
  let writing = false;
  db.run = ((sql: string, ...params: unknown[]) => {
    if (sql === "BEGIN IMMEDIATE") writing = true;
    if (sql === "COMMIT" && writing) {
      writing = false;
      seen.writes++;
      if (seen.failNext) {
        seen.failNext = false;
        throw new Error("disk I/O error (injected)");
      }
    }
    return run(sql, ...(params as []));
  }) as typeof db.run;
  return seen;
}

/** A customer message in each of five conversations assigned to the agent (a conversation keeps only its newest). */
async function customerMessages(w: World): Promise<void> {
  const ids: number[] = [];
  for (let i = 0; i < MESSAGES; i++) ids.push((await newConversation(w, { assignee_id: w.agent.userId })).id);
  await w.h.deps.bus.drain();
  for (const id of ids) await send(w, id, { content: `Question ${id}`, message_type: "incoming" });
}

/** The ids of the agent's "new message" notifications (a replayed one would replace its row: a new id). */
const newMessageNotes = (w: World) =>
  (
    w.h.deps.db
      .query("SELECT id FROM notifications WHERE user_id = ? AND notification_type = ? ORDER BY id")
      .all(w.agent.userId, "assigned_conversation_new_message") as { id: number }[]
  ).map((r) => r.id);

describe.skipIf(TEST_ENGINE !== "sqlite")("notifications share their batch's commit (SQLite)", () => {
  test("a drain over five customer messages writes their five notifications and the cursors in one commit", async () => {
    const w = await world({ deps: { wakeListeners: false } });
    await customerMessages(w);
    expect(newMessageNotes(w)).toEqual([]);
    const commits = commitsOf(w);
    await w.h.deps.bus.drain();
    const made = newMessageNotes(w);
    expect(made).toHaveLength(MESSAGES);
    expect(commits.writes).toBe(1);
    // Caught up: a second drain has nothing to write, and makes no notification again.
    await w.h.deps.bus.drain();
    expect(commits.writes).toBe(1);
    expect(newMessageNotes(w)).toEqual(made);
  });

  test("a batch whose commit fails keeps neither notifications nor cursor, and the next drain writes each once", async () => {
    const w = await world({ deps: { wakeListeners: false } });
    await customerMessages(w);
    const cursor = w.h.deps.bus.cursorOf(NOTIFICATIONS_LISTENER);
    const commits = commitsOf(w);
    commits.failNext = true;
    await w.h.deps.bus.drain();
    expect(commits.failNext).toBe(false); // the failure was injected
    expect(newMessageNotes(w)).toEqual([]);
    expect(w.h.deps.bus.cursorOf(NOTIFICATIONS_LISTENER)).toBe(cursor);
    await w.h.deps.bus.drain();
    const made = newMessageNotes(w);
    expect(made).toHaveLength(MESSAGES);
    expect(w.h.deps.bus.cursorOf(NOTIFICATIONS_LISTENER)).toBeGreaterThan(cursor);
    await w.h.deps.bus.drain();
    expect(newMessageNotes(w)).toEqual(made);
  });
});
