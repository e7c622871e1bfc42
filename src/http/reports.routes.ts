// /api/v2/accounts/:account_id — summary reports (summary_reports/team, and
// Chatwoot's agent, inbox and label siblings) and the account overview (reports/summary).
// Administrators only. Definitions and range rules: domain/reports.service.ts, report-params.ts.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { accountScope } from "./auth.ts";
import { AccountParams, Checked, errorResponses, Integer, Nullable, PlainInteger } from "./schemas.ts";

// Validated in the service, so a bad value is a 422 naming the field (never a 500 as in Chatwoot).
const ReportQuery = t.Object({
  since: t.Optional(Checked(PlainInteger({ description: "Unix seconds, inclusive; default: until − 7 days" }))),
  until: t.Optional(Checked(PlainInteger({ description: "Unix seconds, exclusive; default: now" }))),
  business_hours: t.Optional(
    Checked(t.Boolean({ description: "Rails boolean (0, f, false, off are false): averages over working hours only" })),
  ),
});

const Figures = {
  conversations_count: Integer({ description: "conversations created in the range" }),
  resolved_conversations_count: Integer({
    description: "resolutions in the range (a conversation resolved twice counts twice)",
  }),
  avg_resolution_time: Nullable(t.Number({ description: "seconds; null when no data" })),
  avg_first_response_time: Nullable(t.Number({ description: "seconds; null when no data" })),
  avg_reply_time: Nullable(t.Number({ description: "seconds; null when no data" })),
};
const SummaryRow = t.Object({ id: Integer(), ...Figures });
const LabelRow = t.Object({ name: t.String(), ...Figures });

const OverviewFigures = {
  conversations_count: Integer(),
  incoming_messages_count: Integer(),
  outgoing_messages_count: Integer(),
  avg_first_response_time: Nullable(t.Number()),
  avg_resolution_time: Nullable(t.Number()),
  resolutions_count: Integer(),
  reply_time: Nullable(t.Number()),
};
const Overview = t.Object({ ...OverviewFigures, previous: t.Object(OverviewFigures) });

const tags = ["reports"];
const summaries = [
  ["team", "Team summary: one row per team, grouped by each conversation's current team"],
  ["agent", "Agent summary: one row per agent (conversations by current assignee, events by their agent)"],
  ["inbox", "Inbox summary: one row per inbox"],
] as const;

export function reportRoutes(d: Deps) {
  const reports = d.services.reports;
  let app = new Elysia({ prefix: "/api/v2/accounts/:account_id" }).use(accountScope(d.services.auth));
  for (const [dim, summary] of summaries) {
    app = app.get(`/summary_reports/${dim}`, ({ principal, query }) => reports.summary(principal, dim, query), {
      admin: true,
      params: AccountParams,
      query: ReportQuery,
      response: { 200: t.Array(SummaryRow), ...errorResponses },
      detail: { tags, summary },
    });
  }
  return app
    .get("/summary_reports/label", ({ principal, query }) => reports.labels(principal, query), {
      admin: true,
      params: AccountParams,
      query: ReportQuery,
      response: { 200: t.Array(LabelRow), ...errorResponses },
      detail: { tags, summary: "Label summary: one row per label title, by the conversations' current labels" },
    })
    .get("/reports/summary", ({ principal, query }) => reports.overview(principal, query), {
      admin: true,
      params: AccountParams,
      query: t.Object({
        ...ReportQuery.properties,
        type: t.Optional(Checked(t.String({ enum: ["account"], description: "account (the only type)" }))),
      }),
      response: { 200: Overview, ...errorResponses },
      detail: {
        tags,
        summary: "Account overview for the range, with `previous` for the period of equal length before it",
      },
    });
}
