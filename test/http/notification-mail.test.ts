// Notifications by email: an agent's chosen email_* flags, mailed through the installation's SMTP
// server a minute after the notification unless the agent has read it by then.
import { afterEach, expect, test } from "bun:test";
import { NOTIFICATION_MAIL_DELAY_SECONDS } from "../../src/domain/notifications.service.ts";
import { newConversation, send, world, type World } from "../helpers/conversation-fixtures.ts";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { recorderPerTest, smtpUrlOf } from "../mail/smtp-recorder.ts";

const startRecorder = recorderPerTest(afterEach);

async function mailWorld() {
  const recorder = await startRecorder();
  const w = await world({ env: { PARLEY_SMTP_URL: smtpUrlOf(recorder), PARLEY_PUBLIC_URL: "https://help.acme.test" } });
  return { w, smtp: recorder };
}

/**
 * Lets the notifications listener catch up, moves past the mail delay, and sends what is due; the
 * sender's reads and bookkeeping never hold the process through PostgreSQL's bridge in place.
 */
async function deliver(w: World, seconds = NOTIFICATION_MAIL_DELAY_SECONDS) {
  await w.h.deps.bus.drain();
  w.h.clock.advance(seconds * 1000);
  expect(await inPlaceDuring(() => w.h.deps.mail.notificationSender.drain())).toEqual([]);
}

const setFlags = (w: World, token: string, flags: string[]) =>
  w.h.request("PATCH", `${w.base}/notification_settings`, {
    token,
    body: { notification_settings: { selected_email_flags: flags } },
  });

test("a new conversation and an assignment are mailed to the agent a minute later, with a link", async () => {
  const { w, smtp } = await mailWorld();
  const c = await newConversation(w);
  await w.h.deps.bus.drain();
  w.h.clock.advance((NOTIFICATION_MAIL_DELAY_SECONDS - 1) * 1000);
  await w.h.deps.mail.notificationSender.drain();
  expect(smtp.mails).toHaveLength(0); // not yet: the agent may still be looking at the screen
  await deliver(w, 1);
  const created = await smtp.mail(1);
  expect(created.to).toEqual([w.agent.email]);
  expect(created.parsed.subject).toBe(`[Acme] New conversation #${c.id} in API`);
  expect(created.parsed.text).toContain(
    `Open the conversation: https://help.acme.test/app/accounts/${w.a.accountId}/conversations/${c.id}`,
  );

  await w.h.request("POST", `${w.base}/conversations/${c.id}/assignments`, {
    token: w.a.adminToken,
    body: { assignee_id: w.agent.userId },
  });
  await deliver(w);
  expect((await smtp.mail(2)).parsed.subject).toBe(`[Acme] Conversation #${c.id} is assigned to you`);
  expect(smtp.mails).toHaveLength(2); // the administrator (the creator, outside the inbox) got none
});

test("a notification read within the minute is not mailed; several messages make one mail", async () => {
  const { w, smtp } = await mailWorld();
  const c = await newConversation(w, { assignee_id: w.agent.userId });
  await w.h.deps.bus.drain();
  const list = await w.h.request("GET", `${w.base}/notifications`, { token: w.agent.token });
  for (const n of list.body.data.payload)
    await w.h.request("PATCH", `${w.base}/notifications/${n.id}`, { token: w.agent.token });
  await deliver(w);
  expect(smtp.mails).toHaveLength(0);
  const states = w.h.deps.db.query("SELECT state FROM notification_mail ORDER BY notification_id").all();
  expect(states).toEqual([{ state: "skipped" }, { state: "skipped" }]); // created and assigned, both read

  for (const text of ["Hello?", "Anyone there?", "It is urgent"])
    await send(w, c.id, { content: text, message_type: "incoming" });
  await deliver(w);
  const mail = await smtp.mail(1);
  expect(mail.parsed.subject).toBe(`[Acme] New message in conversation #${c.id}`);
  expect(mail.parsed.text).toContain("It is urgent");
  expect(smtp.mails).toHaveLength(1);
});

test("an agent who turns a type off gets none of it; a refused mail is given up with the server's words", async () => {
  const { w, smtp } = await mailWorld();
  const off = await setFlags(w, w.agent.token, ["email_conversation_assignment"]);
  expect(off.status).toBe(200);
  const c = await newConversation(w); // conversation_creation: not chosen any more
  await deliver(w);
  expect(smtp.mails).toHaveLength(0);
  smtp.refuseRecipients("5.1.1 mailbox unavailable");
  await w.h.request("POST", `${w.base}/conversations/${c.id}/assignments`, {
    token: w.a.adminToken,
    body: { assignee_id: w.agent.userId },
  });
  await deliver(w);
  const rows = w.h.deps.db.query("SELECT state, last_error FROM notification_mail").all() as {
    state: string;
    last_error: string;
  }[];
  expect(rows.map((r) => r.state)).toEqual(["failed"]);
  expect(rows[0]!.last_error).toContain("mailbox unavailable");
});

test("without a mail server nothing is queued, and the flags are kept as before", async () => {
  const w = await world();
  await newConversation(w);
  await w.h.deps.bus.drain();
  expect(w.h.deps.db.query("SELECT count(*) AS n FROM notification_mail").get()).toEqual({ n: 0 });
  expect((await setFlags(w, w.agent.token, [])).body.selected_email_flags).toEqual([]);
});

test("a notification mail speaks the account's language and quotes the message", async () => {
  const { w, smtp } = await mailWorld();
  await w.h.request("PATCH", `/api/v1/accounts/${w.a.accountId}`, { token: w.a.adminToken, body: { locale: "pt_BR" } });
  const c = await newConversation(w, { assignee_id: w.agent.userId });
  await deliver(w);
  await send(w, c.id, { content: "Meu pedido não chegou.\nPodem verificar?", message_type: "incoming" });
  await deliver(w);
  await smtp.mail(3); // the new conversation, its assignment, the message
  const mail = smtp.mails.find((m) => m.parsed.subject?.includes("Nova mensagem"))!;
  expect(mail.parsed.subject).toBe(`[Acme] Nova mensagem na conversa #${c.id}`);
  expect(mail.parsed.text).toContain("> Meu pedido não chegou.\n> Podem verificar?");
  expect(mail.parsed.text).toContain("Abrir a conversa: https://help.acme.test/");
});

test("an agent removed from the account within the minute is not mailed", async () => {
  const { w, smtp } = await mailWorld();
  await newConversation(w);
  await w.h.deps.bus.drain();
  const removed = await w.h.request("DELETE", `${w.base}/agents/${w.agent.userId}`, { token: w.a.adminToken });
  expect(removed.status).toBe(200);
  await deliver(w);
  expect(smtp.mails).toHaveLength(0);
  const rows = w.h.deps.db.query("SELECT state FROM notification_mail").all();
  expect(rows).toEqual([{ state: "skipped" }]);
});
