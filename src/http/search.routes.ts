// GET /api/v1/accounts/:account_id/search (and /conversations, /messages, /contacts): Chatwoot's
// search, as the mobile app's Search tab and the dashboard call it. Answers
// {payload: {conversations | messages | contacts: [...]}}, 15 of each a page (src/domain/search.service.ts).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { accountScope } from "./auth.ts";
import { AccountParams, Attributes, errorResponses, Integer, Nullable } from "./schemas.ts";

const Query = t.Object({
  q: t.Optional(t.String({ description: "the term (required; at most 500 characters)" })),
  page: t.Optional(t.String({ description: "1-based, 15 results a page" })),
});
const Inbox = t.Object({ id: Integer(), channel_id: Integer(), name: t.String(), channel_type: t.String() });
const SearchContact = t.Object({
  email: Nullable(t.String()),
  id: Integer(),
  name: Nullable(t.String()),
  phone_number: Nullable(t.String()),
  identifier: Nullable(t.String()),
  additional_attributes: Attributes,
  last_activity_at: Nullable(Integer()),
});
const SearchMessage = t.Object(
  {
    id: Integer(),
    content: Nullable(t.String()),
    message_type: Integer(),
    content_type: t.String(),
    source_id: Nullable(t.String()),
    inbox_id: Integer(),
    conversation_id: Nullable(Integer({ description: "the conversation's display id" })),
    created_at: Integer(),
    sender: t.Optional(Attributes),
    inbox: t.Union([Inbox, t.Object({})]),
  },
  { additionalProperties: true },
);
const SearchConversation = t.Object({
  id: Integer({ description: "display id" }),
  account_id: Integer(),
  created_at: Integer(),
  message: t.Union([SearchMessage, t.Object({})], { description: "the conversation's first message" }),
  contact: t.Union([SearchContact, t.Object({})]),
  inbox: t.Union([Inbox, t.Object({})]),
  agent: t.Union([
    t.Object({
      id: Integer(),
      available_name: t.String(),
      email: t.String(),
      name: t.String(),
      role: Nullable(t.String()),
    }),
    t.Object({}),
  ]),
  additional_attributes: Attributes,
});
const tags = ["search"];
const options = (summary: string, payload: Record<string, ReturnType<typeof t.Array>>) => ({
  params: AccountParams,
  query: Query,
  response: { 200: t.Object({ payload: t.Object(payload) }), ...errorResponses },
  detail: { tags, summary },
});

export function searchRoutes(d: Deps) {
  const search = d.services.search;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/search" })
    .use(accountScope(d.services.auth))
    .get(
      "",
      async ({ principal, query }) => ({ payload: await search.all(actingAs(principal), query) }),
      options("Contacts, messages and conversations matching q (the first 15 of each)", {
        contacts: t.Array(SearchContact),
        messages: t.Array(SearchMessage),
        conversations: t.Array(SearchConversation),
      }),
    )
    .get(
      "/conversations",
      async ({ principal, query }) => ({
        payload: { conversations: await search.conversations(actingAs(principal), query) },
      }),
      options(
        "Conversations whose display id or contact (name, email, phone, identifier) holds q, newest first, in the caller's inboxes",
        { conversations: t.Array(SearchConversation) },
      ),
    )
    .get(
      "/messages",
      async ({ principal, query }) => ({ payload: { messages: await search.messages(actingAs(principal), query) } }),
      options("Messages of the last three months whose text holds q, newest first, in the caller's inboxes", {
        messages: t.Array(SearchMessage),
      }),
    )
    .get(
      "/contacts",
      async ({ principal, query }) => ({ payload: { contacts: await search.contacts(actingAs(principal), query) } }),
      options("Contacts matching q as contacts/search matches them, most recently active first", {
        contacts: t.Array(SearchContact),
      }),
    );
}
