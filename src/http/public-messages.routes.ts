// /public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier/conversations/:conversation_id/messages
// — list, create, update (submitted_values, CSAT answers).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import type { PublicMessages } from "../domain/public-messages.service.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { PublicScope } from "../domain/public-contacts.service.ts";
import { publicMessageOf } from "../domain/presenters/public.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { json } from "./json.ts";
import { publicDetail } from "./public-contacts.routes.ts";
import { PUBLIC_PREFIX, publicContactScope } from "./public-scope.ts";
import { PublicConversationParams, PublicMessage, PublicMessageParams, SubmittedValuesBody } from "./public-schemas.ts";
import { Attachments, EchoId, MessageContent } from "./field-docs.ts";
import { bodyOf } from "./request.ts";
import { errorResponses } from "./schemas.ts";

export function publicMessageRoutes(d: Deps) {
  const present = (row: ConversationRow, r: PublicMessages) =>
    r.messages.map((m) => publicMessageOf(m, row.display_id, r.senders, d.files.links));
  const conversations = d.services.publicConversations;
  const messages = d.services.publicMessages;
  type Ctx = {
    scope: PublicScope;
    loadSoon: () => ConversationRow | Promise<ConversationRow>;
    params: { message_id: string };
    body: { submitted_values?: unknown };
  };
  const update = async ({ scope, loadSoon, params, body }: Ctx) => {
    const row = await loadSoon();
    return present(row, await messages.update(scope, row, params.message_id, body))[0]!;
  };
  const updateOptions = {
    params: PublicMessageParams,
    ...bodyOf(SubmittedValuesBody, "message"),
    response: { 200: PublicMessage, ...errorResponses },
    detail: publicDetail(
      "Answer a message: submitted_values (an object or an array of objects; a CSAT survey's csat_survey_response {rating 1-5, feedback_message})",
    ),
  };
  return new Elysia({
    prefix: `${PUBLIC_PREFIX}/:inbox_identifier/contacts/:contact_identifier/conversations/:conversation_id/messages`,
  })
    .use(publicContactScope(d))
    .derive(({ scope, params }) => {
      const id = (params as { conversation_id: string }).conversation_id;
      return {
        load: () => conversations.get(scope, id),
        loadSoon: () => conversations.getSoon(scope, id),
      };
    })
    .get(
      "",
      ({ scope, params, query }) =>
        whenReady(conversations.messagesSoon(scope, params.conversation_id, query), ({ row, page }) =>
          json(present(row, page)),
        ),
      {
        params: PublicConversationParams,
        query: t.Object({ before: t.Optional(t.String()) }),
        response: { 200: t.Array(PublicMessage), ...errorResponses },
        detail: publicDetail(
          "Messages the contact may see (no private notes, no activity): the latest 20, or the 20 before `before`; oldest first",
        ),
      },
    )
    .post(
      "",
      async ({ scope, loadSoon, body }) => {
        const row = await loadSoon();
        const files = await d.services.attachments.prepare(body.attachments);
        return json(present(row, await messages.create(scope, row, body, files))[0]);
      },
      {
        params: PublicConversationParams,
        ...bodyOf(
          t.Object({
            content: MessageContent,
            echo_id: EchoId,
            attachments: Attachments,
          }),
          "message",
        ),
        response: { 200: PublicMessage, ...errorResponses },
        detail: publicDetail("Send a message from the contact (incoming)"),
      },
    )
    .patch("/:message_id", update, updateOptions)
    .put("/:message_id", update, updateOptions);
}
