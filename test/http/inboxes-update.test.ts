// Inboxes changed and deleted: PATCH settings, channel attributes and working hours with the
// inbox_updated event's changed_attributes, and DELETE with its memberships.
import { describe, expect, test } from "bun:test";
import { inboxesPair as setup } from "../helpers/account-pair.ts";
import { addInboxMember, makeInbox } from "../helpers/factories.ts";

describe("PATCH /inboxes/:id", () => {
  test("changes settings and channel attributes; inbox_updated carries changed_attributes", async () => {
    const { h, a, base } = await setup();
    const inbox = await makeInbox(h, a, { name: "API" });
    h.clock.advance(60_000);
    const before = h.lastEventId();
    const r = await h.request("PATCH", `${base}/${inbox.id}`, {
      token: a.adminToken,
      body: { name: "API 2", channel: { webhook_url: "https://hooks.example.com/new" }, csat_survey_enabled: true },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: "API 2",
      webhook_url: "https://hooks.example.com/new",
      csat_survey_enabled: true,
      inbox_identifier: inbox.identifier,
    });
    const [event] = h.events(before);
    expect(event!.kind).toBe("inbox_updated");
    expect(event!.payload).toMatchObject({ id: inbox.id, name: "API 2", updated_at: "2026-01-05T09:01:00.000Z" });
    expect(event!.payload.changed_attributes).toEqual([
      { name: { previous_value: "API", current_value: "API 2" } },
      { csat_survey_enabled: { previous_value: false, current_value: true } },
      { webhook_url: { previous_value: null, current_value: "https://hooks.example.com/new" } },
      { updated_at: { previous_value: "2026-01-05T09:00:00.000Z", current_value: "2026-01-05T09:01:00.000Z" } },
    ]);
  });

  test("every setting counts as a change: csat_config, working hours, website settings", async () => {
    const { h, a, base } = await setup();
    const api = await makeInbox(h, a);
    const web = await makeInbox(h, a, { name: "Site", channel: { type: "web_widget", website_url: "https://a.test" } });
    const changes: [number, Record<string, unknown>, string][] = [
      [api.id, { csat_config: { message: "Rate us" } }, "csat_config"],
      [api.id, { working_hours: [] }, "working_hours"],
      [web.id, { channel: { welcome_tagline: "We reply fast" } }, "welcome_tagline"],
    ];
    for (const [id, body, key] of changes) {
      const before = h.lastEventId();
      expect((await h.request("PATCH", `${base}/${id}`, { token: a.adminToken, body })).status).toBe(200);
      const [event] = h.events(before);
      expect(event!.kind).toBe("inbox_updated");
      expect((event!.payload.changed_attributes as object[]).map((c) => Object.keys(c)[0])).toEqual([
        key,
        "updated_at",
      ]);
    }
    expect(h.deps.repos.inboxes.byId(a.accountId, api.id)!.csat_config).toBe('{"message":"Rate us"}');
  });

  test("an update that changes nothing records no event and keeps updated_at", async () => {
    const { h, a, base } = await setup();
    const inbox = await makeInbox(h, a, { name: "API" });
    h.clock.advance(60_000);
    const before = h.lastEventId();
    const r = await h.request("PATCH", `${base}/${inbox.id}`, {
      token: a.adminToken,
      body: { name: "API", timezone: "UTC" },
    });
    expect(r.status).toBe(200);
    expect(h.events(before)).toEqual([]);
    expect(h.deps.repos.inboxes.byId(a.accountId, inbox.id)!.updated_at).toBe(inbox.updated_at);
  });

  test("working hours are replaced whole and shown back cleaned", async () => {
    const { h, a, base } = await setup();
    const inbox = await makeInbox(h, a);
    const r = await h.request("PATCH", `${base}/${inbox.id}`, {
      token: a.adminToken,
      body: {
        working_hours_enabled: true,
        working_hours: [
          { day_of_week: 1, open_hour: 9, close_hour: 12 },
          { day_of_week: 1, open_hour: "13", open_minutes: "30", close_hour: 18 },
          { day_of_week: 5, open_hour: 22, close_hour: 2 },
          { day_of_week: 0, closed_all_day: true },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.working_hours_enabled).toBe(true);
    expect(r.body.working_hours).toEqual([
      {
        day_of_week: 1,
        closed_all_day: false,
        open_all_day: false,
        open_hour: 9,
        open_minutes: 0,
        close_hour: 12,
        close_minutes: 0,
      },
      {
        day_of_week: 1,
        closed_all_day: false,
        open_all_day: false,
        open_hour: 13,
        open_minutes: 30,
        close_hour: 18,
        close_minutes: 0,
      },
      {
        day_of_week: 5,
        closed_all_day: false,
        open_all_day: false,
        open_hour: 22,
        open_minutes: 0,
        close_hour: 2,
        close_minutes: 0,
      },
      {
        day_of_week: 0,
        closed_all_day: true,
        open_all_day: false,
        open_hour: null,
        open_minutes: null,
        close_hour: null,
        close_minutes: null,
      },
    ]);
  });
});

describe("DELETE /inboxes/:id", () => {
  test("deletes the inbox with its memberships and records inbox_deleted", async () => {
    const { h, a, agent, base } = await setup();
    const inbox = await makeInbox(h, a);
    await addInboxMember(h, a, inbox.id, agent.userId);
    const before = h.lastEventId();
    const r = await h.request("DELETE", `${base}/${inbox.id}`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: "The inbox and its memberships were deleted." });
    expect(h.deps.repos.inboxes.byId(a.accountId, inbox.id)).toBeNull();
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM inbox_members").get()).toEqual({ n: 0 });
    expect(h.events(before).map((e) => [e.kind, e.inboxId])).toEqual([["inbox_deleted", inbox.id]]);
    expect((await h.request("GET", `${base}/${inbox.id}`, { token: a.adminToken })).status).toBe(404);
  });
});
