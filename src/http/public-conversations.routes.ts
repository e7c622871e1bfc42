// /public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier/conversations — a contact's
// own conversations: list, create, show, resolve, typing, last seen. Another contact's
// conversation is 401, an unknown one 404.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import type { PublicConversation as View } from "../domain/public-conversations.service.ts";
import { publicConversationOf } from "../domain/presenters/public.presenter.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { whenReady } from "../lib/when-ready.ts";
import { json } from "./json.ts";
import { publicDetail } from "./public-contacts.routes.ts";
import { PUBLIC_PREFIX, publicContactScope } from "./public-scope.ts";
import { ContactIdentifierParams, PublicConversation, PublicConversationParams } from "./public-schemas.ts";
import { TypingStatus } from "./field-docs.ts";
import { bodyOf } from "./request.ts";
import { Attributes, errorResponses } from "./schemas.ts";

export function publicConversationRoutes(d: Deps) {
  const present = (v: View) => publicConversationOf(v.row, v.contact, v.messages, v.senders, d.files.links);
  const svc = d.services.publicConversations;
  return new Elysia({ prefix: `${PUBLIC_PREFIX}/:inbox_identifier/contacts/:contact_identifier/conversations` })
    .use(publicContactScope(d))
    .derive(({ scope, params }) => {
      const id = (params as { conversation_id?: string }).conversation_id;
      return {
        load: () => svc.get(scope, id),
        /** An awaited write's: committed rows, awaited on PostgreSQL (its body reads the row again). */
        loadSoon: () => svc.getSoon(scope, id),
      };
    })
    .get("", ({ scope }) => whenReady(svc.listSoon(scope), (views) => json(views.map(present))), {
      params: ContactIdentifierParams,
      response: { 200: t.Array(PublicConversation), ...errorResponses },
      detail: publicDetail(
        "The contact's conversations (all of the contact's when its identity is verified), newest activity first, at most 20",
      ),
    })
    .post("", async ({ scope, body }) => json(present(await svc.viewSoon(scope, await svc.create(scope, body)))), {
      params: ContactIdentifierParams,
      ...bodyOf(t.Object({ custom_attributes: t.Optional(Attributes) }), "conversation"),
      response: { 200: PublicConversation, ...errorResponses },
      detail: publicDetail("Open a conversation in this inbox"),
    })
    .get(
      "/:conversation_id",
      ({ scope, params }) => whenReady(svc.showSoon(scope, params.conversation_id), (v) => json(present(v))),
      {
        params: PublicConversationParams,
        response: { 200: PublicConversation, ...errorResponses },
        detail: publicDetail("One of the contact's conversations"),
      },
    )
    .post(
      "/:conversation_id/toggle_status",
      async ({ scope, loadSoon }) =>
        json(present(await svc.viewSoon(scope, await svc.resolve(scope, await loadSoon())))),
      {
        params: PublicConversationParams,
        response: { 200: PublicConversation, ...errorResponses },
        detail: publicDetail("Resolve the conversation (already resolved: nothing changes)"),
      },
    )
    .post(
      "/:conversation_id/toggle_typing",
      async ({ scope, loadSoon, body }) => (
        await d.services.typing.toggle(scope.acting, await loadSoon(), body.typing_status, false), emptyOk()
      ),
      {
        params: PublicConversationParams,
        ...bodyOf(t.Object({ typing_status: TypingStatus })),
        detail: publicDetail("The contact started (on) or stopped (off) typing"),
      },
    )
    .post(
      "/:conversation_id/update_last_seen",
      async ({ scope, loadSoon }) => (await svc.markSeen(scope, await loadSoon()), emptyOk()),
      {
        params: PublicConversationParams,
        detail: publicDetail("The contact has read the conversation: agents' messages become read"),
      },
    );
}
