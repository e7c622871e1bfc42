// An installation made through the real API, with a row in most tables (labels, teams, canned
// responses, webhooks, custom attributes, notes, a conversation with labels and messages, and what
// the listeners write afterwards: notifications, reporting events, webhook deliveries): what a copy
// to PostgreSQL is tested on.
import { expect } from "bun:test";
import { newConversation, send, world, type World } from "./conversation-fixtures.ts";

export async function installation(): Promise<World> {
  const w = await world();
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
  w.h.deps.commits.flush();
  return w;
}
