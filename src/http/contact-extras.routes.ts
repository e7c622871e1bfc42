// A contact's notes (contacts/:id/notes), the inboxes it can be reached through
// (contacts/:id/contactable_inboxes), and merging two contacts (actions/contact_merge).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { parseId } from "../domain/auth.service.ts";
import { NotFoundError } from "../domain/errors.ts";
import { contactOf } from "../domain/presenters/contact.presenter.ts";
import { inboxOf } from "../domain/presenters/inbox.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { Contact, emptyOk, IdParams } from "./conversation-schemas.ts";
import { Inbox } from "./inboxes.routes.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Agent, errorResponses, Integer, Nullable } from "./schemas.ts";

const Note = t.Object({
  id: Integer(),
  content: t.String(),
  account_id: Integer(),
  contact_id: Integer(),
  user: Nullable(Agent),
  created_at: Integer(),
  updated_at: Integer(),
});
const NoteBody = t.Object({ content: t.String({ description: "the note's text (at most 20,000 characters)" }) });
const NoteParams = t.Object({ account_id: t.String(), id: t.String(), note_id: t.String() });
const MergeBody = t.Object({
  base_contact_id: Integer({ description: "the contact that stays" }),
  mergee_contact_id: Integer({ description: "the contact merged into it and then deleted" }),
});

function idOf(raw: string, what: string, field: string): number {
  const id = parseId(raw);
  if (id === null) throw new NotFoundError(what, field, `no ${what.toLowerCase()} ${raw}`);
  return id;
}

export function contactExtraRoutes(d: Deps) {
  const notes = d.services.contactNotes;
  const contactId = (raw: string) => idOf(raw, "Contact", "id");
  const noteId = (raw: string) => idOf(raw, "Note", "note_id");
  return new Elysia({ prefix: "/api/v1/accounts/:account_id" })
    .use(accountScope(d.services.auth))
    .derive(({ principal }) => ({ acting: actingAs(principal) }))
    .get("/contacts/:id/notes", ({ acting, params }) => notes.list(acting, contactId(params.id)), {
      params: IdParams,
      response: { 200: t.Array(Note), ...errorResponses },
      detail: { tags: ["contacts"], summary: "A contact's notes, newest first" },
    })
    .post(
      "/contacts/:id/notes",
      async ({ acting, params, body }) => await notes.create(acting, contactId(params.id), body),
      {
        params: IdParams,
        ...bodyOf(NoteBody, "note"),
        response: { 200: Note, ...errorResponses },
        detail: { tags: ["contacts"], summary: "Add a note to a contact" },
      },
    )
    .get(
      "/contacts/:id/notes/:note_id",
      ({ acting, params }) => notes.showSoon(acting, contactId(params.id), noteId(params.note_id)),
      {
        params: NoteParams,
        response: { 200: Note, ...errorResponses },
        detail: { tags: ["contacts"], summary: "One note" },
      },
    )
    .patch(
      "/contacts/:id/notes/:note_id",
      async ({ acting, params, body }) =>
        await notes.update(acting, contactId(params.id), noteId(params.note_id), body),
      {
        params: NoteParams,
        ...bodyOf(NoteBody, "note"),
        response: { 200: Note, ...errorResponses },
        detail: { tags: ["contacts"], summary: "Change a note's text" },
      },
    )
    .delete(
      "/contacts/:id/notes/:note_id",
      async ({ acting, params }) => (
        await notes.delete(acting, contactId(params.id), noteId(params.note_id)), emptyOk()
      ),
      {
        params: NoteParams,
        detail: { tags: ["contacts"], summary: "Delete a note" },
      },
    )
    .get(
      "/contacts/:id/contactable_inboxes",
      ({ acting, principal, params }) =>
        whenReady(d.services.contactableInboxes.list(acting, contactId(params.id)), (list) => ({
          payload: list.map((c) => ({
            inbox: inboxOf(c.inbox, { administrator: principal.role === "administrator" }),
            source_id: c.source_id,
          })),
        })),
      {
        params: IdParams,
        response: {
          200: t.Object({ payload: t.Array(t.Object({ inbox: Inbox, source_id: t.String() })) }),
          ...errorResponses,
        },
        detail: {
          tags: ["contacts"],
          summary: "Inboxes the caller may use to reach this contact, with the source_id a new conversation would use",
        },
      },
    )
    .post(
      "/actions/contact_merge",
      async ({ acting, body }) => contactOf(await d.services.contactMerge.merge(acting, body)),
      {
        params: AccountParams,
        ...bodyOf(MergeBody),
        response: { 200: Contact, ...errorResponses },
        detail: {
          tags: ["contacts"],
          summary: "Merge the mergee contact into the base contact; the mergee is deleted",
        },
      },
    );
}
