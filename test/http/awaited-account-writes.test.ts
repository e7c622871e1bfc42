// A user's own credentials and devices as awaited bodies (writeTx.steps): signing in, a new API
// token, signing out everywhere, a password set by an administrator's command, a reset link asked
// for and used, a phone registered for pushes and removed, and the profile's own changes. What they
// change is checked on both engines; on PostgreSQL none of them sends a statement through the
// synchronous bridge in place.
import { afterEach, describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { givePassword, PASSWORD, signIn } from "../helpers/sessions.ts";
import { recorderPerTest, smtpUrlOf } from "../mail/smtp-recorder.ts";

const startRecorder = recorderPerTest(afterEach);

async function setup() {
  const smtp = await startRecorder();
  const h = createHarness({ env: { PARLEY_SMTP_URL: smtpUrlOf(smtp), PARLEY_PUBLIC_URL: "https://help.acme.test" } });
  const a = await makeAccount(h, "Acme");
  const bea = await makeMember(h, a.accountId, "agent", "Bea Agent");
  await givePassword(h, bea.userId);
  return { h, a, bea, smtp };
}

const sessionCount = (h: ReturnType<typeof createHarness>) =>
  (h.deps.db.query("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;

describe("a user's credentials, awaited", () => {
  test("a new API token, then signing out everywhere", async () => {
    const { h, bea } = await setup();
    await signIn(h, bea.email);
    const answers: unknown[] = [];
    let fresh = "";
    let browser = { cookie: "", csrf: "" };
    const blocking = await inPlaceDuring(async () => {
      const wrong = await h.request("POST", "/auth/sign_in", { body: { email: bea.email, password: "not it" } });
      answers.push(wrong.status);
      browser = await signIn(h, bea.email); // the user read on the pool, the session an awaited body
      const reset = await h.request("POST", "/api/v1/profile/reset_access_token", { token: bea.token });
      fresh = reset.body.access_token;
      answers.push([reset.status, fresh !== bea.token]);
      answers.push((await h.request("GET", "/api/v1/profile", { token: bea.token })).status);
      const everywhere = await h.request("DELETE", "/auth/sessions", {
        headers: { cookie: browser.cookie, "x-csrf-token": browser.csrf },
      });
      answers.push([everywhere.status, everywhere.body]);
    });
    expect(answers).toEqual([401, [200, true], 401, [200, { success: true, sessions_ended: 2 }]]);
    expect(blocking).toEqual([]);
    expect(sessionCount(h)).toBe(0);
    expect((await h.request("GET", "/api/v1/profile", { token: fresh })).status).toBe(200);
  });

  test("a reset link asked for and used; a password set by the command line ends the sessions", async () => {
    const { h, bea, smtp } = await setup();
    await signIn(h, bea.email);
    const answers: unknown[] = [];
    const asked = await inPlaceDuring(async () => {
      answers.push((await h.request("POST", "/auth/password", { body: { email: bea.email } })).status);
      answers.push((await h.request("POST", "/auth/password", { body: { email: "nobody@acme.test" } })).status);
    });
    await h.deps.mail.resetSender.drain();
    const mail = await smtp.mail(1);
    const token = /reset_password_token=([\w-]+)/.exec(mail.parsed.text ?? "")![1]!;
    const used = await inPlaceDuring(async () => {
      const body = {
        reset_password_token: token,
        password: "a-new-secret-42",
        password_confirmation: "a-new-secret-42",
      };
      answers.push((await h.request("PUT", "/auth/password", { body })).status);
      answers.push((await h.request("PUT", "/auth/password", { body })).status);
      answers.push(await h.deps.services.passwords.set(bea.userId, "another-secret-43"));
    });
    expect(answers).toEqual([200, 200, 200, 422, 1]);
    expect([asked, used]).toEqual([[], []]);
    expect(smtp.mails).toHaveLength(1);
    expect(sessionCount(h)).toBe(0);
    expect(
      (await h.request("POST", "/auth/sign_in", { body: { email: bea.email, password: "another-secret-43" } })).status,
    ).toBe(200);
  });

  test("a phone registered for pushes, then removed by its token", async () => {
    const { h, bea } = await setup();
    const device = {
      subscription_type: "fcm",
      subscription_attributes: { push_token: "fcm-1", device_id: "pixel-8", deviceName: "Pixel 8" },
    };
    const answers: unknown[] = [];
    const blocking = await inPlaceDuring(async () => {
      const made = await h.request("POST", "/api/v1/notification_subscriptions", { token: bea.token, body: device });
      answers.push([made.status, made.body.subscription_attributes.push_token, made.body.user_id]);
      const gone = await h.request("DELETE", "/api/v1/notification_subscriptions", {
        token: bea.token,
        body: { push_token: "fcm-1" },
      });
      answers.push(gone.status);
    });
    expect(answers).toEqual([[200, "fcm-1", bea.userId], 200]);
    expect(blocking).toEqual([]);
    expect(h.deps.db.query("SELECT COUNT(*) AS n FROM notification_subscriptions").get()).toEqual({ n: 0 });
  });

  test("an agent's availability and active account", async () => {
    const { h, a: acme, bea } = await setup();
    const b = await makeAccount(h, "Globex");
    await h.deps.services.accounts.addMember(b.accountId, bea.userId, "agent");
    const a = acme.accountId;
    const answers: unknown[] = [];
    const blocking = await inPlaceDuring(async () => {
      const busy = await h.request("POST", "/api/v1/profile/availability", {
        token: bea.token,
        body: { profile: { account_id: a, availability: "busy" } },
      });
      answers.push([busy.status, busy.body.accounts.find((x: { id: number }) => x.id === a)?.availability]);
      const wrong = await h.request("POST", "/api/v1/profile/availability", {
        token: bea.token,
        body: { profile: { account_id: a, availability: "away" } },
      });
      answers.push(wrong.status);
      const stranger = await h.request("POST", "/api/v1/profile/availability", {
        token: bea.token,
        body: { profile: { account_id: a + 999, availability: "busy" } },
      });
      answers.push(stranger.status);
      const active = await h.request("PUT", "/api/v1/profile/set_active_account", {
        token: bea.token,
        body: { profile: { account_id: b.accountId } },
      });
      answers.push(active.status);
    });
    expect(answers).toEqual([[200, "busy"], 422, 404, 200]);
    expect(blocking).toEqual([]);
    const profile = await h.request("GET", "/api/v1/profile", { token: bea.token });
    expect(profile.body.account_id).toBe(b.accountId);
  });

  test("a profile's update: name and signature, an email taken, a wrong and a right current password", async () => {
    const { h, a, bea } = await setup();
    const cid = await makeMember(h, a.accountId, "agent", "Cid Agent");
    await signIn(h, bea.email);
    const put = (profile: Record<string, unknown>) =>
      h.request("PUT", "/api/v1/profile", { token: bea.token, body: { profile } });
    const answers: unknown[] = [];
    const blocking = await inPlaceDuring(async () => {
      const named = await put({ name: "Bea Renamed", message_signature: "Bea\r\nAcme support " });
      answers.push([named.status, named.body.name, named.body.message_signature]);
      const taken = await put({ email: cid.email });
      answers.push([taken.status, taken.body.errors]);
      const wrong = await put({ current_password: "not it", password: "a new password 1" });
      answers.push([wrong.status, wrong.body.errors]);
      const right = await put({ current_password: PASSWORD, password: "a new password 1" });
      answers.push(right.status);
    });
    expect(answers).toEqual([
      [200, "Bea Renamed", "Bea\nAcme support"],
      [422, [{ field: "email", message: "has already been taken", code: "taken" }]],
      [422, [{ field: "current_password", message: "Invalid current password", code: "invalid" }]],
      200,
    ]);
    expect(blocking).toEqual([]);
    // The new password ended the browser session; the old one no longer signs in.
    expect(sessionCount(h)).toBe(0);
    expect((await h.request("POST", "/auth/sign_in", { body: { email: bea.email, password: PASSWORD } })).status).toBe(
      401,
    );
    expect(
      (await h.request("POST", "/auth/sign_in", { body: { email: bea.email, password: "a new password 1" } })).status,
    ).toBe(200);
  });
});
