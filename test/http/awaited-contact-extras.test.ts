// An agent's everyday writes beside messages, as awaited bodies (writeTx.steps): a contact's notes,
// labels, identities in inboxes, merges and deletion, and a conversation's participants. What they
// change is checked on both engines; on PostgreSQL none of them sends a statement through the
// synchronous bridge in place. Refusals answer as before and change nothing.
import { describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { newConversation, type World, world } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";

function api(w: World, token = w.a.adminToken) {
  return (method: string, path: string, body?: Record<string, unknown>) =>
    w.h.request(method, `${w.base}${path}`, { token, body });
}

async function newContact(w: World, body: Record<string, unknown>): Promise<number> {
  const r = await api(w)("POST", "/contacts", body);
  expect(r.status).toBe(200);
  return r.body.payload.contact.id;
}

describe("a contact's notes, labels, identities, merge and deletion", () => {
  test("each write answers what it changed; refusals change nothing", async () => {
    const w = await world();
    const call = api(w, w.agent.token);
    const other = await makeAccount(w.h, "Globex");
    const theirInbox = (
      await w.h.request("POST", `/api/v1/accounts/${other.accountId}/inboxes`, {
        token: other.adminToken,
        body: { name: "Theirs", channel: { type: "api" } },
      })
    ).body.id as number;
    const c = w.contactId;
    const answers: unknown[] = [];
    let noteId = 0;
    const blocking = await inPlaceDuring(async () => {
      const note = await call("POST", `/contacts/${c}/notes`, { content: "  Prefers email  " });
      noteId = note.body.id;
      answers.push([note.status, note.body.content, note.body.user?.name]);
      answers.push((await call("POST", `/contacts/${c}/notes`, { content: " " })).body.errors);
      const edited = await call("PATCH", `/contacts/${c}/notes/${noteId}`, { content: "Prefers phone" });
      answers.push([edited.status, edited.body.id, edited.body.content]);
      answers.push((await call("PATCH", `/contacts/${c}/notes/${noteId + 99}`, { content: "x" })).status);
      answers.push((await call("DELETE", `/contacts/${c}/notes/${noteId}`)).status);
      answers.push((await call("DELETE", `/contacts/${c}/notes/${noteId}`)).status);
      const labels = await call("POST", `/contacts/${c}/labels`, { labels: ["vip", "billing"] });
      answers.push([labels.status, [...labels.body.payload].sort()]);
      answers.push((await call("POST", `/contacts/${c + 999}/labels`, { labels: ["vip"] })).status);
      const identity = await call("POST", `/contacts/${c}/contact_inboxes`, {
        inbox_id: w.inboxId,
        source_id: "crm-7",
      });
      answers.push([identity.status, identity.body.source_id, identity.body.inbox.id]);
      answers.push((await call("POST", `/contacts/${c}/contact_inboxes`, { inbox_id: theirInbox })).status);
      answers.push((await call("POST", `/contacts/${c}/contact_inboxes`, {})).body.errors);
    });
    expect(answers).toEqual([
      [200, "Prefers email", "Ann Agent"],
      [{ field: "content", message: "can't be blank", code: "required" }],
      [200, noteId, "Prefers phone"],
      404,
      200,
      404,
      [200, ["billing", "vip"]],
      404,
      [200, "crm-7", w.inboxId],
      404,
      [{ field: "inbox_id", message: "can't be blank", code: "required" }],
    ]);
    expect(blocking).toEqual([]);
    const notes = await call("GET", `/contacts/${c}/notes`);
    expect(notes.body).toEqual([]);
    const taken = await newContact(w, { name: "Someone else" });
    const clash = await call("POST", `/contacts/${taken}/contact_inboxes`, { inbox_id: w.inboxId, source_id: "crm-7" });
    expect([clash.status, clash.body.errors]).toEqual([
      422,
      [{ field: "source_id", message: "should be unique", code: "taken" }],
    ]);
  });

  test("a merge moves the mergee's conversations and notes, then a delete takes the contact", async () => {
    const w = await world();
    const call = api(w);
    const base = await newContact(w, { name: "Pat", email: "pat@example.com" });
    const mergee = await newContact(w, { name: "", phone_number: "+15550101", custom_attributes: { plan: "pro" } });
    const conversation = await w.h.request("POST", `${w.base}/conversations`, {
      token: w.a.adminToken,
      body: { inbox_id: w.inboxId, contact_id: mergee },
    });
    expect(conversation.status).toBe(200);
    expect((await call("POST", `/contacts/${mergee}/notes`, { content: "Called twice" })).status).toBe(200);
    const answers: unknown[] = [];
    const blocking = await inPlaceDuring(async () => {
      const same = await call("POST", "/actions/contact_merge", { base_contact_id: base, mergee_contact_id: base });
      answers.push([same.status, same.body.errors[0].field]);
      const merged = await call("POST", "/actions/contact_merge", { base_contact_id: base, mergee_contact_id: mergee });
      answers.push([merged.status, merged.body.name, merged.body.phone_number, merged.body.custom_attributes]);
      answers.push(
        (await call("POST", "/actions/contact_merge", { base_contact_id: base, mergee_contact_id: mergee })).status,
      );
    });
    expect(answers).toEqual([[422, "mergee_contact_id"], [200, "Pat", "+15550101", { plan: "pro" }], 404]);
    expect(blocking).toEqual([]);
    const moved = await call("GET", `/conversations/${conversation.body.id}`);
    expect(moved.body.meta.sender.id).toBe(base);
    const notes = await call("GET", `/contacts/${base}/notes`);
    expect(notes.body.map((n: { content: string }) => n.content)).toEqual(["Called twice"]);
    const deleted: number[] = [];
    const deleting = await inPlaceDuring(async () => {
      deleted.push((await call("DELETE", `/contacts/${base}`)).status);
      deleted.push((await call("DELETE", `/contacts/${base}`)).status);
    });
    expect([deleted, deleting]).toEqual([[200, 404], []]);
    expect((await call("GET", `/conversations/${conversation.body.id}`)).status).toBe(404);
    expect((await call("GET", `/contacts/${mergee}`)).status).toBe(404);
  });
});

describe("a conversation's participants", () => {
  test("added, replaced and removed; someone who may not see the inbox is a 422", async () => {
    const w = await world();
    const c = await newConversation(w);
    const call = api(w);
    const path = `/conversations/${c.id}/participants`;
    const names = (r: { body: { name: string }[] }) => r.body.map((x) => x.name).sort();
    const answers: unknown[] = [];
    const blocking = await inPlaceDuring(async () => {
      answers.push(names(await call("POST", path, { user_ids: [w.agent.userId] })));
      const refused = await call("POST", path, { user_ids: [w.outsider.userId] });
      answers.push([refused.status, refused.body.errors[0].message]);
      answers.push(names(await call("PATCH", path, { user_ids: [w.a.adminId] })));
      answers.push((await call("DELETE", path, { user_ids: [w.a.adminId] })).status);
      answers.push((await call("POST", `/conversations/${c.id + 999}/participants`, { user_ids: [] })).status);
    });
    expect(answers).toEqual([
      ["Ann Agent"],
      [422, "Otto Outsider must have access to the conversation's inbox"],
      ["Admin"],
      200,
      404,
    ]);
    expect(blocking).toEqual([]);
    expect((await call("GET", path)).body).toEqual([]);
  });
});
