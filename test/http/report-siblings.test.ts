// The team summary's siblings (agent, inbox, label summaries and the account overview) on the same
// hand-computed dataset: same definitions, same range rules, so their figures add up to each other.
import { describe, expect, test } from "bun:test";
import { ALL, dataset, H, report, reportWorld, ts } from "../helpers/report-fixtures.ts";

const sum = (rows: Record<string, number>[], key: string) => rows.reduce((n, r) => n + r[key]!, 0);

describe("agent, inbox and label summaries", () => {
  test("agents: conversations by current assignee; resolutions and reply times by the assignee then, first responses by the replying agent", async () => {
    const { w } = await dataset();
    const r = await report(w, "summary_reports/agent", ALL);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      // The administrator replied first on c3 and c4.
      {
        id: w.a.adminId,
        conversations_count: 0,
        resolved_conversations_count: 0,
        avg_resolution_time: null,
        avg_first_response_time: (1800 + 300) / 2,
        avg_reply_time: null,
      },
      {
        id: w.agent.userId,
        conversations_count: 2,
        resolved_conversations_count: 3,
        avg_resolution_time: (90 * H + 7200 + 14400) / 3,
        avg_first_response_time: (66 * H + 600) / 2,
        avg_reply_time: (16 * H + 45 * 60 + 1800) / 2,
      },
    ]);
  });

  test("inboxes: one row per inbox; business hours only where the inbox has working hours", async () => {
    const { w } = await dataset();
    const r = await report(w, "summary_reports/inbox", ALL);
    expect(r.body).toEqual([
      {
        id: w.berlin,
        conversations_count: 2,
        resolved_conversations_count: 1,
        avg_resolution_time: 90 * H,
        avg_first_response_time: (66 * H + 1800) / 2,
        avg_reply_time: 16 * H + 45 * 60,
      },
      {
        id: w.plain,
        conversations_count: 2,
        resolved_conversations_count: 2,
        avg_resolution_time: (7200 + 14400) / 2,
        avg_first_response_time: (600 + 300) / 2,
        avg_reply_time: 1800,
      },
    ]);
    const bh = await report(w, "summary_reports/inbox", { ...ALL, business_hours: "true" });
    expect(bh.body).toEqual([
      {
        id: w.berlin,
        conversations_count: 2,
        resolved_conversations_count: 1,
        avg_resolution_time: 10 * H,
        avg_first_response_time: (2 * H + 1800) / 2,
        avg_reply_time: 45 * 60,
      },
      {
        id: w.plain,
        conversations_count: 2,
        resolved_conversations_count: 2,
        avg_resolution_time: null,
        avg_first_response_time: null,
        avg_reply_time: null,
      },
    ]);
  });

  test("labels: one row per label title, by the conversations' current labels", async () => {
    const { w } = await dataset();
    const r = await report(w, "summary_reports/label", ALL);
    expect(r.body).toEqual([
      // billing = c1 + c2, the same conversations as team sales: the same figures.
      {
        name: "billing",
        conversations_count: 2,
        resolved_conversations_count: 3,
        avg_resolution_time: (90 * H + 7200 + 14400) / 3,
        avg_first_response_time: (66 * H + 600) / 2,
        avg_reply_time: (16 * H + 45 * 60 + 1800) / 2,
      },
      {
        name: "vip",
        conversations_count: 2,
        resolved_conversations_count: 1,
        avg_resolution_time: 90 * H,
        avg_first_response_time: (66 * H + 1800) / 2,
        avg_reply_time: 16 * H + 45 * 60,
      },
    ]);
    const team = await report(w, "summary_reports/team", ALL);
    const { id: _, ...sales } = team.body[0];
    const { name: __, ...billing } = r.body[0];
    expect(billing).toEqual(sales);
    // A label used only outside the range still has its row.
    const later = await report(w, "summary_reports/label", {
      since: ts("2026-02-01T00:00:00Z"),
      until: ts("2026-02-02T00:00:00Z"),
    });
    expect(
      later.body.map((row: { name: string; conversations_count: number }) => [row.name, row.conversations_count]),
    ).toEqual([
      ["billing", 0],
      ["vip", 0],
    ]);
  });

  test("counts agree across screens: every conversation and resolution is in exactly one inbox row", async () => {
    const { w } = await dataset();
    const [teams, inboxes, agents, overview] = await Promise.all(
      ["summary_reports/team", "summary_reports/inbox", "summary_reports/agent", "reports/summary"].map((p) =>
        report(w, p, ALL),
      ),
    );
    expect(sum(inboxes!.body, "conversations_count")).toBe(overview!.body.conversations_count);
    expect(sum(inboxes!.body, "resolved_conversations_count")).toBe(overview!.body.resolutions_count);
    // c4 has no team and no assignee: the team and agent screens show the rest.
    expect(sum(teams!.body, "conversations_count")).toBe(overview!.body.conversations_count - 1);
    expect(sum(agents!.body, "resolved_conversations_count")).toBe(overview!.body.resolutions_count);
  });
});

describe("account overview (reports/summary)", () => {
  test("figures for the range and for the period of equal length before it", async () => {
    const { w } = await dataset();
    const r = await report(w, "reports/summary", {
      since: ts("2026-01-12T00:00:00Z"),
      until: ts("2026-01-19T00:00:00Z"),
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      conversations_count: 3, // c2, c3, c4
      incoming_messages_count: 2, // c1 Mon 15:30, c2 11:00
      outgoing_messages_count: 6, // two replies each on c1 and c2, one on c3 and c4
      avg_first_response_time: (66 * H + 600 + 1800 + 300) / 4,
      avg_resolution_time: (90 * H + 7200 + 14400) / 3,
      resolutions_count: 3,
      reply_time: (16 * H + 45 * 60 + 1800) / 2,
      // [Jan 5, Jan 12): c1 and its first (incoming) message.
      previous: {
        conversations_count: 1,
        incoming_messages_count: 1,
        outgoing_messages_count: 0,
        avg_first_response_time: null,
        avg_resolution_time: null,
        resolutions_count: 0,
        reply_time: null,
      },
    });
  });

  test("business hours; the team report's figures are the overview's when every conversation has a team", async () => {
    const { w } = await dataset();
    const r = await report(w, "reports/summary", { ...ALL, business_hours: "true" });
    expect(r.body).toMatchObject({
      avg_first_response_time: (2 * H + 1800) / 2,
      avg_resolution_time: 10 * H,
      reply_time: 45 * 60,
      resolutions_count: 3,
    });
    // Over a range that leaves out c4 (the only conversation without a team), team rows add up to the overview.
    const range = { since: ALL.since, until: ts("2026-01-13T10:00:00Z") };
    const [teams, overview] = await Promise.all([
      report(w, "summary_reports/team", range),
      report(w, "reports/summary", range),
    ]);
    expect(sum(teams.body, "conversations_count")).toBe(overview.body.conversations_count);
    expect(sum(teams.body, "resolved_conversations_count")).toBe(overview.body.resolutions_count);
  });

  test("type other than account is 422; the same parameter rules and authorization as the summaries", async () => {
    const w = await reportWorld();
    const typed = await report(w, "reports/summary", { type: "agent" });
    expect(typed.status).toBe(422);
    expect(typed.body.errors).toEqual([
      { field: "type", message: "only the account overview (type=account) is available", code: "unsupported" },
    ]);
    expect((await report(w, "reports/summary", { type: "account" })).status).toBe(200);
    expect((await report(w, "reports/summary", { since: "abc" })).body.errors).toEqual([
      { field: "since", message: "must be a Unix timestamp in seconds", code: "invalid" },
    ]);
    for (const path of ["reports/summary", "summary_reports/agent", "summary_reports/inbox", "summary_reports/label"]) {
      expect((await report(w, path, {}, w.agent.token)).status).toBe(403);
      expect((await report(w, path, {}, null)).status).toBe(401);
    }
  });

  test("an empty account: zeros and nulls, never NaN", async () => {
    const w = await reportWorld();
    const r = await report(w, "reports/summary");
    const empty = {
      conversations_count: 0,
      incoming_messages_count: 0,
      outgoing_messages_count: 0,
      avg_first_response_time: null,
      avg_resolution_time: null,
      resolutions_count: 0,
      reply_time: null,
    };
    expect(r.body).toEqual({ ...empty, previous: empty });
    expect((await report(w, "summary_reports/label")).body).toEqual([]);
  });
});
