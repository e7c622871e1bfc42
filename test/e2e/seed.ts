// Data for the browser tests, made the way an integration makes it: through the account API of the
// running server (an API inbox, a contact, a conversation, the customer's incoming message).
import { expect } from "bun:test";

export interface AccountApi {
  get(path: string): Promise<any>;
  post(path: string, body?: unknown): Promise<any>;
  patch(path: string, body?: unknown): Promise<any>;
}

export function accountApi(base: string, accountId: number, token: string): AccountApi {
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}/api/v1/accounts/${accountId}${path}`, {
      method,
      headers: { api_access_token: token, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    expect({ path, status: r.status }).toEqual({ path, status: 200 });
    return text ? JSON.parse(text) : null;
  };
  return {
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body),
    patch: (path, body) => call("PATCH", path, body),
  };
}

export interface Seeded {
  id: number;
  contactId: number;
}

/** A contact writing in through an API inbox: contact, conversation, and the first incoming message. */
export async function seedConversation(
  api: AccountApi,
  inboxId: number,
  contact: { name: string; email?: string; phone_number?: string },
  text: string,
): Promise<Seeded> {
  const created = await api.post("/contacts", { ...contact, inbox_id: inboxId });
  const contactId = created.payload.contact.id;
  const conversation = await api.post("/conversations", { inbox_id: inboxId, contact_id: contactId });
  await api.post(`/conversations/${conversation.id}/messages`, { content: text, message_type: "incoming" });
  return { id: conversation.id, contactId };
}
