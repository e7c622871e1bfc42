// POST contacts/filter and conversations/filter: Chatwoot's advanced filters, paged like the lists.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { FILTER_OPERATORS } from "../domain/filter-input.ts";
import { contactOf } from "../domain/presenters/contact.presenter.ts";
import { conversationOf } from "../domain/presenters/conversation.presenter.ts";
import { accountScope } from "./auth.ts";
import { ContactPage, Conversation } from "./conversation-schemas.ts";
import { json } from "./json.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Checked, errorResponses, Integer, Nullable } from "./schemas.ts";

const FilterValue = t.Union([t.String({ maxLength: 255 }), t.Number(), t.Boolean()]);

/** One condition. Types are checked here; names, operators and values by the service, which names the item in its 422. */
export const FilterConditionSchema = t.Object({
  attribute_key: t.String({
    description: "a standard attribute, or a custom attribute key with custom_attribute_type",
  }),
  filter_operator: t.String({ description: `one of ${FILTER_OPERATORS.join(", ")}` }),
  // Checked by the service, whose 422 says which types the attribute takes.
  values: t.Optional(
    Checked(
      t.Union([t.Array(FilterValue), FilterValue], {
        description:
          "an array of strings, numbers or booleans to compare with (ignored by is_present / is_not_present)",
      }),
    ),
  ),
  query_operator: t.Optional(
    Nullable(t.String({ description: "AND or OR: how this condition joins the next; AND binds before OR" })),
  ),
  custom_attribute_type: t.Optional(
    Nullable(t.String({ description: "contact_attribute or conversation_attribute for a custom attribute" })),
  ),
});
const FilterBody = t.Object({ payload: t.Array(FilterConditionSchema), page: t.Optional(Integer()) });
const PageQuery = t.Object({ page: t.Optional(t.String()) });

const ConversationFilterPage = t.Object({
  meta: t.Object({
    mine_count: Integer(),
    assigned_count: Integer(),
    unassigned_count: Integer(),
    all_count: Integer(),
    count: Integer(),
    current_page: t.String(),
  }),
  payload: t.Array(Conversation),
});

export function recordFilterRoutes(d: Deps) {
  const filters = d.services.recordFilters;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id" })
    .use(accountScope(d.services.auth))
    .derive(({ principal }) => ({ acting: actingAs(principal) }))
    .post(
      "/contacts/filter",
      async ({ acting, body, query }) => {
        const r = await filters.contacts(acting, body.payload, query.page ?? body.page);
        const withInboxes = await d.services.contactReads.withInboxesSoon(r.rows);
        return json({
          meta: { count: r.count, current_page: String(r.page) },
          payload: withInboxes.map((i) => contactOf(i.contact, i.contactInboxes)),
        });
      },
      {
        params: AccountParams,
        query: PageQuery,
        ...bodyOf(FilterBody),
        response: { 200: ContactPage, ...errorResponses },
        detail: { tags: ["contacts"], summary: "Filter contacts with Chatwoot's filter payload, 15 per page" },
      },
    )
    .post(
      "/conversations/filter",
      async ({ acting, body, query }) => {
        const svc = d.services.conversations;
        const r = await filters.conversations(acting, body.payload, query.page ?? body.page);
        return json({
          meta: { ...r.counts, count: r.counts.all_count, current_page: String(r.page) },
          payload: (await svc.listViews(acting, r.rows)).map(conversationOf),
        });
      },
      {
        params: AccountParams,
        query: PageQuery,
        ...bodyOf(FilterBody),
        response: { 200: ConversationFilterPage, ...errorResponses },
        detail: {
          tags: ["conversations"],
          summary: "Filter the conversations the caller may see with Chatwoot's filter payload, 25 per page",
        },
      },
    );
}
