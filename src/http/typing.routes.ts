// POST /api/v1/accounts/:account_id/conversations/:conversation_id/toggle_typing_status — an agent
// starts or stops typing (Chatwoot's dashboard calls it; 200 with an empty body).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { accountScope } from "./auth.ts";
import { conversationLoader } from "./conversation-scope.ts";
import { ConversationParams, emptyOk } from "./conversation-schemas.ts";
import { TypingStatus } from "./field-docs.ts";
import { bodyOf } from "./request.ts";

export function typingRoutes(d: Deps) {
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/conversations/:conversation_id" })
    .use(accountScope(d.services.auth))
    .derive(conversationLoader(d))
    .post(
      "/toggle_typing_status",
      async ({ acting, loadSoon, body }) => (
        await d.services.typing.toggle(acting, await loadSoon(), body.typing_status, body.is_private), emptyOk()
      ),
      {
        params: ConversationParams,
        ...bodyOf(
          t.Object({
            typing_status: TypingStatus,
            is_private: t.Optional(t.Boolean({ description: "typing a private note: not shown to the contact" })),
          }),
        ),
        detail: {
          tags: ["conversations"],
          summary: "Tell the conversation's watchers that the agent started or stopped typing",
        },
      },
    );
}
