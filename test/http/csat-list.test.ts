// GET /api/v1/accounts/:account_id/csat_survey_responses: Chatwoot-like records; administrators see
// all, agents their inboxes'; since/until and pages.
import { describe, expect, test } from "bun:test";
import { addInboxMember, makeAccount, makeInbox, makeMember } from "../helpers/factories.ts";
import {
  agentResolves,
  messagesPath,
  newContact,
  NOW,
  openConversation,
  publicWorld,
  type PublicWorld,
} from "../helpers/public-fixtures.ts";

/** A resolved conversation in `base`'s inbox whose contact answered the survey with `rating`. */
async function answered(w: PublicWorld, rating: number, base = w.base, name = "Carla") {
  const c = await newContact(w, { name }, base);
  const r = await w.h.request("POST", `${base}/contacts/${c.source_id}/conversations`, { body: {} });
  const conv = r.body;
  await agentResolves(w, conv.id);
  const msgs = await w.h.request("GET", `${base}/contacts/${c.source_id}/conversations/${conv.id}/messages`);
  const survey = msgs.body.at(-1);
  const a = await w.h.request(
    "PATCH",
    `${base}/contacts/${c.source_id}/conversations/${conv.id}/messages/${survey.id}`,
    {
      body: { submitted_values: { csat_survey_response: { rating, feedback_message: `rated ${rating}` } } },
    },
  );
  expect(a.status).toBe(200);
  return { c, conv, survey };
}

describe("GET csat_survey_responses", () => {
  test("the record: contact and assigned agent in their account API shapes, the conversation's display id", async () => {
    const w = await publicWorld({ csat_survey_enabled: true });
    const c = await newContact(w, { name: "Carla", email: "carla@example.com" });
    const conv = await openConversation(w, c);
    await w.h.request("POST", `${w.api}/conversations/${conv.id}/assignments`, {
      token: w.a.adminToken,
      body: { assignee_id: w.agent.userId },
    });
    await agentResolves(w, conv.id);
    const survey = (await w.h.request("GET", messagesPath(w, c, conv.id))).body.at(-1);
    await w.h.request("PATCH", `${messagesPath(w, c, conv.id)}/${survey.id}`, {
      body: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: "Great" } } },
    });
    const r = await w.h.request("GET", `${w.api}/csat_survey_responses`, { token: w.a.adminToken });
    expect(r.status).toBe(200);
    const contact = (await w.h.request("GET", `${w.api}/contacts/${c.id}`, { token: w.a.adminToken })).body.payload;
    const { contact_inboxes: _, ...contactRecord } = contact;
    const agent = (await w.h.request("GET", `${w.api}/agents`, { token: w.a.adminToken })).body.find(
      (x: any) => x.id === w.agent.userId,
    );
    expect(r.body).toEqual([
      {
        id: 1,
        rating: 5,
        feedback_message: "Great",
        account_id: w.a.accountId,
        message_id: survey.id,
        contact: contactRecord,
        conversation_id: conv.id,
        assigned_agent: agent,
        created_at: NOW,
      },
    ]);
  });

  test("administrators see every inbox's answers, agents only their inboxes'; other accounts' tokens are 401", async () => {
    const w = await publicWorld({ csat_survey_enabled: true });
    const hidden = await makeInbox(w.h, w.a, { name: "VIP", csat_survey_enabled: true });
    const hiddenBase = `/public/api/v1/inboxes/${hidden.identifier}`;
    await answered(w, 4);
    await answered(w, 1, hiddenBase, "Vince");
    const list = async (token: string) =>
      (await w.h.request("GET", `${w.api}/csat_survey_responses`, { token })).body.map((x: any) => [
        x.rating,
        x.contact.name,
      ]);
    expect(await list(w.a.adminToken)).toEqual([
      [1, "Vince"],
      [4, "Carla"],
    ]);
    expect(await list(w.agent.token)).toEqual([[4, "Carla"]]);
    const outsider = await makeMember(w.h, w.a.accountId, "agent", "Otto");
    expect(await list(outsider.token)).toEqual([]);
    await addInboxMember(w.h, w.a, hidden.id, outsider.userId);
    expect(await list(outsider.token)).toEqual([[1, "Vince"]]);
    const other = await makeAccount(w.h, "Other");
    expect((await w.h.request("GET", `${w.api}/csat_survey_responses`, { token: other.adminToken })).status).toBe(401);
    expect((await w.h.request("GET", `${w.api}/csat_survey_responses`)).status).toBe(401);
    expect(
      (
        await w.h.request("GET", `/api/v1/accounts/${other.accountId}/csat_survey_responses`, {
          token: other.adminToken,
        })
      ).body,
    ).toEqual([]);
  });

  test("since (inclusive) and until (exclusive) in Unix seconds; 25 a page, newest first; bad bounds are 422", async () => {
    const w = await publicWorld(
      { csat_survey_enabled: true },
      {
        config: {
          publicLimits: { requestsPerMinute: 0, messagesPerMinute: 0, conversationsPerHour: 0, contactsPerHour: 0 },
        },
      },
    );
    await answered(w, 1);
    w.h.clock.advance(100_000);
    await answered(w, 2);
    w.h.clock.advance(100_000);
    await answered(w, 3);
    const get = async (q: string) =>
      (await w.h.request("GET", `${w.api}/csat_survey_responses?${q}`, { token: w.a.adminToken })).body.map(
        (x: any) => x.rating,
      );
    expect(await get("")).toEqual([3, 2, 1]);
    expect(await get(`since=${NOW + 100}`)).toEqual([3, 2]);
    expect(await get(`since=${NOW + 100}&until=${NOW + 200}`)).toEqual([2]);
    expect(await get(`until=${NOW + 100}`)).toEqual([1]);
    for (let i = 0; i < 24; i++) await answered(w, 5);
    expect((await get("")).length).toBe(25);
    expect(await get("page=2")).toEqual([2, 1]);
    const bad = await w.h.request("GET", `${w.api}/csat_survey_responses?since=yesterday`, { token: w.a.adminToken });
    expect([bad.status, bad.body.errors]).toEqual([
      422,
      [{ field: "since", message: "must be a Unix timestamp in seconds", code: "invalid" }],
    ]);
  }, 30_000);
});
