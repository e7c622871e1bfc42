// /api/v1/accounts/:account_id/canned_responses — saved replies (Chatwoot's shapes: the list is a
// bare array, create and update answer the record). Every member of the account manages them.
import { Elysia, t } from "elysia";
import type { CannedResponseRow } from "../db/canned-responses.repo.ts";
import type { Deps } from "../deps.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Checked, errorResponses, Integer } from "./schemas.ts";

const CannedResponse = t.Object({
  id: Integer(),
  account_id: Integer(),
  short_code: t.String({ description: "one word, unique in the account (any case); the reply box finds it after /" }),
  content: t.String(),
  created_at: Integer(),
  updated_at: Integer(),
});

// Unchecked here: the service checks each field with Chatwoot-style messages.
const Body = t.Object({
  short_code: t.Optional(
    Checked(t.String({ maxLength: 100, description: "one word (letters, digits, - and _), unique; typed after /" })),
  ),
  content: t.Optional(Checked(t.String({ minLength: 1, maxLength: 150_000 }))),
});
const IdParams = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["canned responses"];

const present = (r: CannedResponseRow) => ({
  id: r.id,
  account_id: r.account_id,
  short_code: r.short_code,
  content: r.content,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export function cannedResponseRoutes(d: Deps) {
  const canned = d.services.cannedResponses;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/canned_responses" })
    .use(accountScope(d.services.auth))
    .get("", ({ principal, query }) => whenReady(canned.list(principal, query.search), (rows) => rows.map(present)), {
      params: AccountParams,
      query: t.Object({
        search: t.Optional(
          t.String({ description: "text in the short code or the content; short codes starting with it first" }),
        ),
      }),
      response: { 200: t.Array(CannedResponse), ...errorResponses },
      detail: { tags, summary: "List or search the account's canned responses" },
    })
    .post("", async ({ principal, body }) => present(await canned.create(principal, body)), {
      params: AccountParams,
      ...bodyOf(Body, "canned_response"),
      response: { 200: CannedResponse, ...errorResponses },
      detail: { tags, summary: "Create a canned response" },
    })
    .patch("/:id", async ({ principal, params, body }) => present(await canned.update(principal, params.id, body)), {
      params: IdParams,
      ...bodyOf(Body, "canned_response"),
      response: { 200: CannedResponse, ...errorResponses },
      detail: { tags, summary: "Change a canned response" },
    })
    .delete("/:id", async ({ principal, params }) => (await canned.delete(principal, params.id), emptyOk()), {
      params: IdParams,
      detail: { tags, summary: "Delete a canned response" },
    });
}
