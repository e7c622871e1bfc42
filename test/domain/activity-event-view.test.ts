// A status change builds the conversation's event view once and lends it to its activity message's
// message_created (src/domain/conversation-events.ts activitySteps): an activity message changes
// nothing an event view shows but the row's times. Here that event's conversation, for a toggle and
// for a customer message reopening a resolved conversation, equals a view built afresh from the
// database after the change.
import { describe, expect, test } from "bun:test";
import type { ConversationRow } from "../../src/db/conversations.repo.ts";
import { readSoon } from "../../src/db/reads.ts";
import { ConversationViews } from "../../src/domain/conversation-view.ts";
import { conversationPushData } from "../../src/domain/presenters/conversation.presenter.ts";
import { newConversation, send, type World, world } from "../helpers/conversation-fixtures.ts";

/** The newest activity message's message_created payload, and the conversation's view built now. */
async function activityEventAndFreshView(w: World, displayId: number) {
  const db = w.h.deps.db;
  const row = db
    .query("SELECT * FROM conversations WHERE account_id = ? AND display_id = ?")
    .get(w.a.accountId, displayId) as ConversationRow;
  const events = (
    db
      .query("SELECT payload FROM events WHERE conversation_id = ? AND kind = 'message_created' ORDER BY id")
      .all(row.id) as { payload: string }[]
  ).map(
    (e) =>
      JSON.parse(e.payload) as {
        message_type: string;
        content: string;
        created_at: string;
        conversation: Record<string, unknown>;
      },
  );
  const activity = events.filter((e) => e.message_type === "activity").at(-1)!;
  // An event's view, as the outbox's writers build it (no viewer, not the API object).
  const views = new ConversationViews(w.h.deps.repos, w.h.deps.files.links);
  const view = await readSoon(
    views.readOne(row, { account: { id: w.a.accountId, name: "Acme" }, viewerId: null, api: false }),
  );
  return { activity, fresh: conversationPushData(view) };
}

describe("an activity message's event shares its status change's view", () => {
  test("a toggle: resolved, its activity message's conversation is the conversation as saved", async () => {
    const w = await world();
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    await send(w, c.id, { content: "Thanks, that is all", message_type: "incoming" });
    w.h.clock.advance(3_600_000); // an hour later: the activity message moves the activity time
    const r = await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    expect(r.body.payload.current_status).toBe("resolved");
    const { activity, fresh } = await activityEventAndFreshView(w, c.id);
    expect(activity.content).toBe("Conversation was marked resolved by Admin");
    expect(activity.conversation).toEqual(fresh);
  });

  test("a customer message reopening a resolved conversation: the reopening's activity event likewise", async () => {
    const w = await world();
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    w.h.clock.advance(3_600_000); // an hour later: the reopening moves the activity time
    await send(w, c.id, { content: "One more question", message_type: "incoming" });
    const { activity } = await activityEventAndFreshView(w, c.id);
    expect(activity.content).toBe("System reopened the conversation due to a new incoming message.");
    // The reopened conversation, its activity moved to the activity message's time.
    expect(activity.conversation.status).toBe("open");
    expect(activity.created_at).toBe("2026-01-05T10:00:00.000Z");
    expect(activity.conversation.last_activity_at).toBe(Date.UTC(2026, 0, 5, 10) / 1000);
  });
});
