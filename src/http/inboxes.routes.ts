// /api/v1/accounts/:account_id/inboxes — list, show, create, update, delete.
import { Elysia, t } from "elysia";
import type { InboxRow } from "../db/inboxes.repo.ts";
import type { Deps } from "../deps.ts";
import { parseId, type AccountPrincipal } from "../domain/auth.service.ts";
import type { ShownInbox } from "../domain/inboxes.service.ts";
import { inboxOf } from "../domain/presenters/inbox.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { EmailSettingsBody, EmailSettingsRecord } from "./email-channel-schemas.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Attributes, Checked, errorResponses, Integer, Nullable } from "./schemas.ts";

const NullableInt = Nullable(Integer());

export const WorkingHoursEntry = t.Object({
  day_of_week: Integer(),
  closed_all_day: t.Boolean(),
  open_all_day: t.Boolean(),
  open_hour: NullableInt,
  open_minutes: NullableInt,
  close_hour: NullableInt,
  close_minutes: NullableInt,
});

const S = Nullable(t.String());

/** Chatwoot's inbox record; type-specific keys appear only for their channel type. */
export const Inbox = t.Object({
  id: Integer(),
  avatar_url: t.String(),
  channel_id: Integer(),
  name: t.String(),
  channel_type: t.String({ description: "Channel::Api, Channel::WebWidget, Channel::Email or Channel::Sms" }),
  greeting_enabled: t.Boolean(),
  greeting_message: S,
  working_hours_enabled: t.Boolean(),
  enable_email_collect: t.Boolean(),
  csat_survey_enabled: t.Boolean(),
  csat_config: Attributes,
  enable_auto_assignment: t.Boolean(),
  auto_assignment_config: Attributes,
  out_of_office_message: S,
  working_hours: t.Array(WorkingHoursEntry),
  timezone: t.String(),
  callback_webhook_url: S,
  allow_messages_after_resolved: t.Boolean(),
  lock_to_single_conversation: t.Boolean(),
  sender_name_type: t.String(),
  business_name: S,
  widget_color: S,
  website_url: S,
  hmac_mandatory: Nullable(t.Boolean()),
  welcome_title: S,
  welcome_tagline: S,
  web_widget_script: S,
  website_token: S,
  selected_feature_flags: Nullable(t.Array(t.String())),
  reply_time: S,
  pre_chat_form_enabled: t.Optional(t.Boolean()),
  pre_chat_form_options: t.Optional(Attributes),
  allowed_origins: t.Optional(
    t.Array(t.String(), { description: "origins whose pages may embed the website chat; empty: website_url's origin" }),
  ),
  hmac_token: t.Optional(S),
  webhook_secret: t.Optional(Nullable(t.String())),
  messaging_service_sid: S,
  phone_number: S,
  email: t.Optional(S),
  forward_to_email: t.Optional(S),
  webhook_url: t.Optional(S),
  inbox_identifier: t.Optional(S),
  additional_attributes: t.Optional(Attributes),
  provider: S,
  ...EmailSettingsRecord,
});

// Checked: read as sent and checked by the service (422 in its words); the document shows the type.
const Text = t.Optional(Checked(Nullable(t.String())));
const Check = t.Optional(Checked(t.Boolean()));
const Flag = t.Optional(t.Boolean());

const InboxBody = t.Object({
  name: t.Optional(Checked(t.String())),
  channel: t.Optional(
    t.Object({
      type: t.Optional(
        Checked(t.String({ description: "api, web_widget, email, sms (or Chatwoot's Channel::… names)" })),
      ),
      webhook_url: Text,
      hmac_mandatory: Flag,
      additional_attributes: t.Optional(Attributes),
      website_url: Text,
      widget_color: Text,
      welcome_title: Text,
      welcome_tagline: Text,
      reply_time: Text,
      pre_chat_form_enabled: Check,
      pre_chat_form_options: t.Optional(Checked(Attributes)),
      allowed_origins: t.Optional(Checked(t.Array(t.String()))),
      email: Text,
      phone_number: Text,
      provider: Text,
      ...EmailSettingsBody,
    }),
  ),
  greeting_enabled: Flag,
  greeting_message: Text,
  out_of_office_message: Text,
  working_hours_enabled: Flag,
  working_hours: t.Optional(Checked(t.Array(WorkingHoursEntry))),
  timezone: Text,
  csat_survey_enabled: Flag,
  csat_config: t.Optional(Attributes),
  lock_to_single_conversation: Flag,
  allow_messages_after_resolved: Flag,
  enable_auto_assignment: Flag,
  auto_assignment_config: t.Optional(Attributes),
  enable_email_collect: Flag,
  sender_name_type: Text,
  business_name: Text,
});

const CheckResult = Nullable(t.Object({ ok: t.Boolean(), message: t.String() }));
const ConnectionReport = t.Object({ imap: CheckResult, smtp: CheckResult });

const IdParams = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["inboxes"];

export function inboxRoutes(d: Deps) {
  const inboxes = d.services.inboxes;
  // Mail settings (email inboxes) are administrators' business, as in Chatwoot.
  const present = (p: AccountPrincipal, { row, email }: ShownInbox) => ({
    ...inboxOf(row, { administrator: p.role === "administrator" }),
    ...email,
  });
  const presentInbox = async (p: AccountPrincipal, row: InboxRow) => present(p, await inboxes.shown(p, row));
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/inboxes" })
    .use(accountScope(d.services.auth))
    .get(
      "",
      ({ principal }) =>
        whenReady(inboxes.list(principal), (rows) => ({ payload: rows.map((r) => present(principal, r)) })),
      {
        params: AccountParams,
        response: { 200: t.Object({ payload: t.Array(Inbox) }), ...errorResponses },
        detail: { tags, summary: "List inboxes (agents see the inboxes they are members of)" },
      },
    )
    .get(
      "/:id",
      ({ principal, params }) =>
        whenReady(inboxes.show(principal, parseId(params.id)), (shown) => present(principal, shown)),
      {
        params: IdParams,
        response: { 200: Inbox, ...errorResponses },
        detail: { tags, summary: "Show an inbox (administrators, or members of the inbox)" },
      },
    )
    .post("", async ({ principal, body }) => presentInbox(principal, await inboxes.create(principal, body)), {
      admin: true,
      params: AccountParams,
      ...bodyOf(InboxBody, "inbox"),
      response: { 200: Inbox, ...errorResponses },
      detail: { tags, summary: "Create an inbox (administrators)" },
    })
    .patch(
      "/:id",
      async ({ principal, params, body }) =>
        presentInbox(principal, await inboxes.update(principal, parseId(params.id), body)),
      {
        admin: true,
        params: IdParams,
        ...bodyOf(InboxBody, "inbox"),
        response: { 200: Inbox, ...errorResponses },
        detail: { tags, summary: "Update an inbox (administrators)" },
      },
    )
    .post("/:id/test_connection", ({ principal, params }) => d.mail.check.run(principal, parseId(params.id)), {
      admin: true,
      params: IdParams,
      response: { 200: ConnectionReport, ...errorResponses },
      detail: {
        tags,
        summary: "Email inboxes: log in to the IMAP and SMTP servers and say what worked (Parley; administrators)",
      },
    })
    .delete(
      "/:id",
      async ({ principal, params }) => {
        await inboxes.delete(principal, parseId(params.id));
        return { message: "The inbox and its memberships were deleted." };
      },
      {
        admin: true,
        params: IdParams,
        response: { 200: t.Object({ message: t.String() }), ...errorResponses },
        detail: { tags, summary: "Delete an inbox with its memberships (administrators)" },
      },
    );
}
