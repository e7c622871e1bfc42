// /api/v1/accounts/:account_id/dashboard_apps — Chatwoot's dashboard apps (the list is a bare
// array, as the mobile app reads it; create and update answer the record; delete answers 204).
import { Elysia, t } from "elysia";
import type { DashboardAppRow } from "../db/dashboard-apps.repo.ts";
import type { Deps } from "../deps.ts";
import { isoFromSeconds } from "../lib/clock.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Checked, errorResponses, Integer } from "./schemas.ts";

const Frame = t.Object({ type: t.Literal("frame"), url: t.String({ description: "an http(s) URL" }) });
const DashboardApp = t.Object({
  id: Integer(),
  title: t.String(),
  content: t.Array(Frame),
  show_on_sidebar: t.Boolean(),
  created_at: t.String({ description: "ISO 8601" }),
});
// Unchecked here: the service checks each field and names it (content[0].url).
const Body = t.Object({
  title: t.Optional(Checked(t.String({ maxLength: 255 }))),
  content: t.Optional(Checked(t.Array(Frame, { minItems: 1, maxItems: 10 }))),
  show_on_sidebar: t.Optional(Checked(t.Boolean())),
});
const IdParams = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["dashboard apps"];

const present = (r: DashboardAppRow) => ({
  id: r.id,
  title: r.title,
  content: JSON.parse(r.content) as { type: "frame"; url: string }[],
  show_on_sidebar: r.show_on_sidebar === 1,
  created_at: isoFromSeconds(r.created_at)!,
});

export function dashboardAppRoutes(d: Deps) {
  const apps = d.services.dashboardApps;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/dashboard_apps" })
    .use(accountScope(d.services.auth))
    .get("", ({ principal }) => whenReady(apps.list(principal), (rows) => rows.map(present)), {
      params: AccountParams,
      response: { 200: t.Array(DashboardApp), ...errorResponses },
      detail: { tags, summary: "The account's dashboard apps (every member)" },
    })
    .get("/:id", ({ principal, params }) => whenReady(apps.showSoon(principal, params.id), present), {
      params: IdParams,
      response: { 200: DashboardApp, ...errorResponses },
      detail: { tags, summary: "One dashboard app" },
    })
    .post("", async ({ principal, body }) => present(await apps.create(principal, body)), {
      params: AccountParams,
      ...bodyOf(Body, "dashboard_app"),
      response: { 200: DashboardApp, ...errorResponses },
      detail: { tags, summary: "Create a dashboard app (administrators)" },
    })
    .patch("/:id", async ({ principal, params, body }) => present(await apps.update(principal, params.id, body)), {
      params: IdParams,
      ...bodyOf(Body, "dashboard_app"),
      response: { 200: DashboardApp, ...errorResponses },
      detail: { tags, summary: "Change a dashboard app (administrators)" },
    })
    .delete(
      "/:id",
      async ({ principal, params }) => (await apps.delete(principal, params.id), new Response(null, { status: 204 })),
      {
        params: IdParams,
        detail: { tags, summary: "Delete a dashboard app (administrators); 204" },
      },
    );
}
