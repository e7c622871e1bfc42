// /api/v1/accounts/:account_id/conversations/:conversation_id/participants (Chatwoot's): GET the
// agents following the conversation, POST user_ids to add some, PATCH (and PUT) to make them exactly
// these, DELETE to remove some. Answers are arrays of agents.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { agentOf } from "../domain/presenters/user.presenter.ts";
import type { MemberRef } from "../db/conversation-refs.repo.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { ConversationParams, emptyOk } from "./conversation-schemas.ts";
import { conversationLoader } from "./conversation-scope.ts";
import { bodyOf } from "./request.ts";
import { Agent, Checked, errorResponses, PlainInteger } from "./schemas.ts";

const tags = ["conversations"];
const Body = t.Object({
  user_ids: t.Optional(
    Checked(
      t.Union([t.Array(PlainInteger({ minimum: 1 }), { minItems: 1, maxItems: 100 }), PlainInteger({ minimum: 1 })], {
        description: "agent ids (one id alone is taken as a list of one)",
      }),
    ),
  ),
});
const agents = (list: MemberRef[]) => list.map((m) => agentOf(m.user, m.membership!));

export function participantRoutes(d: Deps) {
  const svc = d.services.participants;
  // The conversation is read on PostgreSQL's read pool, awaited (committed rows: loadSoon).
  const replace = async ({
    acting,
    loadSoon,
    body,
  }: {
    acting: Parameters<typeof svc.replace>[0];
    loadSoon: () => Promise<Parameters<typeof svc.replace>[1]> | Parameters<typeof svc.replace>[1];
    body: { user_ids?: unknown };
  }) => agents(await svc.replace(acting, await loadSoon(), body.user_ids));
  const replaceOptions = {
    params: ConversationParams,
    ...bodyOf(Body),
    response: { 200: t.Array(Agent), ...errorResponses },
    detail: { tags, summary: "Make the participants exactly these agents" },
  };
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/conversations/:conversation_id/participants" })
    .use(accountScope(d.services.auth))
    .derive(conversationLoader(d))
    .get(
      "",
      ({ acting, about }) =>
        whenReady(
          about((row) => svc.readList(acting, row)),
          agents,
        ),
      {
        params: ConversationParams,
        response: { 200: t.Array(Agent), ...errorResponses },
        detail: { tags, summary: "The agents following the conversation" },
      },
    )
    .post("", async ({ acting, loadSoon, body }) => agents(await svc.add(acting, await loadSoon(), body.user_ids)), {
      params: ConversationParams,
      ...bodyOf(Body),
      response: { 200: t.Array(Agent), ...errorResponses },
      detail: { tags, summary: "Add participants (each must see the conversation's inbox)" },
    })
    .patch("", replace, replaceOptions)
    .delete("", async ({ loadSoon, body }) => (await svc.remove(await loadSoon(), body.user_ids), emptyOk()), {
      params: ConversationParams,
      ...bodyOf(Body),
      detail: { tags, summary: "Remove participants" },
    });
}
