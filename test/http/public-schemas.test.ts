// The public routes that answer pre-serialised JSON (src/http/json.ts) must match their declared
// schemas exactly: valid, and nothing that Elysia's response cleaning would have stripped.
import { describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { t } from "elysia";
import { CsatResponse } from "../../src/http/csat.routes.ts";
import { PublicContact, PublicConversation, PublicInbox, PublicMessage } from "../../src/http/public-schemas.ts";
import {
  agentResolves,
  agentSays,
  contactPath,
  messagesPath,
  newContact,
  openConversation,
  publicWorld,
  say,
} from "../helpers/public-fixtures.ts";

function exactly(schema: TSchema, body: unknown) {
  expect([...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  expect(Value.Clean(schema, structuredClone(body))).toEqual(body);
}

describe("public answers match their schemas", () => {
  test("inbox, contact, conversations, messages, CSAT responses", async () => {
    const w = await publicWorld({ csat_survey_enabled: true });
    exactly(PublicInbox, (await w.h.request("GET", w.base)).body);
    const c = await newContact(w, { name: "Carla", identifier: "c-1", email: "c@example.com" });
    exactly(PublicContact, c);
    const conv = await openConversation(w, c);
    exactly(PublicConversation, conv);
    exactly(PublicMessage, await say(w, c, conv.id, "hello"));
    await agentSays(w, conv.id, { content: "hi", content_attributes: { a: [1] } });
    await agentResolves(w, conv.id);
    exactly(t.Array(PublicConversation), (await w.h.request("GET", `${contactPath(w, c)}/conversations`)).body);
    const list = (await w.h.request("GET", messagesPath(w, c, conv.id))).body;
    exactly(t.Array(PublicMessage), list);
    const answered = await w.h.request("PATCH", `${messagesPath(w, c, conv.id)}/${list.at(-1).id}`, {
      body: { submitted_values: { csat_survey_response: { rating: 3 } } },
    });
    exactly(PublicMessage, answered.body);
    exactly(
      t.Array(CsatResponse),
      (await w.h.request("GET", `${w.api}/csat_survey_responses`, { token: w.a.adminToken })).body,
    );
  });
});
