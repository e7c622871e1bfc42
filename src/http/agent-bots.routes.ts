// /api/v1/accounts/:account_id/agent_bots (Chatwoot's): the account's bots and the platform's;
// administrators create, change, delete and reset tokens (access_token and secret are shown to
// them only). And the inbox's bot: POST inboxes/:id/set_agent_bot {agent_bot: id | null},
// GET inboxes/:id/agent_bot.
import { Elysia, t } from "elysia";
import type { AgentBotRow } from "../db/agent-bots.repo.ts";
import type { Deps } from "../deps.ts";
import type { AccountPrincipal } from "../domain/auth.service.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { bodyOf } from "./request.ts";
import {
  AccountParams,
  Attributes,
  Checked,
  errorResponses,
  Integer,
  Nullable,
  PlainInteger,
  Text,
} from "./schemas.ts";

export const AgentBot = t.Object({
  id: Integer(),
  name: t.String(),
  description: Nullable(t.String()),
  outgoing_url: Nullable(t.String()),
  account_id: Nullable(Integer({ description: "null: a platform bot" })),
  bot_type: t.String(),
  bot_config: Attributes,
  thumbnail: t.String(),
  avatar_url: Nullable(t.String()),
  access_token: t.Optional(t.String({ description: "administrators only: the token the bot calls the API with" })),
  secret: t.Optional(
    t.String({ description: "administrators only: signs deliveries to outgoing_url (X-Chatwoot-Signature)" }),
  ),
});

// Unchecked on purpose: the service checks each field with Chatwoot-style messages.
const HttpUrl = (description: string) =>
  Checked(Nullable(t.String({ format: "uri", maxLength: 2048, description: `http(s) URL: ${description}` })));
export const AgentBotBody = t.Object({
  name: t.Optional(Checked(t.String({ minLength: 1, maxLength: 255 }))),
  description: t.Optional(Checked(Text(1000))),
  outgoing_url: t.Optional(HttpUrl("where the bot's events are delivered")),
  avatar_url: t.Optional(HttpUrl("the bot's picture")),
  bot_type: t.Optional(
    Checked(
      t.Union([t.String({ enum: ["webhook", "0"] }), PlainInteger({ enum: [0] })], { description: "webhook only" }),
    ),
  ),
  bot_config: t.Optional(Checked(Attributes)),
});

export function agentBotOf(b: AgentBotRow, showSecrets: boolean) {
  return {
    id: b.id,
    name: b.name,
    description: b.description,
    outgoing_url: b.outgoing_url,
    account_id: b.account_id,
    bot_type: b.bot_type,
    bot_config: JSON.parse(b.bot_config) as Record<string, unknown>,
    thumbnail: b.avatar_url ?? "",
    avatar_url: b.avatar_url,
    ...(showSecrets ? { access_token: b.access_token, secret: b.secret } : {}),
  };
}

const IdParams = t.Object({ account_id: t.String(), id: t.String() });
const InboxParams = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["agent bots"];

export function agentBotRoutes(d: Deps) {
  const svc = d.services.agentBots;
  // A platform bot's token belongs to the platform app, never shown to an account.
  const present = (p: AccountPrincipal, b: AgentBotRow) =>
    agentBotOf(b, p.role === "administrator" && b.account_id === p.account.id);
  const one = { response: { 200: AgentBot, ...errorResponses } };
  return new Elysia({ prefix: "/api/v1/accounts/:account_id" })
    .use(accountScope(d.services.auth))
    .get(
      "/agent_bots",
      ({ principal }) => whenReady(svc.list(principal), (bots) => bots.map((b) => present(principal, b))),
      {
        params: AccountParams,
        response: { 200: t.Array(AgentBot), ...errorResponses },
        detail: { tags, summary: "The account's agent bots and the platform's" },
      },
    )
    .post("/agent_bots", async ({ principal, body }) => present(principal, await svc.create(principal, body)), {
      params: AccountParams,
      ...bodyOf(AgentBotBody, "agent_bot"),
      ...one,
      detail: { tags, summary: "Create an agent bot (administrators)" },
    })
    .get(
      "/agent_bots/:id",
      ({ principal, params }) => whenReady(svc.show(principal, params.id), (b) => present(principal, b)),
      {
        params: IdParams,
        ...one,
        detail: { tags, summary: "One agent bot" },
      },
    )
    .patch(
      "/agent_bots/:id",
      async ({ principal, params, body }) => present(principal, await svc.update(principal, params.id, body)),
      {
        params: IdParams,
        ...bodyOf(AgentBotBody, "agent_bot"),
        ...one,
        detail: { tags, summary: "Change an agent bot of the account (administrators)" },
      },
    )
    .delete("/agent_bots/:id", async ({ principal, params }) => (await svc.delete(principal, params.id), emptyOk()), {
      params: IdParams,
      detail: {
        tags,
        summary: "Delete an agent bot of the account (administrators; its inboxes are left without a bot)",
      },
    })
    .post(
      "/agent_bots/:id/reset_access_token",
      async ({ principal, params }) => present(principal, await svc.resetAccessToken(principal, params.id)),
      {
        params: IdParams,
        ...one,
        detail: { tags, summary: "Give the bot a new access_token; the old one stops working (administrators)" },
      },
    )
    .post(
      "/inboxes/:id/set_agent_bot",
      async ({ principal, params, body }) => (await svc.setForInbox(principal, params.id, body.agent_bot), emptyOk()),
      {
        params: InboxParams,
        ...bodyOf(t.Object({ agent_bot: t.Optional(t.Union([Integer(), t.String(), t.Null()])) })),
        detail: { tags, summary: "Connect an agent bot to the inbox (agent_bot: null disconnects; administrators)" },
      },
    )
    .get(
      "/inboxes/:id/agent_bot",
      ({ principal, params }) =>
        whenReady(svc.ofInbox(principal, params.id), (bot) => ({ agent_bot: bot ? present(principal, bot) : {} })),
      {
        params: InboxParams,
        response: { 200: t.Object({ agent_bot: t.Union([AgentBot, t.Object({})]) }), ...errorResponses },
        detail: { tags, summary: "The inbox's agent bot ({} when none, as Chatwoot answers)" },
      },
    );
}
