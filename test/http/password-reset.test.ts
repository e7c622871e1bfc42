// POST /auth/password mails a reset link through the installation's SMTP server (a real one here,
// recording what arrives); PUT /auth/password sets the new password with the link's token.
import { afterEach, describe, expect, test } from "bun:test";
import { RESET_LINK_SECONDS, RESET_REQUESTED } from "../../src/domain/password-resets.service.ts";
import { readNow } from "../../src/db/reads.ts";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { PASSWORD, cookieOf, givePassword, signIn } from "../helpers/sessions.ts";
import { recorderPerTest, smtpUrlOf, type SmtpRecorder } from "../mail/smtp-recorder.ts";

const NEW_PASSWORD = "a brand new passphrase";
const startRecorder = recorderPerTest(afterEach);

async function setup() {
  const recorder = await startRecorder();
  const h = createHarness({
    env: {
      PARLEY_SMTP_URL: smtpUrlOf(recorder),
      PARLEY_MAIL_FROM: "Acme Help <help@acme.test>",
      PARLEY_PUBLIC_URL: "https://help.acme.test",
    },
  });
  const a = await makeAccount(h, "Acme");
  const bea = await makeMember(h, a.accountId, "agent", "Bea");
  await givePassword(h, bea.userId);
  return { h, a, bea, smtp: recorder };
}

const ask = (h: Harness, email: unknown) => h.request("POST", "/auth/password", { body: { email } });
const reset = (h: Harness, body: Record<string, unknown>) => h.request("PUT", "/auth/password", { body });

/**
 * Sends what is due and returns the token of the nth mail's link. The sender's reads and
 * bookkeeping never hold the process through PostgreSQL's bridge in place.
 */
async function tokenOf(h: Harness, smtp: SmtpRecorder, n: number): Promise<string> {
  expect(await inPlaceDuring(() => h.deps.mail.resetSender.drain())).toEqual([]);
  const mail = await smtp.mail(n);
  const link = /https:\/\/help\.acme\.test\/app\/auth\/password\/edit\?reset_password_token=([\w-]+)/.exec(
    mail.parsed.text ?? "",
  );
  if (!link) throw new Error(`no reset link in mail ${n}: ${mail.parsed.text}`);
  return link[1]!;
}

describe("POST /auth/password", () => {
  test("mails the user a link that sets a new password once, signs in, and ends the other sessions", async () => {
    const { h, bea, smtp } = await setup();
    const before = await signIn(h, bea.email);
    const asked = await ask(h, bea.email.toUpperCase());
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ message: RESET_REQUESTED });
    const token = await tokenOf(h, smtp, 1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toEqual([bea.email]);
    expect(mail.parsed.from?.text).toBe('"Acme Help" <help@acme.test>');
    expect(mail.parsed.subject).toBe("Reset your Parley password");
    expect(mail.parsed.text).toContain("within 6 hours");

    const done = await reset(h, {
      reset_password_token: token,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ id: bea.userId, email: bea.email });
    expect(done.body.csrf_token).toHaveLength(43);
    const session = await h.request("GET", "/auth/session", { headers: { cookie: cookieOf(done) } });
    expect(session.body.data.id).toBe(bea.userId);
    expect((await h.request("GET", "/auth/session", { headers: { cookie: before.cookie } })).status).toBe(401);
    expect((await h.request("POST", "/auth/sign_in", { body: { email: bea.email, password: PASSWORD } })).status).toBe(
      401,
    );
    expect((await signIn(h, bea.email, NEW_PASSWORD)).response.status).toBe(200);

    const again = await reset(h, { reset_password_token: token, password: "yet another passphrase" });
    expect(again.status).toBe(422);
    expect(again.body.description).toBe("Invalid token");
    expect(again.body.errors[0].field).toBe("reset_password_token");
    expect((await signIn(h, bea.email, NEW_PASSWORD)).response.status).toBe(200);
  });

  test("an unknown address gets the same answer and no mail", async () => {
    const { h, bea, smtp } = await setup();
    const unknown = await ask(h, "nobody@acme.test");
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ message: RESET_REQUESTED });
    await ask(h, bea.email);
    await tokenOf(h, smtp, 1);
    expect(smtp.mails.map((m) => m.to)).toEqual([[bea.email]]);
  });

  test("a second request within a minute sends nothing; a later one replaces the first link", async () => {
    const { h, bea, smtp } = await setup();
    await ask(h, bea.email);
    const first = await tokenOf(h, smtp, 1);
    h.clock.advance(59_000);
    await ask(h, bea.email);
    await h.deps.mail.resetSender.drain();
    expect(smtp.mails).toHaveLength(1);
    h.clock.advance(2_000);
    await ask(h, bea.email);
    const second = await tokenOf(h, smtp, 2);
    expect(second).not.toBe(first);
    expect((await reset(h, { reset_password_token: first, password: NEW_PASSWORD })).status).toBe(422);
    expect((await reset(h, { reset_password_token: second, password: NEW_PASSWORD })).status).toBe(200);
  });

  test("a link older than six hours, or asked for before a password change, no longer works", async () => {
    const { h, bea, smtp } = await setup();
    await ask(h, bea.email);
    const token = await tokenOf(h, smtp, 1);
    h.clock.advance(RESET_LINK_SECONDS * 1000);
    const late = await reset(h, { reset_password_token: token, password: NEW_PASSWORD });
    expect(late.status).toBe(422);
    expect(late.body.errors[0]).toMatchObject({ field: "reset_password_token", code: "invalid" });
    expect((await signIn(h, bea.email)).response.status).toBe(200);

    h.clock.advance(61_000);
    await ask(h, bea.email);
    const fresh = await tokenOf(h, smtp, 2);
    await h.deps.services.passwords.set(bea.userId, "set by an administrator");
    expect((await reset(h, { reset_password_token: fresh, password: NEW_PASSWORD })).status).toBe(422);
    expect((await signIn(h, bea.email, "set by an administrator")).response.status).toBe(200);
  });

  test("bad input is a 422 naming the field, and a refused new password leaves the link usable", async () => {
    const { h, bea, smtp } = await setup();
    for (const [email, code] of [
      [undefined, "required"],
      ["", "required"],
      ["not-an-address", "invalid"],
      [42, "invalid"],
      [`${"a".repeat(300)}@acme.test`, "too_long"],
    ] as const) {
      const r = await ask(h, email);
      expect({ email, status: r.status, field: r.body.errors?.[0]?.field }).toEqual({
        email,
        status: 422,
        field: "email",
      });
      expect(r.body.errors[0].code).toBe(code);
    }
    await ask(h, bea.email);
    const token = await tokenOf(h, smtp, 1);
    for (const [body, field] of [
      [{}, "reset_password_token"],
      [{ reset_password_token: 7, password: NEW_PASSWORD }, "reset_password_token"],
      [{ reset_password_token: "a\u0000b", password: NEW_PASSWORD }, "reset_password_token"],
      [{ reset_password_token: "x".repeat(10_000), password: NEW_PASSWORD }, "reset_password_token"],
      [{ reset_password_token: token }, "password"],
      [{ reset_password_token: token, password: "short" }, "password"],
      [{ reset_password_token: token, password: ["a", "list"] }, "password"],
      [
        { reset_password_token: token, password: NEW_PASSWORD, password_confirmation: "something else" },
        "password_confirmation",
      ],
    ] as const) {
      const r = await reset(h, body);
      expect({ body, status: r.status, got: r.body.errors?.[0]?.field }).toEqual({ body, status: 422, got: field });
    }
    expect((await signIn(h, bea.email)).response.status).toBe(200);
    expect((await reset(h, { reset_password_token: token, password: NEW_PASSWORD })).status).toBe(200);
  });

  test("a send that never reported back (a crash) is sent again; a refused one is given up", async () => {
    const { h, bea, smtp } = await setup();
    await ask(h, bea.email);
    const repo = h.deps.repos.passwordResets;
    const row = readNow(repo.readByUser(bea.userId))!;
    // What a process that died mid-send leaves: the attempt claimed, no result recorded.
    const now = Math.floor(h.clock.nowMs() / 1000);
    expect(await h.deps.writeTx.steps(() => repo.recordAttemptSteps(row, now, now + 300))).toBe(true);
    await h.deps.mail.resetSender.drain();
    expect(smtp.mails).toHaveLength(0);
    h.clock.advance(301_000);
    const token = await tokenOf(h, smtp, 1);
    expect(readNow(repo.readByUser(bea.userId))).toMatchObject({ mail_state: "sent", attempts: 2, sealed_token: null });

    smtp.refuseRecipients("5.1.1 mailbox unavailable");
    h.clock.advance(61_000);
    await ask(h, bea.email);
    await h.deps.mail.resetSender.drain();
    expect(readNow(repo.readByUser(bea.userId))).toMatchObject({ mail_state: "failed", sealed_token: null });
    expect(readNow(repo.readByUser(bea.userId))!.last_error).toContain("mailbox unavailable");
    // The refused request replaced the earlier link.
    expect((await reset(h, { reset_password_token: token, password: NEW_PASSWORD })).status).toBe(422);
  });
});

test("without a mail server, asking for a link is a 503 that says so", async () => {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const bea = await makeMember(h, a.accountId, "agent", "Bea");
  const r = await ask(h, bea.email);
  expect(r.status).toBe(503);
  expect(r.body.errors[0]).toMatchObject({ field: "email", code: "mail_not_configured" });
  expect(readNow(h.deps.repos.passwordResets.readByUser(bea.userId))).toBeNull();
  expect((await ask(h, "not-an-address")).status).toBe(422);
});

test("asking is limited as Chatwoot limits it: 5 per 30 minutes from an address, 5 an hour for an email", async () => {
  const h = createHarness({ env: { PARLEY_SMTP_URL: "smtp://127.0.0.1:2525", PARLEY_TRUST_PROXY: "1" } });
  const from = (ip: string, email: string) =>
    h.request("POST", "/auth/password", { body: { email }, headers: { "x-forwarded-for": ip } });
  for (let i = 0; i < 5; i++) expect((await from("203.0.113.7", `someone${i}@acme.test`)).status).toBe(200);
  const sixth = await from("203.0.113.7", "someone-else@acme.test");
  expect(sixth.status).toBe(429);
  expect(sixth.headers.get("retry-after")).toBe("1800");
  expect(sixth.body.errors[0]).toMatchObject({ field: "email", code: "rate_limited" });
  expect((await from("198.51.100.1", "someone-else@acme.test")).status).toBe(200); // another address

  for (let i = 2; i <= 5; i++) expect((await from(`198.51.100.${i}`, "target@acme.test")).status).toBe(200);
  expect((await from("198.51.100.9", "target@acme.test")).status).toBe(200);
  expect((await from("198.51.100.10", "TARGET@acme.test")).status).toBe(429); // the sixth for that email
  h.clock.advance(30 * 60_000);
  expect((await from("203.0.113.7", "someone-new@acme.test")).status).toBe(200);
  expect((await from("198.51.100.11", "target@acme.test")).status).toBe(429);
  h.clock.advance(30 * 60_000);
  expect((await from("198.51.100.11", "target@acme.test")).status).toBe(200);
});
