// /api/v1/accounts/:account_id/contacts — contacts, their search, show, contact_inboxes,
// conversations and labels.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { parseId } from "../domain/auth.service.ts";
import type { ContactWithInboxes } from "../domain/contact-reads.ts";
import { NotFoundError } from "../domain/errors.ts";
import { contactOf, inboxSlim } from "../domain/presenters/contact.presenter.ts";
import { conversationOf } from "../domain/presenters/conversation.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { json } from "./json.ts";
import {
  Contact,
  ContactInbox,
  ContactPage,
  ContactQuery,
  Conversation,
  emptyOk,
  IdParams,
  InboxSlim,
  Labels,
} from "./conversation-schemas.ts";
import { ContactFieldDocs } from "./field-docs.ts";
import { bodyOf } from "./request.ts";
import {
  AccountParams,
  AttributeKeys,
  Attributes,
  Checked,
  errorResponses,
  Integer,
  LabelTitles,
  Nullable,
  Text,
} from "./schemas.ts";

const ContactBody = t.Object({
  ...ContactFieldDocs,
  blocked: t.Optional(t.Boolean()),
  additional_attributes: t.Optional(Attributes),
  custom_attributes: t.Optional(Attributes),
  inbox_id: t.Optional(Integer()),
  source_id: t.Optional(Checked(Text(255, "the contact's id in the inbox given by inbox_id"))),
});

const tags = ["contacts"];
const present = (items: ContactWithInboxes[], withInboxes: boolean) =>
  items.map((i) => contactOf(i.contact, withInboxes ? i.contactInboxes : undefined));

function contactId(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw new NotFoundError("Contact", "id", `no contact ${raw} in this account`);
  return id;
}

export function contactRoutes(d: Deps) {
  const contacts = d.services.contacts;
  const reads = d.services.contactReads;
  // A contact just written, with its inboxes: committed rows, awaited on PostgreSQL's read pool.
  const one = async (accountId: number, id: number) => present([await reads.showSoon(accountId, id)], true)[0]!;
  // A list or search page: its contacts' inboxes awaited on PostgreSQL, as the page itself.
  const page = async (
    r: { count: number; rows: import("../db/contacts.repo.ts").ContactRow[]; page: number },
    q: { include_contact_inboxes?: string },
  ) =>
    json({
      meta: { count: r.count, current_page: String(r.page) },
      payload: present(await reads.withInboxesSoon(r.rows), q.include_contact_inboxes !== "false"),
    });
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/contacts" })
    .use(accountScope(d.services.auth))
    .derive(({ principal }) => ({ acting: actingAs(principal) }))
    .get("", async ({ principal, query }) => page(await reads.list(principal.account.id, query), query), {
      params: AccountParams,
      query: ContactQuery,
      response: { 200: ContactPage, ...errorResponses },
      detail: { tags, summary: "List resolved contacts, 15 per page" },
    })
    .get("/search", async ({ principal, query }) => page(await reads.search(principal.account.id, query), query), {
      params: AccountParams,
      query: ContactQuery,
      response: { 200: ContactPage, ...errorResponses },
      detail: {
        tags,
        summary: "Search resolved contacts by name, email, phone, company (any case) or identifier (exact case)",
      },
    })
    .get(
      "/:id",
      ({ principal, params }) =>
        whenReady(reads.showSoon(principal.account.id, contactId(params.id)), (c) =>
          json({ payload: present([c], true)[0]! }),
        ),
      {
        params: IdParams,
        response: { 200: t.Object({ payload: Contact }), ...errorResponses },
        detail: { tags, summary: "Show a contact" },
      },
    )
    .post(
      "",
      async ({ acting, body }) => {
        const r = await contacts.create(acting, body);
        return {
          payload: {
            contact: await one(acting.account.id, r.contact.id),
            contact_inbox: { inbox: r.inbox ? inboxSlim(r.inbox) : null, source_id: r.contactInbox?.source_id ?? null },
          },
        };
      },
      {
        params: AccountParams,
        ...bodyOf(ContactBody, "contact"),
        response: {
          200: t.Object({
            payload: t.Object({
              contact: Contact,
              contact_inbox: t.Object({ inbox: Nullable(InboxSlim), source_id: Nullable(t.String()) }),
            }),
          }),
          ...errorResponses,
        },
        detail: { tags, summary: "Create a contact (optionally with its identity in an inbox)" },
      },
    )
    .patch(
      "/:id",
      async ({ acting, params, body }) => ({
        payload: await one(acting.account.id, (await contacts.update(acting, contactId(params.id), body)).id),
      }),
      {
        params: IdParams,
        ...bodyOf(ContactBody, "contact"),
        response: { 200: t.Object({ payload: Contact }), ...errorResponses },
        detail: { tags, summary: "Update a contact; custom and additional attributes are merged" },
      },
    )
    .put(
      "/:id",
      async ({ acting, params, body }) => ({
        payload: await one(acting.account.id, (await contacts.update(acting, contactId(params.id), body)).id),
      }),
      {
        params: IdParams,
        ...bodyOf(ContactBody, "contact"),
        response: { 200: t.Object({ payload: Contact }), ...errorResponses },
        detail: { tags, summary: "Update a contact (as PATCH)" },
      },
    )
    .delete("/:id", async ({ acting, params }) => (await contacts.delete(acting, contactId(params.id)), emptyOk()), {
      admin: true,
      params: IdParams,
      detail: { tags, summary: "Delete a contact (administrators)" },
    })
    .post(
      "/:id/destroy_custom_attributes",
      async ({ acting, params, body }) => ({
        payload: await one(
          acting.account.id,
          (await contacts.removeCustomAttributes(acting, contactId(params.id), body.custom_attributes)).id,
        ),
      }),
      {
        params: IdParams,
        ...bodyOf(t.Object({ custom_attributes: t.Optional(Checked(AttributeKeys)) })),
        response: { 200: t.Object({ payload: Contact }), ...errorResponses },
        detail: { tags, summary: "Remove custom attribute keys from a contact" },
      },
    )
    .post(
      "/:id/contact_inboxes",
      async ({ acting, params, body }) => await contacts.createContactInbox(acting, contactId(params.id), body),
      {
        params: IdParams,
        ...bodyOf(
          t.Object({
            inbox_id: t.Optional(Integer()),
            source_id: t.Optional(Checked(Text(255, "generated when absent"))),
            hmac_verified: t.Optional(t.Boolean()),
          }),
        ),
        response: { 200: ContactInbox, ...errorResponses },
        detail: { tags, summary: "Give a contact an identity (source_id) in an inbox" },
      },
    )
    .get(
      "/:id/conversations",
      async ({ acting, params }) => {
        const svc = d.services.conversations;
        const rows = await svc.ofContact(acting, contactId(params.id));
        return { payload: (await svc.listViews(acting, rows)).map(conversationOf) };
      },
      {
        params: IdParams,
        response: { 200: t.Object({ payload: t.Array(Conversation) }), ...errorResponses },
        detail: { tags, summary: "A contact's conversations the caller may see (newest activity first, at most 20)" },
      },
    )
    .get(
      "/:id/labels",
      ({ principal, params }) =>
        whenReady(reads.labels(principal.account.id, contactId(params.id)), (payload) => ({ payload })),
      {
        params: IdParams,
        response: { 200: Labels, ...errorResponses },
        detail: { tags, summary: "A contact's labels" },
      },
    )
    .post(
      "/:id/labels",
      async ({ acting, params, body }) => ({
        payload: await contacts.setLabels(acting, contactId(params.id), body.labels),
      }),
      {
        params: IdParams,
        ...bodyOf(t.Object({ labels: t.Optional(Checked(LabelTitles)) })),
        response: { 200: Labels, ...errorResponses },
        detail: { tags, summary: "Replace a contact's labels" },
      },
    );
}
