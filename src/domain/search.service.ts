// Chatwoot's search (GET search, search/conversations, search/messages, search/contacts; the
// mobile app's Search tab): 15 results a page of each kind, within the inboxes the caller works.
// Contacts are found as GET contacts/search finds them (the resolved contacts of the account),
// most recently active first; conversations and messages by substring (src/db/search.repo.ts).
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { MessageRow, MessagesRepo } from "../db/messages.repo.ts";
import type { SearchRepo, SearchScope } from "../db/search.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { pageNumber } from "./contact-input.ts";
import type { ContactReads } from "./contact-reads.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import { ValidationError } from "./errors.ts";
import {
  searchContactOf,
  searchConversationOf,
  searchMessageOf,
  type SearchMessageRefs,
} from "./presenters/search.presenter.ts";
import { searchTerm } from "./validate.ts";

export const SEARCH_PAGE_SIZE = 15;
/** Chatwoot searches the messages of the last three months. */
const MESSAGE_WINDOW_SECONDS = 90 * 24 * 60 * 60;

export interface SearchQuery {
  q?: unknown;
  page?: unknown;
}

export interface SearchDeps {
  search: SearchRepo;
  access: ConversationAccess;
  contactReads: ContactReads;
  contacts: ContactsRepo;
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  messages: MessagesRepo;
  clock: Clock;
}

export class SearchService {
  constructor(private readonly d: SearchDeps) {}

  async contacts(a: Acting, q: SearchQuery) {
    const term = required(q.q);
    const page = await this.d.contactReads.search(a.account.id, {
      q: term,
      page: q.page,
      sort: "-last_activity_at",
    });
    return page.rows.map(searchContactOf);
  }

  async conversations(a: Acting, q: SearchQuery) {
    const term = required(q.q);
    return this.conversationsIn(a, await this.scope(a), term, q.page);
  }

  async messages(a: Acting, q: SearchQuery) {
    const term = required(q.q);
    return this.messagesIn(a, await this.scope(a), term, q.page);
  }

  /** Everything at once (GET search): the first page of each kind. */
  async all(a: Acting, q: SearchQuery) {
    // One after another, as before: the first refusal (a blank q) is the answer, and nothing is left
    // running. On PostgreSQL each waits on the read pool without holding the process. The caller's
    // inboxes are read once for both kinds.
    const contacts = await this.contacts(a, q);
    const term = required(q.q);
    const scope = await this.scope(a);
    const messages = await this.messagesIn(a, scope, term, q.page);
    return { contacts, messages, conversations: await this.conversationsIn(a, scope, term, q.page) };
  }

  private async conversationsIn(a: Acting, scope: SearchScope, term: string, page: unknown) {
    const rows = await this.d.search.conversations(scope, term, pageOf(page));
    return readSoon(this.readConversationResults(a, rows));
  }

  private async messagesIn(a: Acting, scope: SearchScope, term: string, page: unknown) {
    const since = unixSeconds(this.d.clock) - MESSAGE_WINDOW_SECONDS;
    const rows = await this.d.search.messages(scope, term, since, pageOf(page));
    const refs = await readSoon(this.readRefs(a, rows, []));
    return rows.map((m) => searchMessageOf(m, refs));
  }

  private async scope(a: Acting): Promise<SearchScope> {
    return { accountId: a.account.id, inboxIds: await readSoon(this.d.access.readVisibleInboxes(a)) };
  }

  /** Each conversation found with its first message, as Chatwoot's search shows it. */
  private *readConversationResults(a: Acting, rows: ConversationRow[]) {
    const firsts = new Map<number, MessageRow>();
    for (const row of rows) {
      const first = (yield* nested(this.d.messages.readAfter(row.id, 0, 1)))[0];
      if (first) firsts.set(row.id, first);
    }
    const refs = yield* nested(this.readRefs(a, [...firsts.values()], rows));
    return rows.map((row) => searchConversationOf(row, firsts.get(row.id), refs));
  }

  /** Senders, conversations' display ids, contacts, assignees and inboxes of one page, each read once. */
  private *readRefs(
    a: Acting,
    messages: readonly MessageRow[],
    conversations: readonly ConversationRow[],
  ): Reads<SearchMessageRefs> {
    const conversationIds = [...new Set(messages.map((m) => m.conversation_id))];
    const displayIds = new Map(conversations.map((c) => [c.id, c.display_id]));
    for (const id of conversationIds) {
      if (displayIds.has(id)) continue;
      const row = yield* nested(this.d.conversations.readById(id));
      if (row) displayIds.set(id, row.display_id);
    }
    const contactIds = [
      ...messages.flatMap((m) => (m.sender_type === "Contact" && m.sender_id !== null ? [m.sender_id] : [])),
      ...conversations.map((c) => c.contact_id),
    ];
    const userIds = [
      ...messages.flatMap((m) => (m.sender_type === "User" && m.sender_id !== null ? [m.sender_id] : [])),
      ...conversations.flatMap((c) => (c.assignee_id === null ? [] : [c.assignee_id])),
    ];
    const inboxIds = [...messages.map((m) => m.inbox_id), ...conversations.map((c) => c.inbox_id)];
    return {
      displayIds,
      contacts: yield* nested(this.d.contacts.readByIds(contactIds)),
      users: yield* nested(this.d.conversationRefs.readMembers(a.account.id, userIds)),
      inboxes: yield* nested(this.d.conversationRefs.readInboxes(inboxIds)),
    };
  }
}

function required(raw: unknown): string {
  const term = searchTerm("q", raw);
  if (!term) throw ValidationError.of("q", "Specify search string with parameter q", "required");
  return term;
}

function pageOf(raw: unknown) {
  return { limit: SEARCH_PAGE_SIZE, offset: (pageNumber(raw) - 1) * SEARCH_PAGE_SIZE };
}
