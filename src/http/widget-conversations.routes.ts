// /api/v1/widget — the visitor's current conversation (index, create with the first message,
// typing, last seen, resolve, custom attributes, labels) and its messages (list, send, answer a
// CSAT survey or form). The visitor sees only what the public API shows a contact: no private
// notes, no activity messages, no other contact's anything, no agent emails.
import { Elysia, t } from "elysia";
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { Deps } from "../deps.ts";
import type { FileLinks } from "../files/links.ts";
import type { PublicMessages } from "../domain/public-messages.service.ts";
import { publicConversationOf, publicMessageOf } from "../domain/presenters/public.presenter.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { attachmentsIn, EchoId, MessageContent, ReplyTo, TypingStatus } from "./field-docs.ts";
import { whenReady } from "../lib/when-ready.ts";
import { json } from "./json.ts";
import { SubmittedValuesBody } from "./public-schemas.ts";
import { bodyOf } from "./request.ts";
import { Checked, errorResponses, JsonValue } from "./schemas.ts";
import { widgetDetail } from "./widget-contacts.routes.ts";
import {
  KeysBody,
  SetAttributesBody,
  WebsiteTokenBefore,
  WidgetMessage,
  WidgetConversationList,
  WebsiteTokenQuery,
  WidgetConversation,
  WidgetConversationSummary,
  WidgetStartBody,
} from "./widget-schemas.ts";
import { WIDGET_PREFIX, widgetScope } from "./widget-scope.ts";

// The public message plus its delivery status: the chat shows the visitor "Sent" and "Read" (an
// agent opening the conversation marks the visitor's messages read, and message.updated says so live).
const messagesOf = (row: ConversationRow, r: PublicMessages, links: FileLinks) =>
  r.messages.map((m) => ({ ...publicMessageOf(m, row.display_id, r.senders, links), status: m.status }));

const Labels = t.Object({ labels: t.Array(t.String()) });

export function widgetConversationRoutes(d: Deps) {
  const svc = d.services.widgetConversations;
  const publicConversations = d.services.publicConversations;
  const publicMessages = d.services.publicMessages;
  // After an awaited write: on committed rows (PostgreSQL's read pool).
  const present = async (scope: Parameters<typeof publicConversations.view>[0], row: ConversationRow) => {
    const v = await publicConversations.viewSoon(scope, row);
    return publicConversationOf(v.row, v.contact, v.messages, v.senders, d.files.links);
  };
  const q = { query: WebsiteTokenQuery };
  return new Elysia({ prefix: WIDGET_PREFIX })
    .use(widgetScope(d))
    .get(
      "/conversations",
      ({ visitor, visitorReads }) =>
        whenReady(svc.currentRowSoon({ now: visitor, reads: visitorReads }), (row) =>
          row
            ? {
                id: row.display_id,
                inbox_id: row.inbox_id,
                status: row.status,
                contact_last_seen_at: row.contact_last_seen_at ?? 0,
              }
            : {},
        ),
      {
        ...q,
        response: { 200: WidgetConversationSummary, ...errorResponses },
        detail: widgetDetail("The visitor's current conversation ({} before the first message)"),
      },
    )
    .get(
      "/conversations/list",
      ({ visitor, visitorReads, query }) =>
        whenReady(svc.listSoon({ now: visitor, reads: visitorReads }, query.page), ({ items, hasNextPage }) => {
          const payload = items.map(({ row, unread, last }) => ({
            id: row.display_id,
            inbox_id: row.inbox_id,
            status: row.status,
            contact_last_seen_at: row.contact_last_seen_at ?? 0,
            last_activity_at: row.last_activity_at,
            unread_count: unread,
            last_message: last ? messagesOf(row, last, d.files.links)[0]! : null,
          }));
          return json({
            payload,
            meta: { has_next_page: hasNextPage, unread_count: payload.filter((c) => c.unread_count > 0).length },
          });
        }),
      {
        query: t.Object({ website_token: t.String(), page: t.Optional(t.String()) }),
        response: { 200: WidgetConversationList, ...errorResponses },
        detail: widgetDetail(
          "The visitor's conversations, newest activity first, 20 a page, each with its unread count and last visible message",
        ),
      },
    )
    .post(
      "/conversations",
      async ({ visitorSoon, body }) => {
        const scope = await visitorSoon();
        const { row } = await svc.start(scope, body);
        return json(await present(scope, row));
      },
      {
        ...q,
        ...bodyOf(WidgetStartBody),
        response: { 200: WidgetConversation, ...errorResponses },
        detail: widgetDetail(
          "Open a conversation with its first message: {contact: {name, email, phone_number}, message: {content}, custom_attributes}",
        ),
      },
    )
    .post(
      "/conversations/toggle_typing",
      async ({ visitorSoon, body }) => {
        const scope = await visitorSoon();
        await d.services.typing.toggle(scope.acting, await svc.requiredLater(scope), body.typing_status, false);
        return emptyOk();
      },
      {
        ...q,
        ...bodyOf(t.Object({ typing_status: TypingStatus })),
        detail: widgetDetail("The visitor started (on) or stopped (off) typing"),
      },
    )
    .post(
      "/conversations/update_last_seen",
      async ({ visitorSoon }) => {
        const scope = await visitorSoon();
        await publicConversations.markSeen(scope, await svc.requiredLater(scope));
        return emptyOk();
      },
      { ...q, detail: widgetDetail("The visitor has read the conversation") },
    )
    .get(
      "/conversations/toggle_status",
      async ({ visitorSoon }) => {
        const scope = await visitorSoon();
        return json(await present(scope, await publicConversations.resolve(scope, await svc.requiredLater(scope))));
      },
      {
        ...q,
        response: { 200: WidgetConversation, ...errorResponses },
        detail: widgetDetail("The visitor ends the chat: resolve the conversation"),
      },
    )
    .post(
      "/conversations/set_custom_attributes",
      async ({ visitorSoon, body }) => {
        const scope = await visitorSoon();
        return json(await present(scope, await svc.setCustomAttributes(scope, body.custom_attributes)));
      },
      {
        ...q,
        ...bodyOf(SetAttributesBody),
        response: { 200: WidgetConversation, ...errorResponses },
        detail: widgetDetail("Merge custom attributes into the conversation's"),
      },
    )
    .post(
      "/conversations/destroy_custom_attributes",
      async ({ visitorSoon, body }) => {
        const scope = await visitorSoon();
        const row = await svc.removeCustomAttributes(scope, body.custom_attributes ?? body.custom_attribute);
        return json(await present(scope, row));
      },
      {
        ...q,
        ...bodyOf(KeysBody),
        response: { 200: WidgetConversation, ...errorResponses },
        detail: widgetDetail("Remove the conversation's custom attributes with these keys"),
      },
    )
    .post(
      "/events",
      async ({ visitorSoon, body }) => (
        await svc.triggered(await visitorSoon(), body.name, body.event_info), emptyOk()
      ),
      {
        ...q,
        ...bodyOf(
          t.Object({
            name: t.Optional(Checked(t.String({ enum: ["webwidget.triggered"] }))),
            event_info: t.Optional(
              Checked(
                t.Record(t.String(), JsonValue, {
                  description: "facts about the visitor's browser (at most 4096 characters as JSON)",
                }),
              ),
            ),
          }),
        ),
        detail: widgetDetail(
          "The visitor opened the chat: name webwidget.triggered, event_info (browser facts); webhooks receive webwidget_triggered",
        ),
      },
    )
    .post(
      "/labels",
      async ({ visitorSoon, body }) => ({ labels: await svc.addLabel(await visitorSoon(), body.label) }),
      {
        ...q,
        ...bodyOf(
          t.Object({ label: t.Optional(Checked(t.String({ description: "one of the account's label titles" }))) }),
        ),
        response: { 200: Labels, ...errorResponses },
        detail: widgetDetail("Label the conversation with one of the account's labels"),
      },
    )
    .delete(
      "/labels/:label",
      async ({ visitorSoon, params }) => ({ labels: await svc.removeLabel(await visitorSoon(), params.label) }),
      {
        ...q,
        params: t.Object({ label: t.String() }),
        response: { 200: Labels, ...errorResponses },
        detail: widgetDetail("Take a label off the conversation"),
      },
    )
    .get(
      "/messages",
      ({ visitor, visitorReads, query }) =>
        whenReady(svc.messagesSoon({ now: visitor, reads: visitorReads }, query), (found) =>
          json(found ? messagesOf(found.row, found.page, d.files.links) : []),
        ),
      {
        query: WebsiteTokenBefore,
        response: { 200: t.Array(WidgetMessage), ...errorResponses },
        detail: widgetDetail(
          "The current conversation's messages: the latest 20, or the 20 before `before`; oldest first",
        ),
      },
    )
    .post(
      "/messages",
      async ({ inbox, authToken, body }) => {
        // Committed rows, awaited on PostgreSQL; the body reads the conversation again in its own.
        const scope = await d.services.widget.visitorSoon(inbox, authToken);
        const files = await d.services.attachments.prepare(body.attachments);
        const { row, messages } = await svc.send(scope, body, files);
        return json(messagesOf(row, messages, d.files.links)[0]);
      },
      {
        ...q,
        ...bodyOf(
          t.Object({
            content: MessageContent,
            echo_id: EchoId,
            reply_to: ReplyTo,
            attachments: attachmentsIn("message[attachments][]"),
          }),
          "message",
        ),
        response: { 200: WidgetMessage, ...errorResponses },
        detail: widgetDetail("Send a message (opens a conversation when there is none)"),
      },
    )
    .patch(
      "/messages/:message_id",
      async ({ visitorSoon, params, body }) => {
        const scope = await visitorSoon();
        const row = await svc.requiredLater(scope);
        return json(
          messagesOf(row, await publicMessages.update(scope, row, params.message_id, body), d.files.links)[0],
        );
      },
      {
        ...q,
        params: t.Object({ message_id: t.String() }),
        ...bodyOf(SubmittedValuesBody, "message"),
        response: { 200: WidgetMessage, ...errorResponses },
        detail: widgetDetail(
          "Answer a message: submitted_values (a CSAT survey's csat_survey_response {rating 1-5, feedback_message})",
        ),
      },
    );
}
