// A new agent added by an administrator gets a mail with a link to choose their password (when the
// server has an SMTP server), committed with the agent; the link is PUT /auth/password's.
import { afterEach, expect, test } from "bun:test";
import { readNow } from "../../src/db/reads.ts";
import { INVITATION_LINK_SECONDS } from "../../src/domain/password-resets.service.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { givePassword, signIn } from "../helpers/sessions.ts";
import { recorderPerTest, smtpUrlOf } from "../mail/smtp-recorder.ts";

const startRecorder = recorderPerTest(afterEach);

async function world() {
  const recorder = await startRecorder();
  const h = createHarness({
    env: { PARLEY_SMTP_URL: smtpUrlOf(recorder), PARLEY_PUBLIC_URL: "https://help.acme.test" },
  });
  return { h, a: await makeAccount(h, "Acme Shop"), smtp: recorder };
}

const addAgent = (h: Harness, accountId: number, token: string, body: Record<string, unknown>) =>
  h.request("POST", `/api/v1/accounts/${accountId}/agents`, { token, body });

const linkToken = (text: string | undefined) => /reset_password_token=([\w-]+)/.exec(text ?? "")?.[1] ?? "";

test("a new agent is mailed a link, good for a week, that sets their password and signs them in", async () => {
  const { h, a, smtp } = await world();
  const added = await addAgent(h, a.accountId, a.adminToken, { name: "Nia New", email: "nia@acme.test" });
  expect(added.status).toBe(200);
  await h.deps.mail.resetSender.drain();
  const mail = await smtp.mail(1);
  expect(mail.to).toEqual(["nia@acme.test"]);
  expect(mail.parsed.subject).toBe("You are invited to Acme Shop on Parley");
  expect(mail.parsed.text).toContain("within 7 days");
  expect(mail.parsed.text).toContain("https://help.acme.test/app/auth/password/edit?reset_password_token=");

  h.clock.advance((INVITATION_LINK_SECONDS - 60) * 1000);
  const done = await h.request("PUT", "/auth/password", {
    body: { reset_password_token: linkToken(mail.parsed.text), password: "nia's own passphrase" },
  });
  expect(done.status).toBe(200);
  expect(done.body.data).toMatchObject({ id: added.body.id, email: "nia@acme.test" });
  expect(done.body.data.accounts.map((x: { id: number }) => x.id)).toEqual([a.accountId]);
  expect((await signIn(h, "nia@acme.test", "nia's own passphrase")).response.status).toBe(200);
});

test("an invitation expires after a week; someone who already has a password is not mailed", async () => {
  const { h, a, smtp } = await world();
  const other = await makeAccount(h, "Other Shop");
  const known = await makeMember(h, other.accountId, "agent", "Kim Known");
  await givePassword(h, known.userId);
  expect((await addAgent(h, a.accountId, a.adminToken, { name: "Kim", email: known.email })).status).toBe(200);
  expect((await addAgent(h, a.accountId, a.adminToken, { name: "Lee Late", email: "lee@acme.test" })).status).toBe(200);
  await h.deps.mail.resetSender.drain();
  const mail = await smtp.mail(1);
  expect(smtp.mails.map((m) => m.to)).toEqual([["lee@acme.test"]]);
  h.clock.advance(INVITATION_LINK_SECONDS * 1000);
  const late = await h.request("PUT", "/auth/password", {
    body: { reset_password_token: linkToken(mail.parsed.text), password: "too late for this" },
  });
  expect(late.status).toBe(422);
  expect(late.body.errors[0].field).toBe("reset_password_token");
});

test("a refused agent is not invited; without a mail server agents are added and nobody is mailed", async () => {
  const { h, a, smtp } = await world();
  const taken = await addAgent(h, a.accountId, a.adminToken, { name: "Bad", email: "not-an-address" });
  expect(taken.status).toBe(422);
  const agent = await makeMember(h, a.accountId, "agent", "Ada Agent");
  const byAgent = await addAgent(h, a.accountId, agent.token, { name: "Sneaky", email: "sneaky@acme.test" });
  expect(byAgent.status).toBe(403);
  expect(h.deps.repos.users.byEmail("sneaky@acme.test")).toBeNull();
  await h.deps.mail.resetSender.drain();
  expect(smtp.mails).toHaveLength(0);
  expect(readNow(h.deps.repos.passwordResets.readDue(Number.MAX_SAFE_INTEGER, 10))).toEqual([]);

  const plain = createHarness();
  const b = await makeAccount(plain, "No Mail Shop");
  const r = await addAgent(plain, b.accountId, b.adminToken, { name: "Pat", email: "pat@acme.test" });
  expect(r.status).toBe(200);
  expect(readNow(plain.deps.repos.passwordResets.readByUser(r.body.id))).toBeNull();
});

test("an invited agent is unconfirmed until they choose a password; an administrator can mail the invitation again", async () => {
  const { h, a, smtp } = await world();
  const added = await addAgent(h, a.accountId, a.adminToken, { name: "Ola Once", email: "ola@acme.test" });
  expect(added.body.confirmed).toBe(false);
  const again = (token = a.adminToken, id = added.body.id, accountId = a.accountId) =>
    h.request("POST", `/api/v1/accounts/${accountId}/agents/${id}/invitation`, { token });
  await h.deps.mail.resetSender.drain();
  const first = linkToken((await smtp.mail(1)).parsed.text);

  const resent = await again();
  expect(resent.status).toBe(200);
  expect(resent.body).toMatchObject({ id: added.body.id, confirmed: false });
  await h.deps.mail.resetSender.drain();
  const second = await smtp.mail(2);
  expect(second.parsed.subject).toBe("You are invited to Acme Shop on Parley");
  const put = (token: string) =>
    h.request("PUT", "/auth/password", { body: { reset_password_token: token, password: "ola chose this one" } });
  expect((await put(first)).status).toBe(422); // the earlier link ended
  expect((await put(linkToken(second.parsed.text))).status).toBe(200);
  const listed = await h.request("GET", `/api/v1/accounts/${a.accountId}/agents`, { token: a.adminToken });
  expect(listed.body.find((x: { id: number }) => x.id === added.body.id).confirmed).toBe(true);

  const done = await again();
  expect(done.status).toBe(422);
  expect(done.body.errors[0]).toMatchObject({ field: "id", code: "confirmed" });
  const agent = await makeMember(h, a.accountId, "agent", "Ada Agent");
  expect((await again(agent.token)).status).toBe(403);
  const other = await makeAccount(h, "Other Shop");
  expect((await again(other.adminToken, added.body.id, other.accountId)).status).toBe(404);
  expect(smtp.mails).toHaveLength(2);
});

test("without a mail server an invitation cannot be sent again: a 503 that says so", async () => {
  const h = createHarness();
  const a = await makeAccount(h, "No Mail Shop");
  const added = await addAgent(h, a.accountId, a.adminToken, { name: "Pat", email: "pat@acme.test" });
  expect(added.body.confirmed).toBe(false);
  const r = await h.request("POST", `/api/v1/accounts/${a.accountId}/agents/${added.body.id}/invitation`, {
    token: a.adminToken,
  });
  expect(r.status).toBe(503);
  expect(r.body.errors[0].code).toBe("mail_not_configured");
  await h.deps.services.passwords.set(added.body.id, "set on the server");
  const after = await h.request("GET", `/api/v1/accounts/${a.accountId}/agents`, { token: a.adminToken });
  expect(after.body.find((x: { id: number }) => x.id === added.body.id).confirmed).toBe(true);
});

test("the mail speaks the account's language (es, pt_BR), English otherwise", async () => {
  const { h, a, smtp } = await world();
  const locale = (l: string) =>
    h.request("PATCH", `/api/v1/accounts/${a.accountId}`, { token: a.adminToken, body: { locale: l } });
  expect((await locale("es")).status).toBe(200);
  await addAgent(h, a.accountId, a.adminToken, { name: "Elena", email: "elena@acme.test" });
  await h.deps.mail.resetSender.drain(); // written in the account's language at the time it is sent
  await locale("fr");
  await addAgent(h, a.accountId, a.adminToken, { name: "Fleur", email: "fleur@acme.test" });
  await h.deps.mail.resetSender.drain();
  await smtp.mail(2);
  const by = (to: string) => smtp.mails.find((m) => m.to[0] === to)!.parsed;
  expect(by("elena@acme.test").subject).toBe("Te han invitado a Acme Shop en Parley");
  expect(by("elena@acme.test").text).toContain("Hola, Elena:");
  expect(by("fleur@acme.test").subject).toBe("You are invited to Acme Shop on Parley");
});
