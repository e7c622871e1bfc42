// Reporting events as the conversation write paths record them, with hand-computed values.
// The Berlin inbox works Mon-Fri 09:00-17:00 Europe/Berlin (UTC+1 in January); 2026-01-09 is a Friday.
import { describe, expect, test } from "bun:test";
import { readNow } from "../../src/db/reads.ts";
import { actingAsAutomation } from "../../src/domain/acting.ts";
import { isHumanReply } from "../../src/domain/human-reply.ts";
import {
  at,
  eventsOf,
  H,
  incoming,
  open,
  rawEventsOf,
  reply,
  reportWorld,
  say,
  setStatus,
  timeline,
  type ReportWorld,
} from "../helpers/report-fixtures.ts";

/** Friday 16:00 Berlin → Monday reply → Monday evening question → Tuesday morning reply → resolved. */
async function overnightAndWeekend(w: ReportWorld, inboxId: number) {
  at(w, "2026-01-09T15:00:00Z"); // Fri 16:00 Berlin
  const c = await open(w, inboxId, {
    team_id: w.teams.sales,
    message: { content: "order missing", message_type: "incoming" },
  });
  await timeline(w, [
    ["2026-01-12T09:00:00Z", () => reply(w, c)], // Mon 10:00
    ["2026-01-12T15:30:00Z", () => incoming(w, c, "still missing")], // Mon 16:30
    ["2026-01-12T15:40:00Z", () => say(w, c, { content: "internal: check the warehouse", private: true })],
    ["2026-01-12T15:45:00Z", () => say(w, c, { content: "auto text", content_attributes: { automation_rule_id: 3 } })],
    ["2026-01-13T08:15:00Z", () => reply(w, c, "found it")], // Tue 09:15
    ["2026-01-13T09:00:00Z", () => setStatus(w, c, "resolved")], // Tue 10:00
  ]);
  return c;
}

describe("reporting events", () => {
  test("first response, reply time and resolution across a weekend and a night, in business hours", async () => {
    const w = await reportWorld();
    const c = await overnightAndWeekend(w, w.berlin);
    expect(eventsOf(w, c)).toEqual([
      // Fri 15:00Z → Mon 09:00Z = 66 h; business: Fri 16-17 + Mon 09-10 = 2 h.
      ["first_response", 66 * H, 2 * H],
      // Mon 15:30Z → Tue 08:15Z = 16 h 45 min; business: Mon 16:30-17:00 + Tue 09:00-09:15 = 45 min.
      ["reply_time", 16 * H + 45 * 60, 45 * 60],
      // Fri 15:00Z → Tue 09:00Z = 90 h; business: Fri 1 h + Mon 8 h + Tue 1 h = 10 h.
      ["conversation_resolved", 90 * H, 10 * H],
    ]);
    const [first, replyTime, resolved] = rawEventsOf(w, c);
    expect(first).toMatchObject({
      account_id: w.a.accountId,
      inbox_id: w.berlin,
      team_id: w.teams.sales,
      user_id: w.a.adminId,
      event_start_time: Date.parse("2026-01-09T15:00:00Z") / 1000,
      event_end_time: Date.parse("2026-01-12T09:00:00Z") / 1000,
      created_at: Date.parse("2026-01-12T09:00:00Z") / 1000,
    });
    // reply_time and resolution belong to the assignee at the time: nobody here.
    expect(replyTime!.user_id).toBeNull();
    expect(resolved).toMatchObject({
      user_id: null,
      event_start_time: Date.parse("2026-01-09T15:00:00Z") / 1000,
      created_at: Date.parse("2026-01-13T09:00:00Z") / 1000,
    });
  });

  test("an inbox without working hours: the same wall-clock values, business-hours values NULL", async () => {
    const w = await reportWorld();
    const c = await overnightAndWeekend(w, w.plain);
    expect(eventsOf(w, c)).toEqual([
      ["first_response", 66 * H, null],
      ["reply_time", 16 * H + 45 * 60, null],
      ["conversation_resolved", 90 * H, null],
    ]);
  });

  test("resolved twice: two resolutions from creation, an opening measured from the first resolution", async () => {
    const w = await reportWorld();
    at(w, "2026-01-05T09:00:00Z"); // Mon 10:00 Berlin
    const c = await open(w, w.berlin, { assignee_id: w.agent.userId });
    await timeline(w, [
      ["2026-01-05T10:00:00Z", () => setStatus(w, c, "resolved")],
      ["2026-01-05T11:00:00Z", () => setStatus(w, c, "open")],
      ["2026-01-05T13:00:00Z", () => setStatus(w, c, "resolved")],
    ]);
    expect(eventsOf(w, c)).toEqual([
      ["conversation_resolved", H, H],
      ["conversation_opened", H, H],
      ["conversation_resolved", 4 * H, 4 * H],
    ]);
    expect(rawEventsOf(w, c).map((e) => e.user_id)).toEqual([w.agent.userId, w.agent.userId, w.agent.userId]);
  });

  test("a first opening is 0; the first reply after a reopening is measured from the reopening", async () => {
    const w = await reportWorld();
    at(w, "2026-01-05T09:00:00Z");
    const c = await open(w, w.plain, { status: "pending" });
    await timeline(w, [
      ["2026-01-05T09:10:00Z", () => setStatus(w, c, "open")], // a handover: no resolution before, so 0
      ["2026-01-05T09:30:00Z", () => setStatus(w, c, "resolved")],
      ["2026-01-05T12:00:00Z", () => incoming(w, c, "hello again")], // reopens it
      ["2026-01-05T12:20:00Z", () => reply(w, c)],
    ]);
    expect(eventsOf(w, c)).toEqual([
      ["conversation_opened", 0, null],
      ["conversation_resolved", 30 * 60, null],
      ["conversation_opened", 2.5 * H, null],
      // From the reopening at 12:00, not from creation (3 h 20 min) or the first opening.
      ["first_response", 20 * 60, null],
    ]);
  });

  test("private notes, automation and campaign messages and the contact's messages are not human replies", async () => {
    const w = await reportWorld();
    at(w, "2026-01-05T09:00:00Z");
    const c = await open(w, w.plain);
    await say(w, c, { content: "note", private: true });
    await say(w, c, { content: "auto", content_attributes: { automation_rule_id: 1 } });
    const row = w.h.deps.repos.conversations.byId(c.id)!;
    await w.h.deps.services.messages.create(actingAsAutomation({ id: w.a.accountId, name: "Acme" }, 9), row, {
      content: "rule reply",
    });
    await incoming(w, c);
    expect(eventsOf(w, c)).toEqual([]);
    expect(w.h.deps.repos.conversations.byId(c.id)!.first_reply_created_at).toBeNull();
    at(w, "2026-01-05T09:05:00Z");
    await reply(w, c);
    expect(eventsOf(w, c)).toEqual([["first_response", 300, null]]);

    const human = {
      message_type: 1,
      private: 0,
      sender_type: "User" as const,
      content_attributes: "{}",
      additional_attributes: "{}",
    };
    expect(isHumanReply(human)).toBe(true);
    expect(isHumanReply({ ...human, sender_type: "AgentBot" })).toBe(false);
    expect(isHumanReply({ ...human, additional_attributes: '{"campaign_id":4}' })).toBe(false);
    expect(isHumanReply({ ...human, private: 1 })).toBe(false);
    expect(isHumanReply({ ...human, message_type: 0 })).toBe(false);
  });

  test("a reply while nobody waits records nothing; only the reply ending a wait is a reply_time", async () => {
    const w = await reportWorld();
    at(w, "2026-01-05T09:00:00Z");
    const c = await open(w, w.plain);
    await timeline(w, [
      ["2026-01-05T09:01:00Z", () => reply(w, c)],
      ["2026-01-05T09:02:00Z", () => reply(w, c, "anything else?")],
      ["2026-01-05T09:10:00Z", () => incoming(w, c)],
      ["2026-01-05T09:11:00Z", () => incoming(w, c, "hello?")],
      ["2026-01-05T09:15:00Z", () => reply(w, c)],
      ["2026-01-05T09:15:00Z", () => reply(w, c, "and also")],
    ]);
    expect(eventsOf(w, c)).toEqual([
      ["first_response", 60, null],
      ["reply_time", 300, null], // from the first unanswered message at 09:10
    ]);
  });

  test("a conversation's events follow it to another team; deleting the team clears them", async () => {
    const w = await reportWorld();
    at(w, "2026-01-05T09:00:00Z");
    const c = await open(w, w.plain, { team_id: w.teams.sales });
    await reply(w, c);
    const moved = await w.h.request("POST", `${w.base}/conversations/${c.displayId}/assignments`, {
      token: w.a.adminToken,
      body: { team_id: w.teams.support },
    });
    expect(moved.status).toBe(200);
    await setStatus(w, c, "resolved");
    expect(rawEventsOf(w, c).map((e) => [e.name, e.team_id])).toEqual([
      ["first_response", w.teams.support],
      ["conversation_resolved", w.teams.support],
    ]);
    const gone = await w.h.request("DELETE", `/api/v1/accounts/${w.a.accountId}/teams/${w.teams.support}`, {
      token: w.a.adminToken,
    });
    expect(gone.status).toBe(200);
    expect(rawEventsOf(w, c).map((e) => e.team_id)).toEqual([null, null]);
  });

  test("events commit with their change: a rolled-back resolution leaves none", async () => {
    const w = await reportWorld();
    const c = await open(w, w.plain);
    const row = w.h.deps.repos.conversations.byId(c.id)!;
    const acting = actingAsAutomation({ id: w.a.accountId, name: "Acme" });
    // The listeners first (on PostgreSQL the notifications they write are an awaited body, and an
    // in-place write outside any body is refused meanwhile).
    await w.h.deps.bus.drain();
    expect(() =>
      w.h.deps.writeTx.now(() => {
        readNow(w.h.deps.services.conversationState.setStatusSteps(acting, row, "resolved", null));
        expect(eventsOf(w, c)).toEqual([["conversation_resolved", 0, null]]);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(eventsOf(w, c)).toEqual([]);
    expect(w.h.deps.repos.conversations.byId(c.id)!.status).toBe("open");
  });
});
