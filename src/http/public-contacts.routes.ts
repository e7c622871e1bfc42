// /public/api/v1/inboxes/:inbox_identifier — the API inbox's public info, and contacts: create
// (the answer's source_id is the contact_identifier of every other public route), show, update.
// No authentication: the identifiers are the keys (Chatwoot's client API). Identifiers are resolved
// before the body is validated, so a wrong one is a 404 whatever the body.
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import type { PublicContactInput, PublicScope } from "../domain/public-contacts.service.ts";
import { publicContactOf, publicInboxOf } from "../domain/presenters/public.presenter.ts";
import { bodyOf } from "./request.ts";
import { clientAddress, PUBLIC_PREFIX, publicContactScope } from "./public-scope.ts";
import {
  ContactIdentifierParams,
  InboxIdentifierParams,
  PublicContact,
  PublicContactBody,
  PublicInbox,
} from "./public-schemas.ts";
import { errorResponses } from "./schemas.ts";

const tags = ["public"];
export const publicDetail = (summary: string) => ({ tags, summary, security: [] });

export function publicInboxRoutes(d: Deps) {
  const svc = d.services.publicContacts;
  const identifier = (params: unknown) => (params as { inbox_identifier: string }).inbox_identifier;
  // Awaited on PostgreSQL, as the public contact routes' scope (public-scope.ts).
  const derive = d.services.auth.callersAwait
    ? async ({ params }: { params: unknown }) => ({ inbox: await svc.inboxLater(identifier(params)) })
    : ({ params }: { params: unknown }) => ({ inbox: svc.inbox(identifier(params)) });
  return new Elysia({ prefix: `${PUBLIC_PREFIX}/:inbox_identifier` })
    .derive(derive)
    .get("", ({ inbox }) => publicInboxOf(inbox), {
      params: InboxIdentifierParams,
      response: { 200: PublicInbox, ...errorResponses },
      detail: publicDetail("The API inbox's public information"),
    })
    .post(
      "/contacts",
      async ({ inbox, body, request, server }) => {
        const r = await svc.create(inbox, body, clientAddress(request, server, d.config.trustProxy));
        return publicContactOf(r.contactInbox, r.contact);
      },
      {
        params: InboxIdentifierParams,
        ...bodyOf(PublicContactBody, "contact"),
        response: { 200: PublicContact, ...errorResponses },
        detail: publicDetail(
          "Create a contact (or find the account's contact with this identifier, email or phone number) and its identity in this inbox",
        ),
      },
    );
}

export function publicContactRoutes(d: Deps) {
  const svc = d.services.publicContacts;
  const update = async ({ scope, body }: { scope: PublicScope; body: PublicContactInput }) =>
    publicContactOf(scope.contactInbox, await svc.update(scope, body));
  const updateOptions = {
    params: ContactIdentifierParams,
    ...bodyOf(PublicContactBody, "contact"),
    response: { 200: PublicContact, ...errorResponses },
    detail: publicDetail("Change the contact's name, email, phone number, avatar or custom attributes (merged)"),
  };
  return new Elysia({ prefix: `${PUBLIC_PREFIX}/:inbox_identifier/contacts/:contact_identifier` })
    .use(publicContactScope(d))
    .get("", ({ scope }) => publicContactOf(scope.contactInbox, scope.contact), {
      params: ContactIdentifierParams,
      response: { 200: PublicContact, ...errorResponses },
      detail: publicDetail("The contact behind a contact identifier"),
    })
    .patch("", update, updateOptions)
    .put("", update, updateOptions);
}
