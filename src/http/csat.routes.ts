// GET /api/v1/accounts/:account_id/csat_survey_responses — the contacts' CSAT answers for agents:
// administrators see the whole account's, agents those of their inboxes (since/until, page).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { csatResponseOf } from "../domain/presenters/csat.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { Contact } from "./conversation-schemas.ts";
import { AccountParams, Agent, errorResponses, Integer, Nullable } from "./schemas.ts";

export const CsatResponse = t.Object({
  id: Integer(),
  rating: Integer({ description: "1 to 5" }),
  feedback_message: Nullable(t.String()),
  account_id: Integer(),
  message_id: Integer({ description: "the survey message" }),
  contact: t.Optional(Contact),
  conversation_id: Integer({ description: "the conversation's display id" }),
  assigned_agent: t.Optional(Agent),
  created_at: Integer(),
});

export function csatRoutes(d: Deps) {
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/csat_survey_responses" })
    .use(accountScope(d.services.auth))
    .get(
      "",
      ({ principal, query }) =>
        whenReady(d.services.csat.list(actingAs(principal), query), (rows) => rows.map(csatResponseOf)),
      {
        params: AccountParams,
        query: t.Object({ since: t.Optional(t.String()), until: t.Optional(t.String()), page: t.Optional(t.String()) }),
        response: { 200: t.Array(CsatResponse), ...errorResponses },
        detail: {
          tags: ["csat"],
          summary:
            "CSAT survey answers, newest first, 25 a page; since (inclusive) and until (exclusive) are Unix seconds",
        },
      },
    );
}
