// Contact notes, contactable_inboxes and actions/contact_merge: shapes, what moves, events,
// bad input and tenant walls.
import { describe, expect, test } from "bun:test";
import { newConversation, send, world, type World } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";

async function contact(w: World, body: Record<string, unknown>): Promise<number> {
  const r = await w.h.request("POST", `${w.base}/contacts`, { token: w.a.adminToken, body });
  expect(r.status).toBe(200);
  return r.body.payload.contact.id;
}

const count = (w: World, sql: string, ...params: number[]) =>
  (w.h.deps.db.query(sql).get(...params) as { n: number }).n;

describe("contact notes", () => {
  test("create, list newest first, show, update, delete — with the writer as user", async () => {
    const w = await world();
    const notes = `${w.base}/contacts/${w.contactId}/notes`;
    const first = await w.h.request("POST", notes, {
      token: w.agent.token,
      body: { content: "Called about the invoice" },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      content: "Called about the invoice",
      account_id: w.a.accountId,
      contact_id: w.contactId,
    });
    expect(first.body.user).toMatchObject({ id: w.agent.userId, name: "Ann Agent", role: "agent" });
    w.h.clock.advance(1000);
    const second = await w.h.request("POST", notes, {
      token: w.a.adminToken,
      body: { note: { content: "Prefers email" } },
    });
    const list = await w.h.request("GET", notes, { token: w.a.adminToken });
    expect(list.body.map((n: any) => n.content)).toEqual(["Prefers email", "Called about the invoice"]);
    const put = await w.h.request("PUT", `${notes}/${first.body.id}`, {
      token: w.a.adminToken,
      body: { content: "Paid" },
    });
    expect(put.status).toBe(200);
    expect(put.body.content).toBe("Paid");
    expect((await w.h.request("GET", `${notes}/${first.body.id}`, { token: w.a.adminToken })).body.content).toBe(
      "Paid",
    );
    expect((await w.h.request("DELETE", `${notes}/${second.body.id}`, { token: w.a.adminToken })).status).toBe(200);
    expect((await w.h.request("GET", notes, { token: w.a.adminToken })).body.map((n: any) => n.id)).toEqual([
      first.body.id,
    ]);
  });

  test("blank content is a 422 and stores nothing; foreign contacts and notes are 404", async () => {
    const w = await world();
    const notes = `${w.base}/contacts/${w.contactId}/notes`;
    const blank = await w.h.request("POST", notes, { token: w.a.adminToken, body: { content: "  " } });
    expect(blank.status).toBe(422);
    expect(blank.body.errors[0].field).toBe("content");
    const missing = await w.h.request("POST", notes, { token: w.a.adminToken, body: {} });
    expect(missing.status).toBe(422);
    expect(count(w, "SELECT COUNT(*) AS n FROM contact_notes")).toBe(0);
    const note = await w.h.request("POST", notes, { token: w.a.adminToken, body: { content: "Mine" } });
    const other = await makeAccount(w.h, "Globex");
    const otherBase = `/api/v1/accounts/${other.accountId}`;
    expect(
      (await w.h.request("GET", `${otherBase}/contacts/${w.contactId}/notes`, { token: other.adminToken })).status,
    ).toBe(404);
    expect(
      (
        await w.h.request("DELETE", `${otherBase}/contacts/${w.contactId}/notes/${note.body.id}`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
    const otherContact = (
      await w.h.request("POST", `${otherBase}/contacts`, { token: other.adminToken, body: { name: "G" } })
    ).body.payload.contact.id;
    expect(
      (
        await w.h.request("GET", `${otherBase}/contacts/${otherContact}/notes/${note.body.id}`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
    expect(count(w, "SELECT COUNT(*) AS n FROM contact_notes")).toBe(1);
  });
});

describe("contactable_inboxes", () => {
  test("API inboxes with the existing or a fresh source_id, email and phone inboxes when the contact has the address; agents see their inboxes only", async () => {
    const w = await world();
    const email = makeInbox(w.h, w.a.accountId, { name: "Mail", channel: "email" });
    const phone = makeInbox(w.h, w.a.accountId, { name: "SMS", channel: "phone" });
    makeInbox(w.h, w.a.accountId, { name: "Site", channel: "web_widget" });
    await newConversation(w, { source_id: "carla-api" });
    const r = await w.h.request("GET", `${w.base}/contacts/${w.contactId}/contactable_inboxes`, {
      token: w.a.adminToken,
    });
    expect(r.status).toBe(200);
    const byInbox = Object.fromEntries(r.body.payload.map((p: any) => [p.inbox.id, p.source_id]));
    expect(byInbox).toEqual({ [w.inboxId]: "carla-api", [email]: "carla@example.com" });
    expect(r.body.payload[0].inbox).toMatchObject({
      name: expect.any(String),
      channel_type: expect.stringMatching(/^Channel::/),
    });
    expect(phone in byInbox).toBe(false);
    const asAgent = await w.h.request("GET", `${w.base}/contacts/${w.contactId}/contactable_inboxes`, {
      token: w.agent.token,
    });
    expect(asAgent.body.payload.map((p: any) => p.inbox.id)).toEqual([w.inboxId]);
    const other = await makeAccount(w.h, "Globex");
    expect(
      (
        await w.h.request("GET", `/api/v1/accounts/${other.accountId}/contacts/${w.contactId}/contactable_inboxes`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
  });
});

describe("actions/contact_merge", () => {
  test("conversations, identities, messages, notes, labels and attributes move; the mergee is deleted; events say so", async () => {
    const w = await world();
    const mergee = await contact(w, {
      name: "Carla (WhatsApp)",
      phone_number: "+5511999990000",
      custom_attributes: { plan: "gold", tier: 1 },
      additional_attributes: { city: "Lisbon" },
    });
    await w.h.request("PATCH", `${w.base}/contacts/${w.contactId}`, {
      token: w.a.adminToken,
      body: { custom_attributes: { tier: 2 } },
    });
    const conv = (
      await w.h.request("POST", `${w.base}/conversations`, {
        token: w.a.adminToken,
        body: { inbox_id: w.inboxId, contact_id: mergee, source_id: "wa-1" },
      })
    ).body;
    await send(w, conv.id, { content: "hello from whatsapp", message_type: "incoming" });
    await w.h.request("POST", `${w.base}/contacts/${mergee}/notes`, {
      token: w.a.adminToken,
      body: { content: "VIP" },
    });
    await w.h.request("POST", `${w.base}/contacts/${mergee}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["whatsapp", "vip"] },
    });
    await w.h.request("POST", `${w.base}/contacts/${w.contactId}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["vip"] },
    });
    const before = w.h.lastEventId();

    const r = await w.h.request("POST", `${w.base}/actions/contact_merge`, {
      token: w.a.adminToken,
      body: { base_contact_id: w.contactId, mergee_contact_id: mergee },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: w.contactId,
      name: "Carla Customer",
      email: "carla@example.com",
      phone_number: "+5511999990000",
      custom_attributes: { plan: "gold", tier: 2 },
      additional_attributes: { city: "Lisbon" },
    });
    expect((await w.h.request("GET", `${w.base}/contacts/${mergee}`, { token: w.a.adminToken })).status).toBe(404);
    const convs = await w.h.request("GET", `${w.base}/contacts/${w.contactId}/conversations`, {
      token: w.a.adminToken,
    });
    expect(convs.body.payload.map((c: any) => c.id)).toEqual([conv.id]);
    expect(convs.body.payload[0].meta.sender.id).toBe(w.contactId);
    const messages = await w.h.request("GET", `${w.base}/conversations/${conv.id}/messages`, { token: w.a.adminToken });
    const incoming = messages.body.payload.find((m: any) => m.content === "hello from whatsapp");
    expect(incoming.sender).toMatchObject({ id: w.contactId, type: "contact" });
    const show = await w.h.request("GET", `${w.base}/contacts/${w.contactId}`, { token: w.a.adminToken });
    expect(show.body.payload.contact_inboxes.map((ci: any) => ci.source_id)).toEqual(["wa-1"]);
    expect(
      (await w.h.request("GET", `${w.base}/contacts/${w.contactId}/notes`, { token: w.a.adminToken })).body.map(
        (n: any) => n.content,
      ),
    ).toEqual(["VIP"]);
    expect(
      (
        await w.h.request("GET", `${w.base}/contacts/${w.contactId}/labels`, { token: w.a.adminToken })
      ).body.payload.sort(),
    ).toEqual(["vip", "whatsapp"]);

    const events = w.h.events(before);
    expect(events.map((e) => e.kind)).toEqual(["contact_deleted", "contact_merged", "contact_updated"]);
    expect(events[0]!.contactId).toBe(mergee);
    expect(events[1]!.payload).toMatchObject({ id: w.contactId, mergee_contact_id: mergee });
    const changed = (events[2]!.payload.changed_attributes as Record<string, unknown>[]).map((c) => Object.keys(c)[0]);
    expect(changed).toContain("phone_number");
    expect(changed).toContain("custom_attributes");
  });

  test("merging a contact into itself is a 422; missing ids 422; another account's contact 404; nothing changes", async () => {
    const w = await world();
    const url = `${w.base}/actions/contact_merge`;
    const self = await w.h.request("POST", url, {
      token: w.a.adminToken,
      body: { base_contact_id: w.contactId, mergee_contact_id: w.contactId },
    });
    expect(self.status).toBe(422);
    expect(self.body.errors[0].field).toBe("mergee_contact_id");
    const missing = await w.h.request("POST", url, { token: w.a.adminToken, body: { base_contact_id: w.contactId } });
    expect(missing.status).toBe(422);
    const other = await makeAccount(w.h, "Globex");
    const foreign = (
      await w.h.request("POST", `/api/v1/accounts/${other.accountId}/contacts`, {
        token: other.adminToken,
        body: { name: "G", email: "g@globex.test" },
      })
    ).body.payload.contact.id;
    const cross = await w.h.request("POST", url, {
      token: w.a.adminToken,
      body: { base_contact_id: w.contactId, mergee_contact_id: foreign },
    });
    expect(cross.status).toBe(404);
    expect(cross.body.errors[0].field).toBe("mergee_contact_id");
    const crossBase = await w.h.request("POST", url, {
      token: w.a.adminToken,
      body: { base_contact_id: foreign, mergee_contact_id: w.contactId },
    });
    expect(crossBase.status).toBe(404);
    expect(count(w, "SELECT COUNT(*) AS n FROM contacts")).toBe(2);
    expect(
      (await w.h.request("GET", `/api/v1/accounts/${other.accountId}/contacts/${foreign}`, { token: other.adminToken }))
        .body.payload.email,
    ).toBe("g@globex.test");
  });
});
