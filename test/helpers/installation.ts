// An installation made through the real API, with a row in most tables (labels, teams, canned
// responses, webhooks, custom attributes, notes, a conversation with labels and messages, and what
// the listeners write afterwards: notifications, reporting events, webhook deliveries; a signature,
// a device for push, an invitation, a notification mail and a push waiting): what a copy to
// PostgreSQL is tested on.
import { expect } from "bun:test";
import { readNow } from "../../src/db/reads.ts";
import { newConversation, send, world, type World } from "./conversation-fixtures.ts";

export async function installation(): Promise<World> {
  // On SQLite whatever engine the run is on: the copy's source is a SQLite file.
  const w = await world({ engine: "sqlite" });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await w.h.request(method, `${w.base}${path}`, { token: w.a.adminToken, body });
    expect([path, r.status]).toEqual([path, 200]);
    return r.body;
  };
  await ok("POST", "/labels", { title: "vip" });
  await ok("POST", "/teams", { name: "sales" });
  await ok("POST", "/canned_responses", { short_code: "hi", content: "Hello there" });
  await ok("POST", "/webhooks", { url: "https://hooks.example.com/parley", subscriptions: ["message_created"] });
  await ok("POST", "/custom_attribute_definitions", {
    attribute_display_name: "Plan",
    attribute_key: "plan",
    attribute_model: "contact_attribute",
    attribute_display_type: "text",
  });
  await ok("POST", `/contacts/${w.contactId}/notes`, { content: "Called about the invoice" });
  await ok("POST", "/contacts", { name: "Émile Zola", email: "EMILE@Example.com", phone_number: "+33123456789" });
  const c = (await newConversation(w, { assignee_id: w.agent.userId })).id as number;
  await ok("POST", `/conversations/${c}/labels`, { labels: ["vip", "billing"] });
  for (const body of [
    { content: "Où est ma commande ?", message_type: "incoming" },
    { content: "On it" },
    { content: "note", private: true },
  ])
    expect((await send(w, c, body)).status).toBe(200);
  await ok("POST", `/conversations/${c}/toggle_status`, { status: "resolved" });
  await w.h.deps.bus.drain(); // notifications, reporting events, webhook deliveries
  const me = (token: string, method: string, path: string, body: unknown) =>
    w.h.request(method, `/api/v1/${path}`, { token, body });
  expect((await me(w.a.adminToken, "PUT", "profile", { message_signature: "Ann\nAcme" })).status).toBe(200);
  const device = { subscription_type: "fcm", subscription_attributes: { push_token: "fcm-1", device_id: "phone-1" } };
  expect((await me(w.agent.token, "POST", "notification_subscriptions", device)).status).toBe(200);
  // What a mail server and a push relay would have been given, written as the services write it
  // (this installation has neither configured, and nothing here must be sent during a copy).
  const { passwordResets, notificationMail, push } = w.h.deps.repos;
  const notification = w.h.deps.db.query("SELECT id, user_id FROM notifications ORDER BY id LIMIT 1").get() as {
    id: number;
    user_id: number;
  };
  await w.h.deps.writeTx(() => {
    const now = Math.floor(w.h.clock.nowMs() / 1000);
    const invitation = { token_digest: "digest", sealed_token: "sealed", expires_at: now + 3600 };
    readNow(
      passwordResets.replaceSteps(
        { user_id: w.agent.userId, ...invitation, purpose: "invitation", account_id: w.a.accountId },
        now,
      ),
    );
    readNow(
      notificationMail.insertSteps(
        { notification_id: notification.id, account_id: w.a.accountId, user_id: notification.user_id },
        now + 60,
        now,
      ),
    );
    readNow(push.queueSteps(notification.id, w.agent.userId, now));
  });
  w.h.deps.commits.flush();
  return w;
}
