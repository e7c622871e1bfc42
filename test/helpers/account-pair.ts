// Two accounts, Acme with an agent and Globex beside it, and the base path of one of Acme's
// resources: the setup shared by the CRUD route tests split over test/http/inboxes*.test.ts and
// test/http/contacts*.test.ts.
import { makeAccount, makeMember } from "./factories.ts";
import { createHarness } from "./harness.ts";

async function accountPair(resource: string, agentName: string) {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent", agentName);
  const base = `/api/v1/accounts/${a.accountId}/${resource}`;
  return { h, a, b, agent, base };
}

/** /api/v1/accounts/:id/inboxes of Acme, whose agent is Bea. */
export const inboxesPair = async () => await accountPair("inboxes", "Bea");

/** /api/v1/accounts/:id/contacts of Acme, whose agent is Ann; `create` posts a contact (as the administrator
 * unless a token is given). */
export async function contactsPair() {
  const pair = await accountPair("contacts", "Ann");
  const { h, a, base } = pair;
  const create = (body: unknown, token = a.adminToken) => h.request("POST", base, { token, body });
  return { ...pair, create };
}
