// Sign-in attempts are limited per address (5 / 5 min) and per email (10 / 15 min); only failures count.
import { describe, expect, test } from "bun:test";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { PASSWORD, givePassword } from "../helpers/sessions.ts";

async function setup() {
  // Trust the proxy so tests can choose the client address with X-Forwarded-For.
  const h = createHarness({ env: { PARLEY_TRUST_PROXY: "1" } });
  const a = await makeAccount(h);
  const agent = await makeMember(h, a.accountId, "agent");
  await givePassword(h, agent.userId);
  return { h, agent };
}

const attempt = (h: Harness, email: string, password: string, ip = "203.0.113.7") =>
  h.request("POST", "/auth/sign_in", {
    body: { email, password },
    headers: { "x-forwarded-for": `198.51.100.1, ${ip}` },
  });

describe("sign-in rate limits", () => {
  test("the 6th failure from one address in 5 minutes is 429 with Retry-After, even with the right password", async () => {
    const { h, agent } = await setup();
    for (let i = 0; i < 5; i++) expect((await attempt(h, `guess${i}@example.com`, "nope-nope")).status).toBe(401);
    h.clock.advance(60_000);
    const limited = await attempt(h, agent.email, PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("240");
    expect(limited.body.errors).toEqual([
      { field: "sign_in", message: "Too many sign-in attempts; retry after 240 s", code: "rate_limited" },
    ]);
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM sessions").get()).toEqual({ n: 0 });
    // Another address is not affected; this one is again once the window has passed.
    expect((await attempt(h, agent.email, PASSWORD, "203.0.113.8")).status).toBe(200);
    h.clock.advance(240_000);
    expect((await attempt(h, agent.email, PASSWORD)).status).toBe(200);
  });

  test("successful sign-ins do not count: a whole office behind one address can sign in", async () => {
    const { h, agent } = await setup();
    for (let i = 0; i < 12; i++) expect((await attempt(h, agent.email, PASSWORD)).status).toBe(200);
  });

  test("the 11th failure for one email in 15 minutes is 429 whatever the address", async () => {
    const { h, agent } = await setup();
    for (let i = 0; i < 10; i++) expect((await attempt(h, agent.email, "nope-nope", `192.0.2.${i}`)).status).toBe(401);
    const limited = await attempt(h, agent.email, PASSWORD, "192.0.2.99");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("900");
    // The refused attempt did not use up the new address's allowance.
    for (let i = 0; i < 4; i++)
      expect((await attempt(h, `other${i}@example.com`, "nope-nope", "192.0.2.99")).status).toBe(401);
    expect((await attempt(h, "other@example.com", "nope-nope", "192.0.2.99")).status).toBe(401);
    expect((await attempt(h, "other@example.com", "nope-nope", "192.0.2.99")).status).toBe(429);
  });

  test("emails are counted case-insensitively", async () => {
    const { h, agent } = await setup();
    for (let i = 0; i < 10; i++)
      await attempt(h, i % 2 ? agent.email.toUpperCase() : agent.email, "nope-nope", `192.0.2.${i}`);
    expect((await attempt(h, agent.email, PASSWORD, "192.0.2.50")).status).toBe(429);
  });
});
