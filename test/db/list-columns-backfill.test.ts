// Migration 022 fills the list columns of conversations that exist when it runs: labels in the order
// they were added, incoming messages since the agent last looked (uncapped), the newest message.
import { describe, expect, test } from "bun:test";
import { migrate } from "../../src/db/migrate.ts";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { openDatabase } from "../../src/db/open.ts";

describe("migration 022 on an existing database", () => {
  test("backfills labels, unread counts and newest message ids", () => {
    const db = openDatabase(":memory:");
    const before = MIGRATIONS.findIndex((m) => m.name === "022_conversation_list_columns");
    migrate(db, MIGRATIONS.slice(0, before));
    for (const sql of [
      "INSERT INTO accounts (id, name, created_at, updated_at) VALUES (1, 'Acme', 1, 1)",
      "INSERT INTO inboxes (id, account_id, name, channel_type, created_at, updated_at) VALUES (1, 1, 'API', 'api', 1, 1)",
      "INSERT INTO contacts (id, account_id, name, email, created_at, updated_at) VALUES (1, 1, 'Carla', 'c@acme.test', 1, 1)",
      "INSERT INTO contact_inboxes (id, contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (1, 1, 1, 's', 'p', 1, 1)",
      `INSERT INTO conversations (id, account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, last_activity_at, agent_last_seen_at, created_at, updated_at_ms)
         VALUES (10, 1, 1, 'u10', 1, 1, 1, 100, 150, 100, 100), (11, 1, 2, 'u11', 1, 1, 1, 100, NULL, 100, 100), (12, 1, 3, 'u12', 1, 1, 1, 100, NULL, 100, 100)`,
      "INSERT INTO conversation_labels (id, conversation_id, account_id, title) VALUES (3, 10, 1, 'vip'), (2, 10, 1, 'billing'), (4, 11, 1, 'later')",
      `INSERT INTO messages (id, account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at) VALUES
         (1, 1, 1, 10, 0, 'seen', 140, 140), (2, 1, 1, 10, 1, 'reply', 145, 145), (3, 1, 1, 10, 0, 'new', 160, 160),
         (4, 1, 1, 10, 0, 'newer', 170, 170), (5, 1, 1, 11, 0, 'never seen', 120, 120)`,
    ])
      db.run(sql);
    expect(migrate(db, MIGRATIONS.slice(0, before + 1))).toEqual([before + 1]);
    expect(
      db.query("SELECT id, label_list, unread_incoming, last_message_id FROM conversations ORDER BY id").all(),
    ).toEqual([
      // Labels by the order their rows were added (ids 2 then 3), not by title or by insert statement.
      { id: 10, label_list: '["billing","vip"]', unread_incoming: 2, last_message_id: 4 },
      { id: 11, label_list: '["later"]', unread_incoming: 1, last_message_id: 5 },
      { id: 12, label_list: "[]", unread_incoming: 0, last_message_id: null },
    ]);
  });
});
