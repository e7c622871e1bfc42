// /api/v1/accounts/:account_id/custom_filters — each user's saved filters (Chatwoot's shapes).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import type { CustomFilterRow } from "../db/custom-filters.repo.ts";
import { actingAs } from "../domain/acting.ts";
import { parseId } from "../domain/auth.service.ts";
import { NotFoundError } from "../domain/errors.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { FilterConditionSchema } from "./record-filters.routes.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Attributes, errorResponses, Integer } from "./schemas.ts";

const FilterType = t.Union([t.Literal("conversation"), t.Literal("contact"), t.Literal("report")]);
const CustomFilter = t.Object({
  id: Integer(),
  name: t.String(),
  filter_type: FilterType,
  query: Attributes,
  created_at: t.String(),
  updated_at: t.String(),
});
const CustomFilterBody = t.Object({
  name: t.Optional(t.String()),
  filter_type: t.Optional(t.String({ description: "conversation (default), contact or report" })),
  query: t.Optional(t.Object({ payload: t.Optional(t.Array(FilterConditionSchema)) }, { additionalProperties: true })),
});
const Params = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["custom_filters"];

const iso = (s: number) => new Date(s * 1000).toISOString();
const present = (f: CustomFilterRow) => ({
  id: f.id,
  name: f.name,
  filter_type: f.filter_type,
  query: JSON.parse(f.query) as Record<string, unknown>,
  created_at: iso(f.created_at),
  updated_at: iso(f.updated_at),
});

function filterId(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw new NotFoundError("Custom filter", "id", `no custom filter ${raw}`);
  return id;
}

export function customFilterRoutes(d: Deps) {
  const filters = d.services.customFilters;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/custom_filters" })
    .use(accountScope(d.services.auth))
    .derive(({ principal }) => ({ acting: actingAs(principal) }))
    .get("", ({ acting, query }) => whenReady(filters.list(acting, query.filter_type), (rows) => rows.map(present)), {
      params: AccountParams,
      query: t.Object({ filter_type: t.Optional(t.String()) }),
      response: { 200: t.Array(CustomFilter), ...errorResponses },
      detail: { tags, summary: "Your saved filters of one type (conversation by default)" },
    })
    .post("", async ({ acting, body }) => present(await filters.create(acting, body)), {
      params: AccountParams,
      ...bodyOf(CustomFilterBody, "custom_filter"),
      response: { 200: CustomFilter, ...errorResponses },
      detail: { tags, summary: "Save a filter (at most 50 per user)" },
    })
    .get("/:id", ({ acting, params }) => whenReady(filters.get(acting, filterId(params.id)), present), {
      params: Params,
      response: { 200: CustomFilter, ...errorResponses },
      detail: { tags, summary: "One of your saved filters" },
    })
    .patch(
      "/:id",
      async ({ acting, params, body }) => present(await filters.update(acting, filterId(params.id), body)),
      {
        params: Params,
        ...bodyOf(CustomFilterBody, "custom_filter"),
        response: { 200: CustomFilter, ...errorResponses },
        detail: { tags, summary: "Change a saved filter" },
      },
    )
    .delete("/:id", async ({ acting, params }) => (await filters.delete(acting, filterId(params.id)), emptyOk()), {
      params: Params,
      detail: { tags, summary: "Delete a saved filter" },
    });
}
