// DELETE and PATCH /conversations/:id/messages/:message_id: soft delete and delivery status.
import { describe, expect, test } from "bun:test";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";

describe("DELETE messages/:id", () => {
  test("replaces the content, marks it deleted, records message_updated; a second delete changes nothing", async () => {
    const w = await world();
    const c = await newConversation(w);
    const m = (await send(w, c.id, { content: "oops", content_type: "input_text", content_attributes: { x: 1 } })).body;
    w.h.clock.advance(5000);
    const before = w.h.lastEventId();
    const r = await w.h.request("DELETE", `${w.base}/conversations/${c.id}/messages/${m.id}`, {
      token: w.a.adminToken,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: m.id,
      content: "This message was deleted",
      content_type: "text",
      content_attributes: { deleted: true },
      updated_at: 1767603605,
    });
    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual(["message_updated"]);
    expect(events[0]!.payload).toMatchObject({
      id: m.id,
      content: "This message was deleted",
      content_attributes: { deleted: true },
      message_type: "outgoing",
    });
    const again = w.h.lastEventId();
    await w.h.request("DELETE", `${w.base}/conversations/${c.id}/messages/${m.id}`, { token: w.a.adminToken });
    expect(w.h.events(again)).toEqual([]);
  });

  test("unknown message, a message of another conversation, another account: 404; outsider agent 403", async () => {
    const w = await world();
    const c1 = await newConversation(w);
    const c2 = await newConversation(w);
    const m = (await send(w, c1.id, { content: "x" })).body;
    expect(
      (await w.h.request("DELETE", `${w.base}/conversations/${c2.id}/messages/${m.id}`, { token: w.a.adminToken }))
        .status,
    ).toBe(404);
    expect(
      (await w.h.request("DELETE", `${w.base}/conversations/${c1.id}/messages/999`, { token: w.a.adminToken })).status,
    ).toBe(404);
    expect(
      (await w.h.request("DELETE", `${w.base}/conversations/${c1.id}/messages/${m.id}`, { token: w.outsider.token }))
        .status,
    ).toBe(403);
    const other = await makeAccount(w.h, "Other");
    expect(
      (
        await w.h.request("DELETE", `/api/v1/accounts/${other.accountId}/conversations/${c1.id}/messages/${m.id}`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
    expect(w.h.deps.db.query("SELECT content FROM messages WHERE id = ?").get(m.id)).toEqual({ content: "x" });
  });
});

describe("PATCH messages/:id (delivery status)", () => {
  test("sets delivered, read, failed with external_error; read never goes back to delivered; message_updated each time", async () => {
    const w = await world();
    const c = await newConversation(w);
    const m = (await send(w, c.id, { content: "x" })).body;
    const patch = (body: unknown) =>
      w.h.request("PATCH", `${w.base}/conversations/${c.id}/messages/${m.id}`, { token: w.a.adminToken, body });
    const before = w.h.lastEventId();
    expect((await patch({ status: "delivered" })).body.status).toBe("delivered");
    expect((await patch({ status: "read" })).body.status).toBe("read");
    expect((await patch({ status: "delivered" })).body.status).toBe("read");
    const failed = await patch({ status: "failed", external_error: "Recipient blocked" });
    expect(failed.body).toMatchObject({
      status: "failed",
      content_attributes: { external_error: "Recipient blocked" },
    });
    expect((await patch({ status: "sent" })).body.content_attributes).toEqual({});
    expect(w.h.events(before).map((e) => e.kind)).toEqual([
      "message_updated",
      "message_updated",
      "message_updated",
      "message_updated",
    ]);
    const bad = await patch({ status: "lost" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { field: "status", message: "must be one of: sent, delivered, read, failed", code: "invalid" },
    ]);
  });

  test("only API inboxes: 403 elsewhere", async () => {
    const w = await world();
    const web = makeInbox(w.h, w.a.accountId, { channel: "web_widget" });
    const c = await newConversation(w, { inbox_id: web });
    const m = (await send(w, c.id, { content: "x" })).body;
    const r = await w.h.request("PATCH", `${w.base}/conversations/${c.id}/messages/${m.id}`, {
      token: w.a.adminToken,
      body: { status: "read" },
    });
    expect(r.status).toBe(403);
    expect(r.body.description).toBe("Message status update is only allowed for API inboxes");
  });
});
