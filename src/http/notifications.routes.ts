// /api/v1/accounts/:account_id/notifications and notification_settings — the signed-in user's own
// notifications (Chatwoot's shapes): list 15 a page, unread count, mark read / unread, read all,
// delete; and which types they want by email and push.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { parseId } from "../domain/auth.service.ts";
import { NotFoundError } from "../domain/errors.ts";
import { NOTIFICATION_TYPES } from "../domain/notification-builder.ts";
import { accountScope } from "./auth.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Checked, errorResponses, Integer, JsonValue, Nullable, PlainInteger } from "./schemas.ts";

const tags = ["notifications"];
const Flags = (kind: string) =>
  Checked(
    t.Array(t.String({ enum: NOTIFICATION_TYPES.map((type) => `${kind}_${type}`) }), {
      description: "replaces the list",
    }),
  );
/** Copies of records as the notification stored them: free-form JSON objects. */
const Loose = (description: string) => t.Record(t.String(), JsonValue, { description });

export const Notification = t.Object({
  id: Integer(),
  notification_type: t.String({
    description:
      "conversation_creation, conversation_assignment, assigned_conversation_new_message, conversation_mention",
  }),
  push_message_title: t.String(),
  primary_actor_type: t.Literal("Conversation"),
  primary_actor_id: Integer({ description: "the conversation's internal id; primary_actor.id is its display id" }),
  primary_actor: Loose("the conversation: {id (display id), meta, inbox_id}"),
  read_at: Nullable(Integer()),
  secondary_actor: Nullable(Loose("who caused it (an agent or the contact), as stored")),
  user: Loose("the notified user (id, name, email, …)"),
  created_at: Integer(),
  last_activity_at: Integer(),
  snoozed_until: t.Null(),
  account_id: Integer(),
});

const Settings = t.Object({
  id: Integer(),
  user_id: Integer(),
  account_id: Integer(),
  all_email_flags: t.Array(t.String()),
  selected_email_flags: t.Array(t.String()),
  all_push_flags: t.Array(t.String()),
  selected_push_flags: t.Array(t.String()),
});

const IdParams = t.Object({ account_id: t.String(), id: t.String() });

function notificationId(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw new NotFoundError("Notification", "id", `no notification ${raw} of yours in this account`);
  return id;
}

export function notificationRoutes(d: Deps) {
  const notifications = d.services.notifications;
  const markRead = async ({
    principal,
    params,
  }: {
    principal: Parameters<typeof notifications.unreadCount>[0];
    params: { id: string };
  }) => await notifications.setRead(principal, notificationId(params.id), true);
  return new Elysia({ prefix: "/api/v1/accounts/:account_id" })
    .use(accountScope(d.services.auth))
    .get("/notifications", ({ principal, query }) => notifications.list(principal, query.page, query.sort_order), {
      params: AccountParams,
      query: t.Object({
        page: t.Optional(t.String()),
        sort_order: t.Optional(t.String({ description: "desc (newest activity first, the default) or asc" })),
      }),
      response: {
        200: t.Object({
          data: t.Object({
            meta: t.Object({ unread_count: Integer(), count: Integer(), current_page: Integer() }),
            payload: t.Array(Notification),
          }),
        }),
        ...errorResponses,
      },
      detail: {
        tags,
        summary:
          "Your notifications in this account (read ones too), newest activity first unless sort_order=asc, 15 a page",
      },
    })
    .get("/notifications/unread_count", ({ principal }) => notifications.unreadCount(principal), {
      params: AccountParams,
      response: { 200: Integer(), ...errorResponses },
      detail: { tags, summary: "How many of your notifications are unread" },
    })
    .post(
      "/notifications/read_all",
      async ({ principal, body }) => (
        await notifications.readAll(principal, body.primary_actor_type, body.primary_actor_id), emptyOk()
      ),
      {
        params: AccountParams,
        ...bodyOf(
          t.Object({
            primary_actor_type: t.Optional(Checked(Nullable(t.String({ enum: ["Conversation"] })))),
            primary_actor_id: t.Optional(
              Checked(PlainInteger({ minimum: 1, description: "the conversation's id, with primary_actor_type" })),
            ),
          }),
        ),
        detail: {
          tags,
          summary:
            "Mark all your notifications read, or those of one conversation (primary_actor_type Conversation, primary_actor_id)",
        },
      },
    )
    .patch("/notifications/:id", markRead, {
      params: IdParams,
      response: { 200: Notification, ...errorResponses },
      detail: { tags, summary: "Mark a notification read" },
    })
    .put("/notifications/:id", markRead, {
      params: IdParams,
      response: { 200: Notification, ...errorResponses },
      detail: { tags, summary: "Mark a notification read (as PATCH)" },
    })
    .post(
      "/notifications/:id/unread",
      async ({ principal, params }) => await notifications.setRead(principal, notificationId(params.id), false),
      {
        params: IdParams,
        response: { 200: Notification, ...errorResponses },
        detail: { tags, summary: "Mark a notification unread again" },
      },
    )
    .delete(
      "/notifications/:id",
      async ({ principal, params }) => (await notifications.delete(principal, notificationId(params.id)), emptyOk()),
      {
        params: IdParams,
        detail: { tags, summary: "Delete a notification" },
      },
    )
    .get("/notification_settings", ({ principal }) => notifications.settings(principal), {
      params: AccountParams,
      response: { 200: Settings, ...errorResponses },
      detail: {
        tags,
        summary: "Which notification types you get by email and push (in-app notifications are always made)",
      },
    })
    .patch("/notification_settings", async ({ principal, body }) => await notifications.saveSettings(principal, body), {
      params: AccountParams,
      ...bodyOf(
        t.Object({
          selected_email_flags: t.Optional(Flags("email")),
          selected_push_flags: t.Optional(Flags("push")),
        }),
        "notification_settings",
      ),
      response: { 200: Settings, ...errorResponses },
      detail: { tags, summary: "Choose the notification types you get by email and push" },
    });
}
