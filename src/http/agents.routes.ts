// /api/v1/accounts/:account_id/agents — the account's users with their role and availability.
import { Elysia, t } from "elysia";
import type { AgentRecord } from "../db/agents.repo.ts";
import type { Deps } from "../deps.ts";
import { ROLES } from "../domain/agents.service.ts";
import { parseId } from "../domain/auth.service.ts";
import { agentOf } from "../domain/presenters/user.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Agent, Checked, errorResponses } from "./schemas.ts";

const AgentBody = t.Object({
  name: t.Optional(Checked(t.String({ minLength: 1, maxLength: 255 }))),
  email: t.Optional(Checked(t.String({ format: "email", maxLength: 254, description: "required on create" }))),
  role: t.Optional(Checked(t.String({ enum: [...ROLES], default: "agent" }))),
  availability: t.Optional(Checked(t.String({ enum: ["online", "offline", "busy"], default: "online" }))),
  auto_offline: t.Optional(t.Boolean()),
});

const IdParams = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["agents"];

export function agentRoutes(d: Deps) {
  const agents = d.services.agents;
  // availability_status follows the agent's open /cable subscriptions when auto_offline is on.
  const present = (a: AgentRecord) =>
    agentOf(a.user, a.membership, d.realtime.presence.isOnline(a.membership.account_id, a.user.id));
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/agents" })
    .use(accountScope(d.services.auth))
    .get("", ({ principal }) => whenReady(agents.list(principal), (rows) => rows.map(present)), {
      params: AccountParams,
      response: { 200: t.Array(Agent), ...errorResponses },
      detail: { tags, summary: "List the account's agents and administrators, by name" },
    })
    .post("", async ({ principal, body }) => present(await agents.create(principal, body)), {
      admin: true,
      params: AccountParams,
      ...bodyOf(AgentBody, "agent"),
      response: { 200: Agent, ...errorResponses },
      detail: { tags, summary: "Add an agent by name, email and role (administrators)" },
    })
    .patch(
      "/:id",
      async ({ principal, params, body }) => {
        const updated = await agents.update(principal, parseId(params.id), body);
        // The others' agent lists and the mobile app show availability: tell the account's sockets.
        if (body.availability !== undefined) d.realtime.availabilityChanged(principal.account.id);
        return present(updated);
      },
      {
        admin: true,
        params: IdParams,
        ...bodyOf(AgentBody, "agent"),
        response: { 200: Agent, ...errorResponses },
        detail: { tags, summary: "Change an agent's name, role, availability or auto_offline (administrators)" },
      },
    )
    .post(
      "/:id/invitation",
      async ({ principal, params }) => present(await agents.invite(principal, parseId(params.id))),
      {
        admin: true,
        params: IdParams,
        response: { 200: Agent, ...errorResponses },
        detail: {
          tags,
          summary:
            "Mail an agent who has not chosen a password a new invitation link (ours; administrators). 422 once they have one, 503 without a mail server",
        },
      },
    )
    .delete(
      "/:id",
      async ({ principal, params }) => {
        await agents.remove(principal, parseId(params.id));
        return new Response(null, { status: 200 });
      },
      {
        admin: true,
        params: IdParams,
        response: { 200: t.Void(), ...errorResponses },
        detail: {
          tags,
          summary: "Remove an agent from the account, with their inbox and team memberships (administrators)",
        },
      },
    );
}
