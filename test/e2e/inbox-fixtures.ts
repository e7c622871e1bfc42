// The inbox browser tests' world: the administrator's account API, an API inbox "Support API", and
// Cam Agent, an agent who can sign in (not yet a member of that inbox).
import { addAgent, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";

export const AGENT = { email: "cam@example.com", password: "agent password 2" };

export async function supportInbox(s: WebServer): Promise<{ admin: AccountApi; inboxId: number; agentId: number }> {
  const admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
  const inboxId = (await admin.post("/inboxes", { name: "Support API", channel: { type: "api" } })).id;
  const agentId = await addAgent(s, "Cam Agent", AGENT.email, AGENT.password);
  return { admin, inboxId, agentId };
}
