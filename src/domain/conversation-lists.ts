// The conversation list: its filters (status, inbox, team, labels, assignee tab, search over
// messages and over the contacts the text names), its pages and counts, and a contact's
// conversations, all within what the caller may see.
import type { ContactFinder } from "../db/contacts-search.ts";
import type {
  AssigneeFilter,
  ConversationCounts,
  ConversationFilter,
  ConversationListsRepo,
  ConversationSort,
} from "../db/conversation-lists.repo.ts";
import type { ConversationRow, ConversationStatus } from "../db/conversations.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import { chain, readLater, readSoon } from "../db/reads.ts";
import type { Acting } from "./acting.ts";
import { labelTitles, pageNumber } from "./contact-input.ts";
import type { ContactReads } from "./contact-reads.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import { optionalId, statusValue } from "./conversation-input.ts";
import { NotFoundError, ValidationError } from "./errors.ts";
import { searchTerm } from "./validate.ts";

/** How many contacts a conversation search follows (the contacts whose name, email or phone matched). */
const CONTACT_MATCHES = 200;

export interface ListQuery {
  status?: unknown;
  assignee_type?: unknown;
  inbox_id?: unknown;
  team_id?: unknown;
  labels?: unknown;
  q?: unknown;
  page?: unknown;
  sort_by?: unknown;
}

/** Chatwoot's sort_by values (the mobile app offers the first three). */
const SORTS: Record<string, ConversationSort> = {
  latest: "latest",
  sort_on_created_at: "created",
  sort_on_priority: "priority",
  sort_on_waiting_since: "waiting",
};

export const CONVERSATIONS_PER_PAGE = 25;
const ASSIGNEE_TYPES = ["me", "unassigned", "assigned", "all"] as const;

export interface ConversationListsDeps {
  conversationLists: ConversationListsRepo;
  conversationRefs: ConversationRefsRepo;
  access: ConversationAccess;
  contactReads: ContactReads;
  contactSearch: ContactFinder;
}

export class ConversationLists {
  constructor(private readonly d: ConversationListsDeps) {}

  async list(a: Acting, q: ListQuery): Promise<{ counts: ConversationCounts; rows: ConversationRow[] }> {
    const filter = await this.filter(a, q);
    const assignee = this.assigneeFilter(a, q.assignee_type);
    const sort = sortOf(q.sort_by);
    const page = pageNumber(q.page);
    // Awaited, as a read-only endpoint's (src/db/reads.ts): on PostgreSQL both at once, on two of
    // the read pool's connections; on SQLite both run here, in place.
    // Promise.all, not two awaits: the page's failure must have a handler while the count runs.
    const offset = (page - 1) * CONVERSATIONS_PER_PAGE;
    const [counts, rows] = await Promise.all([
      readSoon(this.d.conversationLists.readCounts(filter, a.user?.id ?? 0)),
      readSoon(this.d.conversationLists.readPage(filter, assignee, CONVERSATIONS_PER_PAGE, offset, sort)),
    ]);
    return { counts, rows };
  }

  async counts(a: Acting, q: ListQuery): Promise<ConversationCounts> {
    this.assigneeFilter(a, q.assignee_type);
    return readLater(this.d.conversationLists.readCounts(await this.filter(a, q), a.user?.id ?? 0));
  }

  /** A contact's conversations the caller may see, newest activity first, at most 20 (Chatwoot). */
  ofContact(a: Acting, contactId: number): Promise<ConversationRow[]> {
    const { access, contactReads, conversationLists } = this.d;
    const page = (inboxIds: number[] | null) => {
      const filter: ConversationFilter = {
        accountId: a.account.id,
        inboxIds,
        status: null,
        teamId: null,
        labels: null,
        q: null,
        contactId,
      };
      return conversationLists.readPage(filter, { kind: "all" }, 20, 0);
    };
    // The contact first: 404 for another account's.
    const contact = contactReads.readExisting(a.account.id, contactId);
    return readLater(chain(contact, () => chain(access.readVisibleInboxes(a), page)));
  }
  private async filter(a: Acting, q: ListQuery): Promise<ConversationFilter> {
    const text = searchTerm("q", q.q);
    let status: ConversationStatus | null = "open";
    if (q.status === "all") status = null;
    else if (q.status !== undefined && q.status !== "") status = statusValue("status", q.status);
    if (text) status = null; // Chatwoot ignores status when searching
    const inboxId = optionalId("inbox_id", q.inbox_id);
    const inboxIds = inboxId
      ? [(await readSoon(this.d.access.readInbox(a, inboxId))).id]
      : await readSoon(this.d.access.readVisibleInboxes(a));
    const teamId = optionalId("team_id", q.team_id) ?? null;
    if (teamId !== null && !(await readSoon(this.d.conversationRefs.readTeam(a.account.id, teamId))))
      throw new NotFoundError("Team", "team_id", `no team ${teamId} in this account`);
    const labels = q.labels === undefined ? null : labelTitles("labels", q.labels);
    // A search also finds the conversations of contacts it names ("Emma" finds Emma's), up to
    // CONTACT_MATCHES of them, through the contact search's indexes.
    const qContactIds = text
      ? (
          await this.d.contactSearch.search({
            accountId: a.account.id,
            term: text,
            sort: null,
            labels: null,
            limit: CONTACT_MATCHES,
            offset: 0,
          })
        ).rows.map((c) => c.id)
      : null;
    return {
      accountId: a.account.id,
      inboxIds,
      status,
      teamId,
      labels: labels?.length ? labels : null,
      q: text,
      qContactIds,
    };
  }
  private assigneeFilter(a: Acting, raw: unknown): AssigneeFilter {
    if (raw === undefined || raw === "" || raw === "all") return { kind: "all" };
    if (!(ASSIGNEE_TYPES as readonly unknown[]).includes(raw))
      throw ValidationError.of("assignee_type", `must be one of: ${ASSIGNEE_TYPES.join(", ")}`, "invalid");
    if (raw === "me") return { kind: "me", userId: a.user?.id ?? 0 };
    return { kind: raw as "unassigned" | "assigned" };
  }
}

function sortOf(raw: unknown): ConversationSort {
  if (raw === undefined || raw === null || raw === "") return "latest";
  // Own keys only: "constructor" or "__proto__" must not find Object's.
  const sort = typeof raw === "string" && Object.hasOwn(SORTS, raw) ? SORTS[raw] : undefined;
  if (!sort) throw ValidationError.of("sort_by", `must be one of: ${Object.keys(SORTS).join(", ")}`, "invalid");
  return sort;
}
