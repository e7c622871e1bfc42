// The hot routes answer pre-serialised JSON (src/http/json.ts), skipping Elysia's response
// cleaning; this keeps their contract honest: every answer matches its declared schema exactly
// (valid, and nothing that cleaning would strip).
import { describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { t } from "elysia";
import { Contact, ContactPage, Conversation, Counts, Message } from "../../src/http/conversation-schemas.ts";
import { MessageListMeta } from "../../src/http/messages.routes.ts";
import { addTeamMember, makeTeam } from "../helpers/directory-fixtures.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";

function exactly(schema: TSchema, body: unknown) {
  const errors = [...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`);
  expect(errors).toEqual([]);
  expect(Value.Clean(schema, structuredClone(body))).toEqual(body);
}

describe("pre-serialised answers match their schemas", () => {
  test("conversation, message, list, search, contact", async () => {
    const w = await world();
    const team = makeTeam(w.h, w.a.accountId, "ops");
    addTeamMember(w.h, team, w.agent.userId);
    const c = await newConversation(w, {
      assignee_id: w.agent.userId,
      team_id: team,
      message: { content: "hi", echo_id: "e1" },
    });
    exactly(Conversation, c);
    await w.h.request("POST", `${w.base}/conversations/${c.id}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "snoozed", snoozed_until: "2026-02-01T00:00:00Z" },
    });
    const m = await send(w, c.id, { content: "in", message_type: "incoming" });
    exactly(Message, m.body);
    const shown = await w.h.request("GET", `${w.base}/conversations/${c.id}`, { token: w.agent.token });
    exactly(Conversation, shown.body);
    const list = await w.h.request("GET", `${w.base}/conversations?status=all`, { token: w.a.adminToken });
    exactly(t.Object({ data: t.Object({ meta: Counts, payload: t.Array(Conversation) }) }), list.body);
    const page = await w.h.request("GET", `${w.base}/conversations/${c.id}/messages`, { token: w.a.adminToken });
    exactly(t.Object({ meta: MessageListMeta, payload: t.Array(Message) }), page.body);
    const search = await w.h.request("GET", `${w.base}/contacts/search?q=carla`, { token: w.a.adminToken });
    exactly(ContactPage, search.body);
    const contact = await w.h.request("GET", `${w.base}/contacts/${w.contactId}`, { token: w.a.adminToken });
    exactly(t.Object({ payload: Contact }), contact.body);
  });
});
