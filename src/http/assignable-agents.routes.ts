// Chatwoot's assignable agents: GET assignable_agents?inbox_ids[]=… (the mobile app asks each time
// it opens a chat, for the assignee sheet, participants and @mentions) and GET
// inboxes/:id/assignable_agents (one inbox). Both answer {payload: [Agent]}.
import { Elysia, t } from "elysia";
import type { AgentRecord } from "../db/agents.repo.ts";
import type { Deps } from "../deps.ts";
import { parseId } from "../domain/auth.service.ts";
import { agentOf } from "../domain/presenters/user.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { AccountParams, Agent, errorResponses } from "./schemas.ts";

const Assignable = t.Object({ payload: t.Array(Agent) });
const payload = (list: AgentRecord[]) => ({ payload: list.map((a) => agentOf(a.user, a.membership)) });
const tags = ["inbox members"];

export function assignableAgentRoutes(d: Deps) {
  const members = d.services.inboxMembers;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id" })
    .use(accountScope(d.services.auth))
    .get(
      "/assignable_agents",
      ({ principal, query }) => whenReady(members.assignable(principal, query.inbox_ids), payload),
      {
        params: AccountParams,
        query: t.Object({
          inbox_ids: t.Optional(
            t.Union([t.Array(t.String()), t.String()], {
              description: "the inboxes, as inbox_ids[]=1&inbox_ids[]=2 (at most 100)",
            }),
          ),
        }),
        response: { 200: Assignable, ...errorResponses },
        detail: {
          tags,
          summary: "Agents who may be assigned in all these inboxes: their common members, then the administrators",
        },
      },
    )
    .get(
      "/inboxes/:id/assignable_agents",
      ({ principal, params }) => whenReady(members.assignableInInbox(principal, parseId(params.id)), payload),
      {
        params: t.Object({ account_id: t.String(), id: t.String() }),
        response: { 200: Assignable, ...errorResponses },
        detail: { tags, summary: "Agents who may be assigned in this inbox: its members, then the administrators" },
      },
    );
}
