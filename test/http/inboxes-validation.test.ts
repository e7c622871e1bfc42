// Bad inbox bodies: one error item per bad field, and nothing written.
import { describe, expect, test } from "bun:test";
import { makeAccount, makeInbox } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h);
  return { h, a, base: `/api/v1/accounts/${a.accountId}/inboxes` };
}

const pairs = (errors: { field: string; code: string }[]) => errors.map((e) => `${e.field}:${e.code}`);

describe("inbox validation", () => {
  const createCases: [string, Record<string, unknown>, string[]][] = [
    ["missing name and channel", {}, ["channel.type:required", "name:required"]],
    ["unknown channel type", { name: "X", channel: { type: "telegram" } }, ["channel.type:unsupported"]],
    ["bad time zone", { name: "X", channel: { type: "api" }, timezone: "Mars/Olympus" }, ["timezone:invalid"]],
    ["offset time zone", { name: "X", channel: { type: "api" }, timezone: "+01:00" }, ["timezone:invalid"]],
    [
      "webhook_url not http(s)",
      { name: "X", channel: { type: "api", webhook_url: "ftp://x.test" } },
      ["channel.webhook_url:invalid"],
    ],
    ["website without its URL", { name: "X", channel: { type: "web_widget" } }, ["channel.website_url:required"]],
    [
      "email inbox with a bad address",
      { name: "X", channel: { type: "email", email: "nope" } },
      ["channel.email:invalid"],
    ],
    [
      "phone inbox without E.164",
      { name: "X", channel: { type: "phone", phone_number: "0800 123" } },
      ["channel.phone_number:invalid"],
    ],
    [
      "unknown sender_name_type",
      { name: "X", channel: { type: "api" }, sender_name_type: "robot" },
      ["sender_name_type:invalid"],
    ],
    ["name too long", { name: "x".repeat(256), channel: { type: "api" } }, ["name:too_long"]],
    [
      "working_hours not an array",
      { name: "X", channel: { type: "api" }, working_hours: "9-5" },
      ["working_hours:invalid"],
    ],
    [
      "several at once",
      {
        name: "",
        channel: { type: "api" },
        timezone: "Nowhere/Land",
        working_hours: [{ day_of_week: 7, closed_all_day: true }],
      },
      ["name:required", "timezone:invalid", "working_hours[0].day_of_week:invalid"],
    ],
  ];

  for (const [label, body, expected] of createCases) {
    test(`create: ${label}`, async () => {
      const { h, a, base } = await setup();
      const r = await h.request("POST", base, { token: a.adminToken, body });
      expect(r.status).toBe(422);
      expect(pairs(r.body.errors).sort()).toEqual([...expected].sort());
      expect(h.deps.repos.inboxes.list(a.accountId)).toEqual([]);
      expect(h.events()).toEqual([]);
    });
  }

  test("overlapping and malformed working hours name the entry and field", async () => {
    const { h, a, base } = await setup();
    const inbox = await makeInbox(h, a);
    const overlap = await h.request("PATCH", `${base}/${inbox.id}`, {
      token: a.adminToken,
      body: {
        working_hours: [
          { day_of_week: 1, open_hour: 9, close_hour: 17 },
          { day_of_week: 1, open_hour: 16, close_hour: 18 },
        ],
      },
    });
    expect(overlap.status).toBe(422);
    expect(overlap.body.errors).toEqual([
      { field: "working_hours[1]", message: "overlaps working_hours[0]", code: "overlap" },
    ]);

    const malformed = await h.request("PATCH", `${base}/${inbox.id}`, {
      token: a.adminToken,
      body: {
        working_hours: [
          { day_of_week: 9, open_hour: 9, close_hour: 17 },
          { day_of_week: 2, open_hour: 25, close_hour: 17 },
          { day_of_week: 3 },
        ],
      },
    });
    expect(malformed.status).toBe(422);
    expect(pairs(malformed.body.errors)).toEqual([
      "working_hours[0].day_of_week:invalid",
      "working_hours[1].open_hour:invalid",
      "working_hours[2].open_hour:required",
      "working_hours[2].close_hour:required",
    ]);
    // Friday 22:00 to Saturday 02:00 overlaps an early Saturday interval.
    const overnight = await h.request("PATCH", `${base}/${inbox.id}`, {
      token: a.adminToken,
      body: {
        working_hours: [
          { day_of_week: 5, open_hour: 22, close_hour: 2 },
          { day_of_week: 6, open_hour: 1, close_hour: 4 },
        ],
      },
    });
    expect(overnight.body.errors).toEqual([
      { field: "working_hours[1]", message: "overlaps working_hours[0]", code: "overlap" },
    ]);
    expect(h.deps.repos.inboxes.byId(a.accountId, inbox.id)!.working_hours).toBe(inbox.working_hours);
  });

  test("update: the channel type cannot change, flags must be booleans, objects must be objects", async () => {
    const { h, a, base } = await setup();
    const inbox = await makeInbox(h, a);
    const before = h.lastEventId();
    const r = await h.request("PATCH", `${base}/${inbox.id}`, {
      token: a.adminToken,
      body: { channel: { type: "email" }, csat_survey_enabled: "maybe", csat_config: "x" },
    });
    expect(r.status).toBe(422);
    expect(pairs(r.body.errors).sort()).toEqual(["csat_config:invalid", "csat_survey_enabled:invalid"]);
    const typeChange = await h.request("PATCH", `${base}/${inbox.id}`, {
      token: a.adminToken,
      body: { channel: { type: "email" } },
    });
    expect(typeChange.body.errors).toEqual([
      { field: "channel.type", message: "cannot be changed; create a new inbox instead", code: "invalid" },
    ]);
    const blankName = await h.request("PATCH", `${base}/${inbox.id}`, { token: a.adminToken, body: { name: " " } });
    expect(pairs(blankName.body.errors)).toEqual(["name:required"]);
    expect(h.deps.repos.inboxes.byId(a.accountId, inbox.id)).toEqual(inbox);
    expect(h.events(before)).toEqual([]);
  });

  test("settings that do not apply to the channel type are ignored, as in Chatwoot", async () => {
    const { h, a, base } = await setup();
    const r = await h.request("POST", base, {
      token: a.adminToken,
      body: {
        name: "Mail",
        channel: { type: "email", email: "a@b.test", webhook_url: "https://x.test", website_url: "https://y.test" },
      },
    });
    expect(r.status).toBe(200);
    expect(h.deps.repos.inboxes.byId(a.accountId, r.body.id)!.webhook_url).toBeNull();
    expect(r.body.website_url).toBeNull();
  });
});
