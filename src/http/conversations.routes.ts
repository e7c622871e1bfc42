// /api/v1/accounts/:account_id/conversations — create, list with counts, meta,
// show, update. Ids in paths and on the wire are the per-account display ids.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { conversationOf } from "../domain/presenters/conversation.presenter.ts";
import { accountScope } from "./auth.ts";
import { json } from "./json.ts";
import { Conversation, ConversationParams, Counts } from "./conversation-schemas.ts";
import { MessageFields } from "./field-docs.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Attributes, Checked, Documented, errorResponses, Integer, Text } from "./schemas.ts";
import { readSoon } from "../db/reads.ts";
import { whenReady } from "../lib/when-ready.ts";

const CreateBody = t.Object({
  source_id: t.Optional(
    Checked(Text(255, "the contact's identity in the inbox (Chatwoot's legacy form: it finds the contact)")),
  ),
  inbox_id: Integer(),
  contact_id: t.Optional(Integer()),
  additional_attributes: t.Optional(Attributes),
  custom_attributes: t.Optional(Attributes),
  status: t.Optional(t.String()),
  assignee_id: t.Optional(t.Union([Integer(), t.Null()])),
  team_id: t.Optional(t.Union([Integer(), t.Null()])),
  snoozed_until: t.Optional(t.Union([t.String(), Integer(), t.Null()])),
  message: t.Optional(
    Documented(
      Attributes,
      t.Object(MessageFields, { description: "the first message, as POST …/messages takes it (no files)" }),
    ),
  ),
  hmac_verified: t.Optional(t.Boolean()),
});

const ListQuery = t.Object({
  status: t.Optional(t.String()),
  assignee_type: t.Optional(t.String()),
  inbox_id: t.Optional(t.String()),
  team_id: t.Optional(t.String()),
  labels: t.Optional(t.Union([t.Array(t.String()), t.String()])),
  q: t.Optional(t.String()),
  page: t.Optional(t.String()),
  sort_by: t.Optional(
    t.String({ description: "latest (the default), sort_on_created_at, sort_on_priority, sort_on_waiting_since" }),
  ),
});

const tags = ["conversations"];

export function conversationRoutes(d: Deps) {
  const conversations = d.services.conversations;
  const state = d.services.conversationState;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/conversations" })
    .use(accountScope(d.services.auth))
    .derive(({ principal }) => ({ acting: actingAs(principal) }))
    .get(
      "",
      async ({ acting, query }) => {
        const { counts, rows } = await conversations.list(acting, query);
        const views = await conversations.listViews(acting, rows);
        return json({ data: { meta: counts, payload: views.map(conversationOf) } });
      },
      {
        params: AccountParams,
        query: ListQuery,
        response: {
          200: t.Object({ data: t.Object({ meta: Counts, payload: t.Array(Conversation) }) }),
          ...errorResponses,
        },
        detail: { tags, summary: "List conversations (25 per page) with mine/assigned/unassigned/all counts" },
      },
    )
    .get("/meta", async ({ acting, query }) => ({ meta: await conversations.counts(acting, query) }), {
      params: AccountParams,
      query: ListQuery,
      response: { 200: t.Object({ meta: Counts }), ...errorResponses },
      detail: { tags, summary: "The list's counts without the list" },
    })
    .post(
      "",
      async ({ acting, body }) => {
        const row = await conversations.create(acting, body);
        // Committed rows: on PostgreSQL the read pool's, awaited (src/db/reads.ts readSoon).
        return json(conversationOf(await readSoon(conversations.readView(acting, row))));
      },
      {
        params: AccountParams,
        ...bodyOf(CreateBody, "conversation"),
        response: { 200: Conversation, ...errorResponses },
        detail: { tags, summary: "Create a conversation (the full conversation object; id is the display id)" },
      },
    )
    .get(
      "/:conversation_id",
      ({ acting, params }) =>
        whenReady(
          conversations.readAbout(acting, params.conversation_id, (row) => conversations.readView(acting, row)),
          (view) => json(conversationOf(view)),
        ),
      {
        params: ConversationParams,
        response: { 200: Conversation, ...errorResponses },
        detail: { tags, summary: "Show a conversation" },
      },
    )
    .patch(
      "/:conversation_id",
      async ({ acting, params, body }) => {
        // Committed rows, awaited on PostgreSQL; each write's body reads the row again in its own.
        let row = await conversations.getSoon(acting, params.conversation_id);
        if (body.priority !== undefined) row = await state.togglePriority(acting, row, body.priority);
        row = await conversations.updateAttributes(acting, row, body);
        return conversationOf(await readSoon(conversations.readView(acting, row)));
      },
      {
        params: ConversationParams,
        ...bodyOf(
          t.Object({
            priority: t.Optional(t.Union([t.String(), t.Null()])),
            additional_attributes: t.Optional(Attributes),
            custom_attributes: t.Optional(Attributes),
          }),
          "conversation",
        ),
        response: { 200: Conversation, ...errorResponses },
        detail: { tags, summary: "Update priority; merge custom and additional attributes" },
      },
    );
}
