// /platform/api/v1/agent_bots (Chatwoot's Platform API): a platform app's own bots, with no
// account; an account's administrator connects one to an inbox with set_agent_bot.
import { Elysia, t } from "elysia";
import type { AgentBotRow } from "../db/agent-bots.repo.ts";
import type { Deps } from "../deps.ts";
import { whenReady } from "../lib/when-ready.ts";
import { AgentBot, AgentBotBody, agentBotOf } from "./agent-bots.routes.ts";
import { platformScope } from "./platform.routes.ts";
import { bodyOf } from "./request.ts";
import { errorResponses } from "./schemas.ts";

const IdParams = t.Object({ id: t.String() });
const tags = ["platform"];
const responses = { 401: errorResponses[401], 404: errorResponses[404], 422: errorResponses[422] };

export function platformAgentBotRoutes(d: Deps) {
  const svc = d.services.agentBots;
  const present = (b: AgentBotRow) => agentBotOf(b, true);
  return new Elysia({ prefix: "/platform/api/v1/agent_bots" })
    .use(platformScope(d.services.platform))
    .get("", ({ platformApp }) => whenReady(svc.platformList(platformApp), (bots) => bots.map(present)), {
      response: { 200: t.Array(AgentBot), ...responses },
      detail: { tags, summary: "The app's agent bots" },
    })
    .post("", async ({ platformApp, body }) => present(await svc.platformCreate(platformApp, body)), {
      ...bodyOf(AgentBotBody, "agent_bot"),
      response: { 200: AgentBot, ...responses },
      detail: { tags, summary: "Create a platform agent bot (no account; connect it to inboxes with set_agent_bot)" },
    })
    .get("/:id", ({ platformApp, params }) => whenReady(svc.platformShow(platformApp, params.id), present), {
      params: IdParams,
      response: { 200: AgentBot, ...responses },
      detail: { tags, summary: "One of the app's agent bots" },
    })
    .patch(
      "/:id",
      async ({ platformApp, params, body }) => present(await svc.platformUpdate(platformApp, params.id, body)),
      {
        params: IdParams,
        ...bodyOf(AgentBotBody, "agent_bot"),
        response: { 200: AgentBot, ...responses },
        detail: { tags, summary: "Change one of the app's agent bots" },
      },
    )
    .delete(
      "/:id",
      async ({ platformApp, params }) => (
        await svc.platformDelete(platformApp, params.id), new Response(null, { status: 200 })
      ),
      {
        params: IdParams,
        detail: { tags, summary: "Delete one of the app's agent bots" },
      },
    );
}
