// GET /api/v2/accounts/:account_id/summary_reports/team on the hand-computed
// dataset of test/helpers/report-fixtures.ts.
import { describe, expect, test } from "bun:test";
import { makeAccount, makeMember, makeTeam } from "../helpers/factories.ts";
import { ALL, at, dataset, H, open, reply, report, reportWorld, setStatus, ts } from "../helpers/report-fixtures.ts";

const none = (id: number) => ({
  id,
  conversations_count: 0,
  resolved_conversations_count: 0,
  avg_resolution_time: null,
  avg_first_response_time: null,
  avg_reply_time: null,
});

describe("team summary", () => {
  test("one row per team in id order, wall-clock averages; a team without conversations has zeros and nulls", async () => {
    const { w } = await dataset();
    const r = await report(w, "summary_reports/team", ALL);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        id: w.teams.sales,
        conversations_count: 2,
        resolved_conversations_count: 3, // c2 was resolved twice: both count
        avg_resolution_time: (90 * H + 7200 + 14400) / 3,
        avg_first_response_time: (66 * H + 600) / 2,
        avg_reply_time: (16 * H + 45 * 60 + 1800) / 2,
      },
      {
        id: w.teams.support,
        conversations_count: 1,
        resolved_conversations_count: 0,
        avg_resolution_time: null,
        avg_first_response_time: 1800,
        avg_reply_time: null,
      },
      none(w.teams.empty),
    ]);
  });

  test("business_hours averages the business-hours values; inboxes without working hours add nothing", async () => {
    const { w } = await dataset();
    const r = await report(w, "summary_reports/team", { ...ALL, business_hours: "true" });
    expect(r.body).toEqual([
      // c2 (no working hours) has NULL business values: only c1's count.
      {
        id: w.teams.sales,
        conversations_count: 2,
        resolved_conversations_count: 3,
        avg_resolution_time: 10 * H,
        avg_first_response_time: 2 * H,
        avg_reply_time: 45 * 60,
      },
      {
        id: w.teams.support,
        conversations_count: 1,
        resolved_conversations_count: 0,
        avg_resolution_time: null,
        avg_first_response_time: 1800,
        avg_reply_time: null,
      },
      none(w.teams.empty),
    ]);
    // Rails' boolean cast: "0", "false", "off" are false; anything else is true.
    const off = await report(w, "summary_reports/team", { ...ALL, business_hours: "0" });
    expect(off.body[0].avg_resolution_time).toBe((90 * H + 7200 + 14400) / 3);
    const yes = await report(w, "summary_reports/team", { ...ALL, business_hours: "1" });
    expect(yes.body[0].avg_resolution_time).toBe(10 * H);
  });

  test("a team whose conversations are all in an inbox without working hours: business averages null, not 0", async () => {
    const w = await reportWorld();
    at(w, "2026-01-05T09:00:00Z");
    const c = await open(w, w.plain, { team_id: w.teams.support });
    at(w, "2026-01-05T09:10:00Z");
    await reply(w, c);
    await setStatus(w, c, "resolved");
    const r = await report(w, "summary_reports/team", { ...ALL, business_hours: true });
    expect(r.body[1]).toEqual({
      id: w.teams.support,
      conversations_count: 1,
      resolved_conversations_count: 1,
      avg_resolution_time: null,
      avg_first_response_time: null,
      avg_reply_time: null,
    });
    const wall = await report(w, "summary_reports/team", ALL);
    expect(wall.body[1]).toMatchObject({ avg_resolution_time: 600, avg_first_response_time: 600 });
  });

  test("since is inclusive, until exclusive, for conversations and for events", async () => {
    const { w } = await dataset();
    const created = ts("2026-01-12T08:00:00Z"); // c3 created
    const replied = ts("2026-01-12T08:30:00Z"); // c3's first response
    const support = async (since: number, until: number) =>
      (await report(w, "summary_reports/team", { since, until })).body[1];
    expect(await support(created, created + 1)).toMatchObject({
      conversations_count: 1,
      avg_first_response_time: null,
    });
    expect(await support(created - 60, created)).toMatchObject({ conversations_count: 0 });
    expect(await support(replied, replied + 1)).toMatchObject({
      conversations_count: 0,
      avg_first_response_time: 1800,
    });
    expect(await support(created, replied)).toMatchObject({ conversations_count: 1, avg_first_response_time: null });
  });

  test("rows follow each conversation's current team", async () => {
    const { w, c2 } = await dataset();
    const moved = await w.h.request("POST", `${w.base}/conversations/${c2.displayId}/assignments`, {
      token: w.a.adminToken,
      body: { team_id: w.teams.empty },
    });
    expect(moved.status).toBe(200);
    const r = await report(w, "summary_reports/team", ALL);
    expect(r.body[0]).toMatchObject({
      id: w.teams.sales,
      conversations_count: 1,
      resolved_conversations_count: 1,
      avg_resolution_time: 90 * H,
      avg_first_response_time: 66 * H,
      avg_reply_time: 16 * H + 45 * 60,
    });
    expect(r.body[2]).toEqual({
      id: w.teams.empty,
      conversations_count: 1,
      resolved_conversations_count: 2,
      avg_resolution_time: 10800,
      avg_first_response_time: 600,
      avg_reply_time: 1800,
    });
  });

  test("a repeated summary is answered again after every commit: a change shows at once (cached answers stay exact)", async () => {
    const { w, c2 } = await dataset();
    const first = await report(w, "summary_reports/team", ALL);
    expect((await report(w, "summary_reports/team", ALL)).body).toEqual(first.body);
    expect(first.body[2]).toEqual(none(w.teams.empty));
    expect(
      (
        await w.h.request("POST", `${w.base}/conversations/${c2.displayId}/assignments`, {
          token: w.a.adminToken,
          body: { team_id: w.teams.empty },
        })
      ).status,
    ).toBe(200);
    const after = await report(w, "summary_reports/team", ALL);
    expect(after.body[2]).toEqual({
      id: w.teams.empty,
      conversations_count: 1,
      resolved_conversations_count: 2,
      avg_resolution_time: 10800,
      avg_first_response_time: 600,
      avg_reply_time: 1800,
    });
    expect((await report(w, "summary_reports/team", { ...ALL, business_hours: "true" })).status).toBe(200);
    expect((await report(w, "summary_reports/team", ALL)).body).toEqual(after.body);
  });

  test("missing until is now, missing since is until − 7 days (docs/compatibility.md #13)", async () => {
    const { w } = await dataset();
    at(w, "2026-01-20T00:00:00Z"); // default range: [Jan 13 00:00, Jan 20 00:00)
    const r = await report(w, "summary_reports/team");
    expect(r.body[0]).toEqual({
      id: w.teams.sales,
      conversations_count: 0,
      resolved_conversations_count: 1,
      avg_resolution_time: 90 * H,
      avg_first_response_time: null,
      avg_reply_time: 16 * H + 45 * 60,
    });
    expect(r.body[1]).toEqual(none(w.teams.support));
    // Only since: until is now.
    const since = await report(w, "summary_reports/team", { since: ts("2026-01-12T00:00:00Z") });
    expect(since.body[1]).toMatchObject({ conversations_count: 1, avg_first_response_time: 1800 });
    // Only until: the 7 days before it.
    const until = await report(w, "summary_reports/team", { until: ts("2026-01-12T08:30:00Z") });
    expect(until.body[0]).toMatchObject({ conversations_count: 1, resolved_conversations_count: 0 }); // c1, created Jan 9
    expect(until.body[1]).toMatchObject({ conversations_count: 1, avg_first_response_time: null }); // reply at until: excluded
  });

  test("bad parameters are 422 naming the field", async () => {
    const w = await reportWorld();
    const cases: [Record<string, string>, string, string][] = [
      [{ since: "yesterday" }, "since", "must be a Unix timestamp in seconds"],
      [{ since: "1700000000", until: "12.5" }, "until", "must be a Unix timestamp in seconds"],
      [{ since: "1700000000", until: "1700000000" }, "since", "must be before until"],
      [{ since: "1700000001", until: "1700000000" }, "since", "must be before until"],
    ];
    for (const [query, field, message] of cases) {
      const r = await report(w, "summary_reports/team", query);
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual([{ field, message, code: "invalid" }]);
    }
    const both = await report(w, "summary_reports/team", { since: "x", until: "y" });
    expect(both.body.errors.map((e: { field: string }) => e.field)).toEqual(["since", "until"]);
  });

  test("authorization: administrators only; other accounts' tokens are 401; unknown account 404", async () => {
    const w = await reportWorld();
    expect((await report(w, "summary_reports/team", {}, null)).status).toBe(401);
    const agent = await report(w, "summary_reports/team", {}, w.agent.token);
    expect(agent.status).toBe(403);
    const other = await makeAccount(w.h, "Other");
    expect((await report(w, "summary_reports/team", {}, other.adminToken)).status).toBe(401);
    const unknown = await w.h.request("GET", "/api/v2/accounts/999999/summary_reports/team", { token: w.a.adminToken });
    expect(unknown.status).toBe(404);
    const admin2 = await makeMember(w.h, w.a.accountId, "administrator", "Second Admin");
    expect((await report(w, "summary_reports/team", {}, admin2.token)).status).toBe(200);
  });

  test("another account's teams and conversations never show", async () => {
    const { w } = await dataset();
    const other = await makeAccount(w.h, "Other");
    const theirs = await makeTeam(w.h, other, "sales");
    const r = await report(w, "summary_reports/team", ALL);
    expect(r.body.map((row: { id: number }) => row.id)).toEqual([w.teams.sales, w.teams.support, w.teams.empty]);
    const mine = await w.h.request(
      "GET",
      `/api/v2/accounts/${other.accountId}/summary_reports/team?since=${ALL.since}&until=${ALL.until}`,
      { token: other.adminToken },
    );
    expect(mine.body).toEqual([none(theirs.id)]);
  });
});
