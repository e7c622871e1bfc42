// Conversation actions: toggle_status, toggle_priority, assignments, labels, custom_attributes,
// update_last_seen, unread, mute, unmute. Each loads the conversation through the caller's access (404/403).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { conversationOf, teamOf } from "../domain/presenters/conversation.presenter.ts";
import { agentOf } from "../domain/presenters/user.presenter.ts";
import { isoFromSeconds } from "../lib/clock.ts";
import { readSoon } from "../db/reads.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { conversationLoader } from "./conversation-scope.ts";
import { Conversation, ConversationParams, emptyOk, Labels, Team } from "./conversation-schemas.ts";
import { bodyOf } from "./request.ts";
import { Agent, Attributes, Checked, errorResponses, Integer, LabelTitles, Nullable } from "./schemas.ts";

const tags = ["conversations"];
const StatusResult = t.Object({
  meta: t.Object({}),
  payload: t.Object({
    success: t.Boolean(),
    conversation_id: Integer(),
    current_status: t.String(),
    snoozed_until: Nullable(t.String()),
  }),
});

export function conversationActionRoutes(d: Deps) {
  const conversations = d.services.conversations;
  const state = d.services.conversationState;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/conversations/:conversation_id" })
    .use(accountScope(d.services.auth))
    .derive(conversationLoader(d))
    .post(
      "/toggle_status",
      async ({ acting, loadSoon, body }) => {
        const row = await state.toggleStatus(acting, await loadSoon(), body);
        return {
          meta: {},
          payload: {
            success: true,
            conversation_id: row.display_id,
            current_status: row.status,
            snoozed_until: isoFromSeconds(row.snoozed_until),
          },
        };
      },
      {
        params: ConversationParams,
        ...bodyOf(
          t.Object({
            status: t.Optional(t.String()),
            snoozed_until: t.Optional(t.Union([t.String(), Integer(), t.Null()])),
          }),
        ),
        response: { 200: StatusResult, ...errorResponses },
        detail: { tags, summary: "Set or toggle the status (open, resolved, pending, snoozed with snoozed_until)" },
      },
    )
    .post(
      "/toggle_priority",
      async ({ acting, loadSoon, body }) => (
        await state.togglePriority(acting, await loadSoon(), body.priority), emptyOk()
      ),
      {
        params: ConversationParams,
        ...bodyOf(t.Object({ priority: t.Optional(t.Union([t.String(), t.Null()])) })),
        detail: { tags, summary: "Set the priority (low, medium, high, urgent; empty clears it)" },
      },
    )
    .post(
      "/assignments",
      async ({ acting, loadSoon, body }) => {
        const r = await state.assign(acting, await loadSoon(), body);
        if (r.kind === "team")
          return r.team ? teamOf({ ...(await readSoon(conversations.readView(acting, r.row))), team: r.team }) : null;
        return r.assignee?.membership ? agentOf(r.assignee.user, r.assignee.membership) : null;
      },
      {
        params: ConversationParams,
        ...bodyOf(
          t.Object({
            assignee_id: t.Optional(t.Union([Integer(), t.Null(), t.Literal("")])),
            team_id: t.Optional(t.Union([Integer(), t.Null(), t.Literal("")])),
          }),
        ),
        response: { 200: t.Union([Agent, Team, t.Null()]), ...errorResponses },
        detail: {
          tags,
          summary: "Assign an agent and/or a team (null unassigns); answers the agent, the team or null",
        },
      },
    )
    .get(
      "/labels",
      ({ about }) =>
        whenReady(
          about((row) => conversations.readLabels(row)),
          (payload) => ({ payload }),
        ),
      {
        params: ConversationParams,
        response: { 200: Labels, ...errorResponses },
        detail: { tags, summary: "The conversation's labels" },
      },
    )
    .post(
      "/labels",
      async ({ acting, loadSoon, body }) => ({
        payload: await conversations.setLabels(acting, await loadSoon(), body.labels),
      }),
      {
        params: ConversationParams,
        ...bodyOf(t.Object({ labels: t.Optional(Checked(LabelTitles)) })),
        response: { 200: Labels, ...errorResponses },
        detail: { tags, summary: "Replace the conversation's labels" },
      },
    )
    .post(
      "/custom_attributes",
      async ({ acting, loadSoon, body }) => ({
        custom_attributes: JSON.parse(
          (await conversations.setCustomAttributes(acting, await loadSoon(), body.custom_attributes)).custom_attributes,
        ),
      }),
      {
        params: ConversationParams,
        ...bodyOf(t.Object({ custom_attributes: t.Optional(Attributes) })),
        response: { 200: t.Object({ custom_attributes: Attributes }), ...errorResponses },
        detail: { tags, summary: "Replace the conversation's custom attributes" },
      },
    )
    .post(
      "/update_last_seen",
      async ({ acting, loadSoon }) => {
        const row = await conversations.markSeen(acting, await loadSoon());
        return conversationOf(await readSoon(conversations.readView(acting, row)));
      },
      {
        params: ConversationParams,
        response: { 200: Conversation, ...errorResponses },
        detail: { tags, summary: "Mark the conversation read by the agent" },
      },
    )
    .post("/mute", async ({ acting, loadSoon }) => (await state.mute(acting, await loadSoon()), emptyOk()), {
      params: ConversationParams,
      detail: {
        tags,
        summary:
          "Mute: block the contact (their messages no longer reopen or notify) and resolve; answers 200 with no body",
      },
    })
    .post("/unmute", async ({ acting, loadSoon }) => (await state.unmute(acting, await loadSoon()), emptyOk()), {
      params: ConversationParams,
      detail: { tags, summary: "Unmute: unblock the contact; answers 200 with no body" },
    })
    .post(
      "/unread",
      async ({ acting, loadSoon }) => {
        const row = await conversations.markUnread(acting, await loadSoon());
        return conversationOf(await readSoon(conversations.readView(acting, row)));
      },
      {
        params: ConversationParams,
        response: { 200: Conversation, ...errorResponses },
        detail: { tags, summary: "Mark the last incoming message unread" },
      },
    );
}
