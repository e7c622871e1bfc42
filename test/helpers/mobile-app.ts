// The Chatwoot mobile app's replays share this: an account with one API inbox that the agent
// "Mo Bile" works, served on a real socket (the app speaks HTTP through axios).
import { afterEach } from "bun:test";
import { makeAccount, makeMember } from "./factories.ts";
import { addInboxMember, makeInbox } from "./directory-fixtures.ts";
import { createHarness } from "./harness.ts";
import { servedEach } from "./served.ts";

/** Call once per test file: `agentWorld()` builds a served world, `serve(h)` serves another harness; each is stopped after its test. */
export function mobileAppWorlds() {
  const serve = servedEach(afterEach);
  const agentWorld = async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const inboxId = makeInbox(h, a.accountId);
    const agent = await makeMember(h, a.accountId, "agent", "Mo Bile");
    addInboxMember(h, inboxId, agent.userId);
    const root = serve(h).base;
    const base = `${root}/api/v1/accounts/${a.accountId}`;
    const headers = { api_access_token: agent.token, "Content-Type": "application/json" };
    return { h, a, inboxId, agent, root, base, headers };
  };
  return { serve, agentWorld };
}
