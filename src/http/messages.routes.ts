// /api/v1/accounts/:account_id/conversations/:conversation_id/messages — list,
// create (with Idempotency-Key), status update (API inboxes), soft delete.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { contactOf } from "../domain/presenters/contact.presenter.ts";
import { messageOf, messageScope } from "../domain/presenters/message.presenter.ts";
import { agentOf } from "../domain/presenters/user.presenter.ts";
import { isoFromSeconds } from "../lib/clock.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { conversationLoader } from "./conversation-scope.ts";
import { json } from "./json.ts";
import { Contact, ConversationParams, Message, MessageParams } from "./conversation-schemas.ts";
import { Attachments, MessageFields } from "./field-docs.ts";
import { bodyOf } from "./request.ts";
import { Agent, Attributes, Checked, Nullable, errorResponses } from "./schemas.ts";

const tags = ["messages"];

const MessageBody = t.Object({ ...MessageFields, attachments: Attachments });

/** The spec's Conversation metadata (docs/compatibility.md #5: meta.contact is {payload: [Contact]}). */
export const MessageListMeta = t.Object({
  labels: t.Array(t.String()),
  additional_attributes: Attributes,
  contact: t.Object({ payload: t.Array(Contact) }),
  assignee: t.Optional(Agent),
  agent_last_seen_at: Nullable(t.String()),
  assignee_last_seen_at: Nullable(t.String()),
});

export function messageRoutes(d: Deps) {
  const messages = d.services.messages;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/conversations/:conversation_id/messages" })
    .use(accountScope(d.services.auth))
    .derive(conversationLoader(d))
    .get(
      "",
      ({ acting, params, query }) => {
        // A value on SQLite, a promise on PostgreSQL (src/db/reads.ts readSoon): the handler stays
        // synchronous where nothing is awaited.
        const list = d.services.conversations.messageList(acting, params.conversation_id, (row) =>
          messages.readPage(row, query),
        );
        return whenReady(list, ({ row, view, contact, page }) => {
          const scope = messageScope(view);
          return json({
            meta: {
              labels: view.labels,
              additional_attributes: JSON.parse(row.additional_attributes),
              contact: { payload: [contactOf(contact.contact, contact.contactInboxes)] },
              ...(view.assignee?.membership ? { assignee: agentOf(view.assignee.user, view.assignee.membership) } : {}),
              agent_last_seen_at: isoFromSeconds(row.agent_last_seen_at),
              assignee_last_seen_at: isoFromSeconds(row.assignee_last_seen_at),
            },
            payload: page.map((m) => messageOf(m, scope)),
          });
        });
      },
      {
        params: ConversationParams,
        query: t.Object({ after: t.Optional(t.String()), before: t.Optional(t.String()) }),
        response: { 200: t.Object({ meta: MessageListMeta, payload: t.Array(Message) }), ...errorResponses },
        detail: {
          tags,
          summary:
            "Messages of a conversation: after (≤100), before (≤20), both (range ≤1000), neither (latest 20); ascending",
        },
      },
    )
    .post(
      "",
      async ({ acting, loadSoon, body, headers }) => {
        const conversation = await loadSoon();
        const files = await d.services.attachments.prepare(body.attachments);
        const r = await messages.create(acting, conversation, body, headers["idempotency-key"], files);
        return json(messageOf(r.message, messageScope(r.view)));
      },
      {
        params: ConversationParams,
        ...bodyOf(MessageBody, "message"),
        response: { 200: Message, ...errorResponses },
        detail: { tags, summary: "Create a message (Idempotency-Key header: a retry returns the first result)" },
      },
    )
    .patch(
      "/:message_id",
      async ({ acting, loadSoon, params, body }) => {
        const r = await d.services.messageUpdates.updateStatus(acting, await loadSoon(), params.message_id, body);
        return messageOf(r.message, messageScope(r.view));
      },
      {
        params: MessageParams,
        ...bodyOf(
          t.Object({
            status: t.Optional(Checked(t.String({ enum: ["sent", "delivered", "read", "failed"] }))),
            external_error: t.Optional(Checked(Nullable(t.String({ description: "the reason, kept when failed" })))),
          }),
          "message",
        ),
        response: { 200: Message, ...errorResponses },
        detail: { tags, summary: "Update a message's delivery status (API inboxes only)" },
      },
    )
    .delete(
      "/:message_id",
      async ({ acting, loadSoon, params }) => {
        const r = await d.services.messageUpdates.delete(acting, await loadSoon(), params.message_id);
        return messageOf(r.message, messageScope(r.view));
      },
      {
        params: MessageParams,
        response: { 200: Message, ...errorResponses },
        detail: { tags, summary: "Delete a message (its content is replaced; the record stays)" },
      },
    );
}
