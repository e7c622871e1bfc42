// POST /api/v1/accounts/:account_id/conversations/:conversation_id/transcript (Chatwoot's): mails
// the conversation's public messages to `email` (src/mail/transcript.ts). Anyone who may see the
// conversation may send it, as in Chatwoot; 200 with an empty body once the SMTP server took it.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { accountScope } from "./auth.ts";
import { ConversationParams, emptyOk } from "./conversation-schemas.ts";
import { conversationLoader } from "./conversation-scope.ts";
import { bodyOf } from "./request.ts";
import { Checked } from "./schemas.ts";

const Body = t.Object({ email: t.Optional(Checked(t.String({ format: "email" }))) });

export function transcriptRoutes(d: Deps) {
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/conversations/:conversation_id/transcript" })
    .use(accountScope(d.services.auth))
    .derive(conversationLoader(d))
    .post(
      "",
      async ({ acting, about, body }) => {
        // The conversation and what the mail shows, read on the read pool on PostgreSQL.
        const parts = await about((row) => d.mail.transcript.readParts(acting.account.id, row));
        await d.mail.transcript.send(acting, parts, body.email);
        return emptyOk();
      },
      {
        params: ConversationParams,
        ...bodyOf(Body, "transcript"),
        detail: {
          tags: ["conversations"],
          summary:
            "Mail the conversation's transcript (public messages) through an email inbox's SMTP server; 200 with no body, 502 with the server's words if it refused",
        },
      },
    );
}
