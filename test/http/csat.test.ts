// CSAT: the survey sent once per conversation when it is resolved (by an agent, the contact or
// automation), its configuration, and the contact's answer (rating 1–5, locked after 14 days).
import { describe, expect, test } from "bun:test";
import { actingAsAutomation } from "../../src/domain/acting.ts";
import {
  agentResolves,
  agentSays,
  contactPath,
  messagesPath,
  newContact,
  NOW,
  openConversation,
  publicWorld,
  say,
  type PublicWorld,
} from "../helpers/public-fixtures.ts";

const surveys = (w: PublicWorld) =>
  w.h.deps.db
    .query(
      "SELECT id, message_type, content, content_attributes, sender_type FROM messages WHERE content_type = 'input_csat'",
    )
    .all() as any[];

async function resolvedWithSurvey(inbox: Record<string, unknown> = {}) {
  const w = await publicWorld({ csat_survey_enabled: true, ...inbox });
  const c = await newContact(w, { name: "Carla" });
  const conv = await openConversation(w, c);
  await say(w, c, conv.id, "help");
  await agentSays(w, conv.id, { content: "done" });
  await agentResolves(w, conv.id);
  const list = await w.h.request("GET", messagesPath(w, c, conv.id));
  return { w, c, conv, survey: list.body.at(-1) };
}

describe("the survey", () => {
  test("resolving sends one input_csat template: Chatwoot's default text and display type, no sender, after the activity message", async () => {
    const w = await publicWorld({ csat_survey_enabled: true });
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    w.h.clock.advance(60_000);
    const before = w.h.lastEventId();
    await agentResolves(w, conv.id);
    const list = await w.h.request("GET", messagesPath(w, c, conv.id));
    expect(list.body).toEqual([
      {
        id: expect.any(Number),
        content: "Please rate the conversation",
        message_type: 3,
        content_type: "input_csat",
        content_attributes: { display_type: "emoji" },
        created_at: NOW + 60,
        conversation_id: conv.id,
      },
    ]);
    const events = w.h.events(before);
    expect(events.map((e) => [e.kind, e.actor.type])).toEqual([
      ["conversation_status_changed", "user"],
      ["conversation_resolved", "user"],
      ["conversation_updated", "user"],
      ["message_created", "user"],
      ["message_created", "system"],
    ]);
    expect(events[3]!.payload.content).toBe("Conversation was marked resolved by Admin");
    expect(events[4]!.payload).toMatchObject({
      id: list.body[0].id,
      message_type: "template",
      content_type: "input_csat",
      sender: null,
    });
  });

  test("csat_config gives the text and display type; an unknown display type falls back to emoji", async () => {
    const star = await resolvedWithSurvey({ csat_config: { message: "How did we do?", display_type: "star" } });
    expect([star.survey.content, star.survey.content_attributes]).toEqual(["How did we do?", { display_type: "star" }]);
    const odd = await resolvedWithSurvey({ csat_config: { message: "  ", display_type: "thumbs" } });
    expect([odd.survey.content, odd.survey.content_attributes]).toEqual([
      "Please rate the conversation",
      { display_type: "emoji" },
    ]);
  });

  test("once per conversation: reopened and resolved again (by the contact or by automation), no second survey", async () => {
    const { w, c, conv } = await resolvedWithSurvey();
    await say(w, c, conv.id, "one more thing"); // reopens
    await w.h.request("POST", `${contactPath(w, c)}/conversations/${conv.id}/toggle_status`);
    const row = w.h.deps.repos.conversations.byDisplayId(w.a.accountId, conv.id)!;
    await w.h.deps.services.conversationState.setStatus(
      actingAsAutomation({ id: w.a.accountId, name: "Acme" }, 3),
      { ...row, status: "open" },
      "resolved",
    );
    expect(surveys(w)).toHaveLength(1);
  });

  test("the contact resolving sends it, automation resolving sends it; a disabled inbox sends none", async () => {
    const w = await publicWorld({ csat_survey_enabled: true });
    const c = await newContact(w);
    const byContact = await openConversation(w, c);
    await w.h.request("POST", `${contactPath(w, c)}/conversations/${byContact.id}/toggle_status`);
    const byRule = await openConversation(w, c);
    const row = w.h.deps.repos.conversations.byDisplayId(w.a.accountId, byRule.id)!;
    await w.h.deps.services.conversationState.setStatus(
      actingAsAutomation({ id: w.a.accountId, name: "Acme" }, 3),
      row,
      "resolved",
    );
    expect(surveys(w).map((s) => s.message_type)).toEqual([3, 3]);
    const off = await publicWorld();
    const c2 = await newContact(off);
    const conv2 = await openConversation(off, c2);
    await agentResolves(off, conv2.id);
    expect(surveys(off)).toEqual([]);
  });

  test("survey_rules: `contains` sends only with one of the labels, `does_not_contain` only without", async () => {
    for (const [operator, labels, sent] of [
      ["contains", ["vip"], 1],
      ["contains", ["other"], 0],
      ["does_not_contain", ["vip"], 0],
      ["does_not_contain", [], 1],
    ] as const) {
      const w = await publicWorld({
        csat_survey_enabled: true,
        csat_config: { survey_rules: { operator, values: ["vip"] } },
      });
      const c = await newContact(w);
      const conv = await openConversation(w, c);
      if (labels.length)
        await w.h.request("POST", `${w.api}/conversations/${conv.id}/labels`, {
          token: w.a.adminToken,
          body: { labels },
        });
      await agentResolves(w, conv.id);
      expect([operator, labels, surveys(w).length]).toEqual([operator, labels, sent]);
    }
  });
});

describe("the answer", () => {
  test("rating and feedback: 200 with the public record, one response per survey, changed in place", async () => {
    const { w, c, conv, survey } = await resolvedWithSurvey();
    await w.h.request("POST", `${w.api}/conversations/${conv.id}/assignments`, {
      token: w.a.adminToken,
      body: { assignee_id: w.agent.userId },
    });
    const path = `${messagesPath(w, c, conv.id)}/${survey.id}`;
    const before = w.h.lastEventId();
    const r = await w.h.request("PATCH", path, {
      body: { submitted_values: { csat_survey_response: { rating: 4, feedback_message: "Quick, thanks" } } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ...survey,
      content_attributes: {
        display_type: "emoji",
        submitted_values: { csat_survey_response: { feedback_message: "Quick, thanks", rating: 4 } },
      },
    });
    expect(w.h.events(before).map((e) => [e.kind, e.actor.type])).toEqual([["message_updated", "contact"]]);
    const row = () => w.h.deps.db.query("SELECT * FROM csat_survey_responses").all() as any[];
    expect(row()).toEqual([
      {
        id: 1,
        account_id: w.a.accountId,
        inbox_id: w.inbox.id,
        conversation_id: expect.any(Number),
        message_id: survey.id,
        contact_id: c.id,
        assigned_agent_id: w.agent.userId,
        rating: 4,
        feedback_message: "Quick, thanks",
        created_at: NOW,
        updated_at: NOW,
      },
    ]);
    w.h.clock.advance(3 * 86_400_000);
    await w.h.request("PATCH", path, { form: { "submitted_values[csat_survey_response][rating]": "2" } });
    expect(row().map((r) => [r.id, r.rating, r.feedback_message, r.created_at, r.updated_at])).toEqual([
      [1, 2, null, NOW, NOW + 3 * 86_400],
    ]);
  });

  test("a rating outside 1–5, missing or not whole is 422 and nothing changes", async () => {
    const { w, c, conv, survey } = await resolvedWithSurvey();
    const path = `${messagesPath(w, c, conv.id)}/${survey.id}`;
    const before = w.h.lastEventId();
    const field = "submitted_values.csat_survey_response.rating";
    for (const [value, error] of [
      [0, { field, message: "must be a whole number from 1 to 5", code: "invalid" }],
      [6, { field, message: "must be a whole number from 1 to 5", code: "invalid" }],
      [3.5, { field, message: "must be a whole number from 1 to 5", code: "invalid" }],
      ["five", { field, message: "must be a whole number from 1 to 5", code: "invalid" }],
      [null, { field, message: "can't be blank", code: "required" }],
    ] as const) {
      const r = await w.h.request("PATCH", path, {
        body: { submitted_values: { csat_survey_response: { rating: value, feedback_message: "x" } } },
      });
      expect([value, r.status, r.body.errors]).toEqual([value, 422, [error]]);
    }
    expect(w.h.events(before)).toEqual([]);
    expect(w.h.deps.db.query("SELECT count(*) AS n FROM csat_survey_responses").get()).toEqual({ n: 0 });
    expect((await w.h.request("GET", messagesPath(w, c, conv.id))).body.at(-1)).toEqual(survey);
  });

  test("changeable for 14 calendar days after the survey, then 422", async () => {
    const { w, c, conv, survey } = await resolvedWithSurvey();
    const path = `${messagesPath(w, c, conv.id)}/${survey.id}`;
    const answer = (rating: number) =>
      w.h.request("PATCH", path, { body: { submitted_values: { csat_survey_response: { rating } } } });
    // The survey went out 2026-01-05 09:00 UTC; 2026-01-19 is 14 days later.
    w.h.clock.set(Date.UTC(2026, 0, 19, 23, 59, 59));
    expect((await answer(5)).status).toBe(200);
    w.h.clock.set(Date.UTC(2026, 0, 20, 0, 0, 0));
    const before = w.h.lastEventId();
    const late = await answer(1);
    expect([late.status, late.body.errors]).toEqual([
      422,
      [{ field: "submitted_values", message: "You cannot update the CSAT survey after 14 days", code: "invalid" }],
    ]);
    expect(w.h.events(before)).toEqual([]);
    expect(w.h.deps.db.query("SELECT rating FROM csat_survey_responses").all()).toEqual([{ rating: 5 }]);
  });

  test("csat_survey_response on a message that is not a survey is kept in submitted_values but is no survey response", async () => {
    const w = await publicWorld();
    const c = await newContact(w);
    const conv = await openConversation(w, c);
    const ask = await agentSays(w, conv.id, { content: "Rate us?" });
    const r = await w.h.request("PATCH", `${messagesPath(w, c, conv.id)}/${ask.id}`, {
      body: { submitted_values: { csat_survey_response: { rating: 5 } } },
    });
    expect(r.body.content_attributes).toEqual({
      submitted_values: { csat_survey_response: { feedback_message: null, rating: 5 } },
    });
    expect(w.h.deps.db.query("SELECT count(*) AS n FROM csat_survey_responses").get()).toEqual({ n: 0 });
  });
});
