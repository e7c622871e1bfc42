// The settings browser tests' world: a server that may deliver webhooks to 127.0.0.1, the administrator's
// account API, Eve Agent in the account, and the address of a settings section.
import { addAgent, browserSuite, type Suite, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";

export interface SettingsWorld {
  server: WebServer;
  admin: AccountApi;
  agentId: number;
}

/** Inside a describe: browserSuite for the settings tests; `setup` receives the world once it is ready. */
export function settingsSuite(setup: (world: SettingsWorld) => void): Suite {
  return browserSuite({
    env: { PARLEY_ALLOW_PRIVATE_WEBHOOKS: "1" },
    setup: async (s) => {
      const admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      const agentId = await addAgent(s, "Eve Agent", "eve@example.com", "agent password 3");
      setup({ server: s, admin, agentId });
    },
  });
}

export const settingsAddress = (server: WebServer, section: string) =>
  `${server.base}/app/accounts/${server.first.account_id}/settings/${section}`;
