// POST /api/v1/accounts/:account_id/bulk_actions — Chatwoot's bulk change of conversations (the
// mobile app's and the dashboard's multi-select). Answers 200 with no body, as Chatwoot's
// `head :ok`, once every change is made (src/domain/bulk-actions.service.ts).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { MAX_BULK_IDS } from "../domain/bulk-actions.service.ts";
import { accountScope } from "./auth.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Checked, Integer, Nullable } from "./schemas.ts";

const BulkBody = t.Object({
  type: Checked(t.String({ description: '"Conversation"' })),
  ids: Checked(t.Array(Integer(), { description: `conversation display ids (at most ${MAX_BULK_IDS})` })),
  fields: t.Optional(
    Checked(
      t.Object({
        status: t.Optional(Nullable(t.String({ description: "open, resolved, pending or snoozed; null: unchanged" }))),
        assignee_id: t.Optional(Nullable(Integer({ description: "an agent; null unassigns" }))),
        team_id: t.Optional(Nullable(Integer({ description: "a team; null or 0 removes the team" }))),
      }),
    ),
  ),
  labels: t.Optional(
    Checked(
      t.Object({
        add: t.Optional(t.Array(t.String(), { description: "labels to add" })),
        remove: t.Optional(t.Array(t.String(), { description: "labels to remove (removed first)" })),
      }),
    ),
  ),
  snoozed_until: t.Optional(Checked(Nullable(Integer({ description: "with status snoozed: unix seconds" })))),
});

export function bulkActionRoutes(d: Deps) {
  return new Elysia({ prefix: "/api/v1/accounts/:account_id" }).use(accountScope(d.services.auth)).post(
    "/bulk_actions",
    async ({ principal, body }) => {
      await d.services.bulkActions.apply(actingAs(principal), body);
      return emptyOk();
    },
    {
      params: AccountParams,
      ...bodyOf(BulkBody),
      detail: {
        tags: ["conversations"],
        summary:
          "Change many conversations at once: labels, status, assignee, team; all or none (an id the caller may not see refuses the batch)",
      },
    },
  );
}
