// Abuse limits of the public API: per address (every public request, even 404s), per contact
// (messages, new conversations), per address (new contacts). 429 with Retry-After and the error
// envelope; a refused request writes nothing; the limit recovers as time passes.
import { describe, expect, test } from "bun:test";
import { loadConfig, ConfigError, type PublicLimitsConfig } from "../../src/config.ts";
import { contactPath, messagesPath, newContact, openConversation, publicWorld } from "../helpers/public-fixtures.ts";

const OFF: PublicLimitsConfig = {
  requestsPerMinute: 0,
  messagesPerMinute: 0,
  conversationsPerHour: 0,
  contactsPerHour: 0,
};
const limited = async (limits: Partial<PublicLimitsConfig>, trustProxy = false) =>
  await publicWorld({}, { config: { publicLimits: { ...OFF, ...limits }, trustProxy } });
const from = (ip: string) => ({ "x-forwarded-for": `10.0.0.1, ${ip}` });

describe("per client address", () => {
  test("every public request counts, known identifiers or not; 429 with Retry-After, then recovery", async () => {
    const w = await limited({ requestsPerMinute: 3 });
    expect((await w.h.request("GET", w.base)).status).toBe(200);
    expect((await w.h.request("GET", "/public/api/v1/inboxes/guess-1")).status).toBe(404);
    expect((await w.h.request("GET", "/public/api/v1/nothing-here")).status).toBe(404);
    const r = await w.h.request("GET", w.base);
    expect([r.status, r.headers.get("retry-after")]).toEqual([429, "20"]);
    expect(r.body).toEqual({
      description: "Too many requests from this address",
      error: "Too many requests from this address",
      errors: [
        {
          field: "client_address",
          message: "Too many requests from this address; retry after 20 s",
          code: "rate_limited",
        },
      ],
    });
    // The account API is not the public API's business.
    expect((await w.h.request("GET", w.api, { token: w.a.adminToken })).status).toBe(200);
    w.h.clock.advance(20_000);
    expect((await w.h.request("GET", w.base)).status).toBe(200);
    expect((await w.h.request("GET", w.base)).status).toBe(429);
  });

  test("behind a trusted proxy each client address (IPv6: each /64) has its own bucket", async () => {
    const w = await limited({ requestsPerMinute: 1 }, true);
    expect((await w.h.request("GET", w.base, { headers: from("203.0.113.5") })).status).toBe(200);
    expect((await w.h.request("GET", w.base, { headers: from("203.0.113.5") })).status).toBe(429);
    expect((await w.h.request("GET", w.base, { headers: from("203.0.113.6") })).status).toBe(200);
    expect((await w.h.request("GET", w.base, { headers: from("2001:db8:1:2::1") })).status).toBe(200);
    expect((await w.h.request("GET", w.base, { headers: from("2001:db8:1:2::ffff") })).status).toBe(429);
  });
});

describe("per contact", () => {
  test("messages: the contact's bucket runs out, others' do not; nothing is written; recovery", async () => {
    const w = await limited({ messagesPerMinute: 2 });
    const c = await newContact(w);
    const other = await newContact(w);
    const conv = await openConversation(w, c);
    const otherConv = await openConversation(w, other);
    const send = (who = c, id = conv.id) => w.h.request("POST", messagesPath(w, who, id), { body: { content: "hi" } });
    expect([(await send()).status, (await send()).status]).toEqual([200, 200]);
    const before = w.h.lastEventId();
    const r = await send();
    expect([r.status, r.headers.get("retry-after"), r.body.errors]).toEqual([
      429,
      "30",
      [{ field: "contact", message: "Too many messages from this contact; retry after 30 s", code: "rate_limited" }],
    ]);
    expect(w.h.events(before)).toEqual([]);
    expect((await send(other, otherConv.id)).status).toBe(200);
    w.h.clock.advance(30_000);
    expect((await send()).status).toBe(200);
  });

  test("new conversations are stricter: per hour", async () => {
    const w = await limited({ conversationsPerHour: 2 });
    const c = await newContact(w);
    await openConversation(w, c);
    await openConversation(w, c);
    const r = await w.h.request("POST", `${contactPath(w, c)}/conversations`, { body: {} });
    expect([r.status, r.headers.get("retry-after"), r.body.description]).toEqual([
      429,
      "1800",
      "Too many new conversations from this contact",
    ]);
    expect((w.h.deps.db.query("SELECT count(*) AS n FROM conversations").get() as { n: number }).n).toBe(2);
  });
});

describe("new contacts per address", () => {
  test("contact creation has its own hourly bucket per address", async () => {
    const w = await limited({ contactsPerHour: 2 }, true);
    for (let i = 0; i < 2; i++)
      expect(
        (await w.h.request("POST", `${w.base}/contacts`, { body: {}, headers: from("198.51.100.1") })).status,
      ).toBe(200);
    const r = await w.h.request("POST", `${w.base}/contacts`, { body: {}, headers: from("198.51.100.1") });
    expect([r.status, r.headers.get("retry-after"), r.body.description]).toEqual([
      429,
      "1800",
      "Too many new contacts from this address",
    ]);
    expect((await w.h.request("POST", `${w.base}/contacts`, { body: {}, headers: from("198.51.100.2") })).status).toBe(
      200,
    );
    expect((w.h.deps.db.query("SELECT count(*) AS n FROM contacts").get() as { n: number }).n).toBe(3);
  });
});

describe("configuration", () => {
  test("defaults, environment overrides, and refusals of bad values", () => {
    expect(loadConfig({}, {}).publicLimits).toEqual({
      requestsPerMinute: 120,
      messagesPerMinute: 60,
      conversationsPerHour: 10,
      contactsPerHour: 100,
    });
    const env = {
      PARLEY_PUBLIC_REQUESTS_PER_MINUTE: "600",
      PARLEY_PUBLIC_MESSAGES_PER_MINUTE: "0",
      PARLEY_PUBLIC_CONVERSATIONS_PER_HOUR: "30",
      PARLEY_PUBLIC_CONTACTS_PER_HOUR: "5",
    };
    expect(loadConfig({}, env).publicLimits).toEqual({
      requestsPerMinute: 600,
      messagesPerMinute: 0,
      conversationsPerHour: 30,
      contactsPerHour: 5,
    });
    expect(() => loadConfig({}, { PARLEY_PUBLIC_MESSAGES_PER_MINUTE: "lots" })).toThrow(ConfigError);
  });
});
