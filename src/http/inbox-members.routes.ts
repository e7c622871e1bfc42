// /api/v1/accounts/:account_id/inbox_members — Chatwoot's endpoint and its siblings. Every
// answer is {payload: [Agent]}: the inbox's members after the change (docs/compatibility.md #7).
import { Elysia, t } from "elysia";
import type { AgentRecord } from "../db/agents.repo.ts";
import type { Deps } from "../deps.ts";
import { parseId } from "../domain/auth.service.ts";
import { agentOf } from "../domain/presenters/user.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { UserId } from "./field-docs.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Agent, Checked, errorResponses, PlainInteger } from "./schemas.ts";

const MembersBody = t.Object({
  inbox_id: t.Optional(Checked(PlainInteger({ minimum: 1 }))),
  user_ids: t.Optional(t.Array(UserId, { description: "user ids of agents of this account (at most 1000)" })),
});

const Members = t.Object({ payload: t.Array(Agent) });
const members = (list: AgentRecord[]) => ({ payload: list.map((a) => agentOf(a.user, a.membership)) });
const tags = ["inbox members"];
const write = {
  admin: true,
  params: AccountParams,
  ...bodyOf(MembersBody, "inbox_member"),
  response: { 200: Members, ...errorResponses },
} as const;

export function inboxMemberRoutes(d: Deps) {
  const s = d.services.inboxMembers;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/inbox_members" })
    .use(accountScope(d.services.auth))
    .get("/:inbox_id", ({ principal, params }) => whenReady(s.list(principal, parseId(params.inbox_id)), members), {
      params: t.Object({ account_id: t.String(), inbox_id: t.String() }),
      response: { 200: Members, ...errorResponses },
      detail: { tags, summary: "The inbox's member agents (administrators, or members of the inbox)" },
    })
    .post("", async ({ principal, body }) => members(await s.add(principal, body)), {
      ...write,
      detail: { tags, summary: "Add agents to an inbox (administrators); answers the members after the change" },
    })
    .patch("", async ({ principal, body }) => members(await s.replace(principal, body)), {
      ...write,
      detail: { tags, summary: "Make the inbox's members exactly user_ids (administrators)" },
    })
    .delete("", async ({ principal, body }) => members(await s.remove(principal, body)), {
      ...write,
      detail: { tags, summary: "Remove agents from an inbox (administrators); answers the members left" },
    });
}
