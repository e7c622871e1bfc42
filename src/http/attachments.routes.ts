// GET /api/v1/accounts/:account_id/conversations/:conversation_id/attachments — the files of a
// conversation, newest first (Chatwoot's `attachments` action: payload of attachment records with
// the time of their message; meta.total_count). 100 a page.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { conversationAttachmentOf } from "../domain/presenters/attachment.presenter.ts";
import { ValidationError } from "../domain/errors.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { ConversationParams } from "./conversation-schemas.ts";
import { conversationLoader } from "./conversation-scope.ts";
import { json } from "./json.ts";
import { PublicAttachment } from "./public-schemas.ts";
import { errorResponses, Integer } from "./schemas.ts";

function pageOf(raw: unknown): number {
  if (raw === undefined || raw === "") return 1;
  if (typeof raw !== "string" || !/^\d{1,6}$/.test(raw) || Number(raw) < 1)
    throw ValidationError.of("page", "must be a whole number from 1", "invalid");
  return Number(raw);
}

export function attachmentRoutes(d: Deps) {
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/conversations/:conversation_id" })
    .use(accountScope(d.services.auth))
    .derive(conversationLoader(d))
    .get(
      "/attachments",
      ({ about, query }) =>
        whenReady(
          about((row) => d.services.attachments.readOfConversation(row.id, true, pageOf(query.page))),
          ({ total, rows }) =>
            json({
              meta: { total_count: total },
              payload: rows.map((a) => conversationAttachmentOf(a, d.files.links)),
            }),
        ),
      {
        params: ConversationParams,
        query: t.Object({ page: t.Optional(t.String()) }),
        response: {
          200: t.Object({
            meta: t.Object({ total_count: Integer() }),
            payload: t.Array(t.Object({ ...PublicAttachment.properties, created_at: Integer() })),
          }),
          ...errorResponses,
        },
        detail: { tags: ["messages"], summary: "The conversation's attachments, newest first (100 a page)" },
      },
    );
}
