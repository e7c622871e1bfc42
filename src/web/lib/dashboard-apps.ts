// Dashboard apps (Chatwoot's): pages an administrator adds that open beside a conversation, in a
// frame. The conversation screen loads the account's list once per visit (so a change in Settings
// shows when the agent comes back) and speaks Chatwoot's protocol to the frame, so that apps
// written for Chatwoot work unchanged: the frame gets {event: "appContext", data} as a JSON string
// when it loads, and again whenever it posts "chatwoot-dashboard-app:fetch-info".
import { signal } from "@preact/signals";
import { api } from "./api.ts";
import type { Contact, Conversation } from "./types.ts";

export interface DashboardApp {
  id: number;
  title: string;
  content: { type: "frame"; url: string }[];
  show_on_sidebar: boolean;
  created_at: string;
}

/** What a frame posts to ask for the context again (Chatwoot's string, matched exactly). */
export const FETCH_INFO = "chatwoot-dashboard-app:fetch-info";

/** The page the app shows: its first frame (Chatwoot shows only that one too). */
export function frameUrl(app: DashboardApp): string | null {
  return app.content.find((c) => c.type === "frame")?.url ?? null;
}

/** The message for the frame, as Chatwoot sends it: a JSON string, which apps JSON.parse. */
export function appContext(
  conversation: Conversation,
  agent: { id: number; name: string; email: string } | null,
): string {
  const contact: Contact = conversation.meta.sender;
  const currentAgent = agent ? { id: agent.id, name: agent.name, email: agent.email } : null;
  return JSON.stringify({ event: "appContext", data: { conversation, contact, currentAgent } });
}

/** The account's apps for the conversation screen; none while loading or where the server has no API. */
export const dashboardApps = signal<{ accountId: number; apps: DashboardApp[] } | null>(null);

let generation = 0;

export async function loadDashboardApps(accountId: number): Promise<void> {
  const mine = ++generation; // an answer for an account the screen has left is dropped
  let apps: DashboardApp[] = [];
  try {
    apps = await api<DashboardApp[]>("GET", `/api/v1/accounts/${accountId}/dashboard_apps`);
  } catch {
    // Optional: a server without dashboard apps (or a failed request) just shows no tabs.
  }
  if (mine === generation) dashboardApps.value = { accountId, apps };
}
