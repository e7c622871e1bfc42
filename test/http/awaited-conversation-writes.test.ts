// Conversation create, and status, priority and assignment changes, as awaited bodies
// (writeTx.steps, src/db/awaited-writes.ts). On both engines: changes sent together each act on the
// conversation as the one before left it, since the body reads the row again in its own
// transaction (toggles alternate, a repeated priority writes once, a resolution sends one survey),
// and creates sent together take display ids one after another (one conversation where the inbox
// allows one). On PostgreSQL: none of these requests sends anything through the synchronous bridge
// in place.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { newConversation, send, type World, world } from "../helpers/conversation-fixtures.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { addTeamMember, makeTeam } from "../helpers/factories.ts";
import { pngFile, postMultipart } from "../helpers/files.ts";
import { agentSays, messagesPath, newContact, openConversation, publicWorld, say } from "../helpers/public-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { Visitor, widgetWorld } from "../helpers/widget-fixtures.ts";

/** The reporting events of a conversation, by name, oldest first. */
const reportingEvents = (w: { h: World["h"] }, conversationId: number) =>
  w.h.deps.repos.reportingEvents.ofConversation(conversationId).map((e) => e.name);

/** The conversation's messages: [content type, content], oldest first. */
const messages = (w: { h: World["h"] }, conversationId: number) =>
  (
    w.h.deps.db
      .prepare("SELECT content_type, content FROM messages WHERE conversation_id = ? ORDER BY id")
      .all(conversationId) as { content_type: string; content: string }[]
  ).map((m): [string, string] => [m.content_type, m.content]);

const action = (w: World, displayId: number, path: string, body: Record<string, unknown>) =>
  w.h.request("POST", `${w.base}/conversations/${displayId}/${path}`, { token: w.a.adminToken, body });

describe("status and priority changes, awaited", () => {
  test("toggles sent together each toggle the status the one before left", async () => {
    const w = await world();
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    const answers = await Promise.all([1, 2, 3].map(() => action(w, c.id, "toggle_status", {})));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    // The order they reach the database in is not the order they were sent in: count them.
    const statuses = answers.map((r) => r.body.payload.current_status as string).sort();
    expect(statuses).toEqual(["open", "resolved", "resolved"]);
    expect(w.h.deps.repos.conversations.byId(c.id)!.status).toBe("resolved");
    expect(reportingEvents(w, c.id)).toEqual(["conversation_resolved", "conversation_opened", "conversation_resolved"]);
    expect(messages(w, c.id).map(([, content]) => content)).toEqual([
      "Assigned to Ann Agent by Admin",
      "Conversation was marked resolved by Admin",
      "Conversation was reopened by Admin",
      "Conversation was marked resolved by Admin",
    ]);
  });

  test("the same priority sent twice together is written once", async () => {
    const w = await world();
    const c = await newConversation(w);
    const answers = await Promise.all([1, 2].map(() => action(w, c.id, "toggle_priority", { priority: "urgent" })));
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(w.h.deps.repos.conversations.byId(c.id)!.priority).toBe("urgent");
    expect(messages(w, c.id)).toEqual([["text", "Admin set the priority to urgent"]]);
  });

  test("two resolutions sent together send one CSAT survey, after the one activity message", async () => {
    const w = await publicWorld({ csat_survey_enabled: true });
    const contact = await newContact(w, { name: "Carla" });
    const conversation = await openConversation(w, contact);
    await say(w, contact, conversation.id, "help");
    await agentSays(w, conversation.id, { content: "done" });
    const resolve = () =>
      w.h.request("POST", `${w.api}/conversations/${conversation.id}/toggle_status`, {
        token: w.a.adminToken,
        body: { status: "resolved" },
      });
    const answers = await Promise.all([resolve(), resolve()]);
    expect(answers.map((r) => [r.status, r.body.payload.current_status])).toEqual([
      [200, "resolved"],
      [200, "resolved"],
    ]);
    const row = w.h.deps.db.prepare("SELECT id FROM conversations WHERE display_id = ?").get(conversation.id) as {
      id: number;
    };
    expect(messages(w, row.id).slice(-2)).toEqual([
      ["text", "Conversation was marked resolved by Admin"],
      ["input_csat", "Please rate the conversation"],
    ]);
    expect(reportingEvents(w, row.id).filter((e) => e === "conversation_resolved")).toHaveLength(1);
  });
});

describe("labels and read marks, awaited", () => {
  test("sent beside a resolution, they keep it; labels sent twice write once", async () => {
    const w = await world();
    const c = await newConversation(w);
    await send(w, c.id, { content: "Where is my parcel?", message_type: "incoming" });
    const answers = await Promise.all([
      action(w, c.id, "toggle_status", { status: "resolved" }),
      action(w, c.id, "labels", { labels: ["billing", "vip"] }),
      action(w, c.id, "update_last_seen", {}),
      action(w, c.id, "labels", { labels: ["billing", "vip"] }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers[1]!.body.payload).toEqual(["billing", "vip"]);
    expect(answers[3]!.body.payload).toEqual(["billing", "vip"]);
    const row = w.h.deps.repos.conversations.byId(c.id)!;
    expect(row.status).toBe("resolved");
    expect(row.agent_last_seen_at).not.toBeNull();
    const contents = messages(w, c.id).map(([, content]) => content);
    expect(contents.filter((m) => m.startsWith("Admin added"))).toEqual(["Admin added billing, vip"]);
    const read = w.h.deps.db
      .prepare("SELECT status FROM messages WHERE conversation_id = ? AND message_type = 0")
      .all(c.id);
    expect(read).toEqual([{ status: "read" }]);
  });

  test("attribute writes sent together each merge into what the one before left", async () => {
    const w = await world();
    const c = await newConversation(w);
    const patch = (body: Record<string, unknown>) =>
      w.h.request("PATCH", `${w.base}/conversations/${c.id}`, { token: w.a.adminToken, body });
    const answers = await Promise.all([
      patch({ custom_attributes: { plan: "pro" } }),
      patch({ custom_attributes: { seats: 5 }, priority: "high" }),
      action(w, c.id, "toggle_status", { status: "resolved" }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const row = w.h.deps.repos.conversations.byId(c.id)!;
    expect([row.status, row.priority, JSON.parse(row.custom_attributes)]).toEqual([
      "resolved",
      "high",
      { plan: "pro", seats: 5 },
    ]);
  });
});

describe("message deletes, awaited", () => {
  test("two deletes of one message sent together: both answer the deleted message, one message_updated", async () => {
    const w = await world();
    const c = await newConversation(w);
    const sent = await send(w, c.id, { content: "Oops, wrong customer" });
    const del = () =>
      w.h.request("DELETE", `${w.base}/conversations/${c.id}/messages/${sent.body.id}`, { token: w.a.adminToken });
    const answers = await Promise.all([del(), del()]);
    expect(answers.map((r) => [r.status, r.body.content])).toEqual([
      [200, "This message was deleted"],
      [200, "This message was deleted"],
    ]);
    const updates = w.h.events().filter((e) => e.kind === "message_updated" && e.payload.id === sent.body.id);
    expect(updates).toHaveLength(1);
  });
});

describe("conversation create, awaited", () => {
  test("creates sent together take display ids one after another; a locked inbox makes one", async () => {
    const w = await world();
    const created = await Promise.all([1, 2, 3].map(() => newConversation(w)));
    const first = Math.min(...created.map((c) => c.id as number));
    expect(created.map((c) => c.id as number).sort()).toEqual([first, first + 1, first + 2]);
    const locked = makeInbox(w.h, w.a.accountId, { lock: true });
    const same = await Promise.all([1, 2].map(() => newConversation(w, { inbox_id: locked, source_id: "same" })));
    expect(same[1].id).toBe(same[0].id);
    const count = w.h.deps.db.prepare("SELECT count(*) AS n FROM conversations WHERE inbox_id = ?").get(locked);
    expect(count).toEqual({ n: 1 });
  });
});

describe("the website chat's message create, awaited", () => {
  test("a visitor's first two messages sent together open one conversation", async () => {
    const w = await widgetWorld();
    const visitor = new Visitor(w);
    await visitor.start();
    const sent = await Promise.all(
      ["Hello?", "Anyone there?"].map((content) => visitor.call("POST", "/messages", { message: { content } })),
    );
    expect(sent.map((r) => [r.status, r.body.message_type])).toEqual([
      [200, 0],
      [200, 0],
    ]);
    expect(sent[1]!.body.conversation_id).toBe(sent[0]!.body.conversation_id);
    const rows = w.h.deps.db.prepare("SELECT id FROM conversations WHERE inbox_id = ?").all(w.inbox.id) as {
      id: number;
    }[];
    expect(rows).toHaveLength(1);
    expect(
      messages(w, rows[0]!.id)
        .map(([, content]) => content)
        .sort(),
    ).toEqual(["Anyone there?", "Hello?"]);
  });
});

const onPostgres = describe.skipIf(TEST_ENGINE !== "postgres");

onPostgres("PostgreSQL: conversation writes wait on nothing in place", () => {
  test("a create with an assignee, a team and a first message", async () => {
    // No listeners after commits, and no webhook: their own statements are not the requests'.
    const w = await world({ deps: { wakeListeners: false } });
    const team = await makeTeam(w.h, w.a, "Sales");
    await addTeamMember(w.h, w.a, team.id, w.agent.userId);
    let created: { status: number; body: { id: number } } | null = null;
    const blocking = await blockingDuring(async () => {
      created = await w.h.request("POST", `${w.base}/conversations`, {
        token: w.a.adminToken,
        body: {
          inbox_id: w.inboxId,
          contact_id: w.contactId,
          assignee_id: w.agent.userId,
          team_id: team.id,
          message: { content: "Your order has shipped" },
        },
      });
    });
    expect(blocking).toEqual([]);
    expect(created!.status).toBe(200);
    const row = w.h.deps.repos.conversations.byDisplayId(w.a.accountId, created!.body.id)!;
    expect([row.status, row.assignee_id, row.team_id]).toEqual(["open", w.agent.userId, team.id]);
    expect(messages(w, row.id)).toEqual([
      ["text", "Assigned to Ann Agent via sales by Admin"],
      ["text", "Your order has shipped"],
    ]);
  });

  test("the website chat: a visitor's first message opens the conversation, the next one joins it", async () => {
    const w = await widgetWorld({}, {}, { deps: { wakeListeners: false } });
    const visitor = new Visitor(w);
    await visitor.start();
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      for (const content of ["Hello?", "It is about my order"]) {
        const r = await visitor.call("POST", "/messages", { message: { content } });
        answers.push([r.status, r.body.content, r.body.sender?.type]);
      }
    });
    expect(blocking).toEqual([]);
    expect(answers).toEqual([
      [200, "Hello?", "contact"],
      [200, "It is about my order", "contact"],
    ]);
  });

  test("labels and the agent's and the contact's read marks", async () => {
    const w = await publicWorld({}, { deps: { wakeListeners: false } });
    const contact = await newContact(w, { name: "Carla" });
    const conversation = await openConversation(w, contact);
    await say(w, contact, conversation.id, "help");
    await agentSays(w, conversation.id, { content: "On it" });
    const path = `${w.api}/conversations/${conversation.id}`;
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const labels = await w.h.request("POST", `${path}/labels`, { token: w.a.adminToken, body: { labels: ["vip"] } });
      answers.push([labels.status, labels.body.payload]);
      const seen = await w.h.request("POST", `${path}/update_last_seen`, { token: w.a.adminToken, body: {} });
      answers.push([seen.status, seen.body.labels]);
      const read = await w.h.request(
        "POST",
        `${messagesPath(w, contact, conversation.id).replace(/\/messages$/, "")}/update_last_seen`,
      );
      answers.push([read.status]);
    });
    expect(blocking).toEqual([]);
    expect(answers).toEqual([[200, ["vip"]], [200, ["vip"]], [200]]);
    const more: unknown[] = [];
    const moreBlocking = await blockingDuring(async () => {
      const custom = await w.h.request("POST", `${path}/custom_attributes`, {
        token: w.a.adminToken,
        body: { custom_attributes: { order: "A-1" } },
      });
      more.push([custom.status, custom.body.custom_attributes]);
      const patched = await w.h.request("PATCH", path, {
        token: w.a.adminToken,
        body: { priority: "low", additional_attributes: { source: "web" } },
      });
      more.push([patched.status, patched.body.priority, patched.body.custom_attributes]);
      const unread = await w.h.request("POST", `${path}/unread`, { token: w.a.adminToken, body: {} });
      more.push([unread.status, unread.body.unread_count]);
    });
    expect(moreBlocking).toEqual([]);
    expect(more).toEqual([
      [200, { order: "A-1" }],
      [200, "low", { order: "A-1" }],
      [200, 1],
    ]);
    const statuses = w.h.deps.db
      .prepare("SELECT message_type, status FROM messages WHERE content IN ('help', 'On it') ORDER BY id")
      .all();
    expect(statuses).toEqual([
      { message_type: 0, status: "read" },
      { message_type: 1, status: "read" },
    ]);
  });

  test("an API channel's delivery receipts: delivered, read, and a late delivered that changes nothing", async () => {
    const w = await world({ deps: { wakeListeners: false } });
    const c = await newConversation(w);
    const sent = await send(w, c.id, { content: "Your order has shipped" });
    const path = `${w.base}/conversations/${c.id}/messages/${sent.body.id}`;
    const statuses: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      for (const status of ["delivered", "read", "delivered"]) {
        const r = await w.h.request("PATCH", path, { token: w.a.adminToken, body: { status } });
        statuses.push([r.status, r.body.status]);
      }
    });
    expect(blocking).toEqual([]);
    expect(statuses).toEqual([
      [200, "delivered"],
      [200, "read"],
      [200, "read"],
    ]);
  });

  test("a message with a file, then deleted: the record stays, the file and its row go", async () => {
    const w = await world({ deps: { wakeListeners: false } });
    const c = await newConversation(w);
    const path = `${w.base}/conversations/${c.id}/messages`;
    const png = { name: "attachments[]", value: { bytes: pngFile(4, 4, 1), filename: "a.png" } };
    const answers: unknown[] = [];
    let id = 0;
    const blocking = await blockingDuring(async () => {
      const sent = await postMultipart(w.h, path, [{ name: "content", value: "the photo" }, png], w.a.adminToken);
      id = sent.body.id;
      answers.push([sent.status, sent.body.attachments.map((f: { file_type: string }) => f.file_type)]);
      const r = await w.h.request("DELETE", `${path}/${id}`, { token: w.a.adminToken });
      answers.push([r.status, r.body.content, r.body.content_attributes, r.body.attachments]);
      const missing = await w.h.request("DELETE", `${path}/999999`, { token: w.a.adminToken });
      answers.push(missing.status);
    });
    // After the delete's commit, whether another message still uses the file is asked in place,
    // where a row of the open write group counts too (attachments.service.ts inUse).
    expect(blocking).toEqual(["SELECT 1 FROM attachments WHERE storage_key = $1 LIMIT 1"]);
    expect(answers).toEqual([[200, ["image"]], [200, "This message was deleted", { deleted: true }, undefined], 404]);
    const rows = w.h.deps.db.prepare("SELECT COUNT(*) AS n FROM attachments WHERE message_id = ?").get(id);
    expect(rows).toEqual({ n: 0 });
  });

  test("a resolution with its survey, a priority, an assignee, a team", async () => {
    const w = await world({ deps: { wakeListeners: false } });
    const team = await makeTeam(w.h, w.a, "Sales");
    await addTeamMember(w.h, w.a, team.id, w.agent.userId);
    await w.h.request("PATCH", `${w.base}/inboxes/${w.inboxId}`, {
      token: w.a.adminToken,
      body: { csat_survey_enabled: true },
    });
    const c = await newConversation(w);
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const resolved = await action(w, c.id, "toggle_status", { status: "resolved" });
      answers.push([resolved.status, resolved.body.payload.current_status]);
      const priority = await action(w, c.id, "toggle_priority", { priority: "high" });
      answers.push([priority.status]);
      const assignee = await action(w, c.id, "assignments", { assignee_id: w.agent.userId });
      answers.push([assignee.status, assignee.body.name]);
      const moved = await action(w, c.id, "assignments", { team_id: team.id });
      answers.push([moved.status, moved.body.name, moved.body.is_member]);
      const muted = await action(w, c.id, "mute", {});
      const unmuted = await action(w, c.id, "unmute", {});
      answers.push([muted.status, unmuted.status]);
    });
    expect(blocking).toEqual([]);
    expect(answers).toEqual([[200, "resolved"], [200], [200, "Ann Agent"], [200, "sales", false], [200, 200]]);
    const row = w.h.deps.repos.conversations.byId(c.id)!;
    expect([row.status, row.priority, row.assignee_id, row.team_id]).toEqual([
      "resolved",
      "high",
      w.agent.userId,
      team.id,
    ]);
    expect(messages(w, c.id).map(([type]) => type)).toEqual([
      "text",
      "input_csat",
      "text",
      "text",
      "text",
      "text",
      "text",
    ]);
    expect(messages(w, c.id).slice(-2)).toEqual([
      ["text", "Admin has muted the conversation"],
      ["text", "Admin has unmuted the conversation"],
    ]);
  });
});
