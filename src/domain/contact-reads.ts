// Contacts as the routes read them: one contact (or its 404), the list and search pages, the
// contact_inboxes a record shows, a contact's labels. Written as Reads (src/db/reads.ts): awaited on
// PostgreSQL's read pool by the read-only routes, run in place for a write's answer. Apart from
// ContactsService (the changes and their events), whose write paths need none of this.
import type { ContactInboxesRepo } from "../db/contact-inboxes.repo.ts";
import type { ContactRow, ContactsRepo } from "../db/contacts.repo.ts";
import type { ContactFinder, ContactPage } from "../db/contacts-search.ts";
import type { ConversationRefsRepo, InboxRef } from "../db/conversation-refs.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import { chain, nested, type Reads, readNow, readSoon } from "../db/reads.ts";
import { contactSort, labelTitles, pageNumber } from "./contact-input.ts";
import { NotFoundError, ValidationError } from "./errors.ts";
import { contactInboxOf } from "./presenters/contact.presenter.ts";
import { searchTerm } from "./validate.ts";

export const CONTACTS_PER_PAGE = 15;

export interface ContactReadDeps {
  contacts: ContactsRepo;
  contactSearch: ContactFinder;
  contactInboxes: ContactInboxesRepo;
  conversationRefs: ConversationRefsRepo;
  labels: LabelsRepo;
}

export interface ContactListQuery {
  q?: unknown;
  sort?: unknown;
  page?: unknown;
  labels?: unknown;
}

/** A contact with its contact_inboxes, ready for the presenter. */
export interface ContactWithInboxes {
  contact: ContactRow;
  contactInboxes: ReturnType<typeof contactInboxOf>[];
}

export class ContactReads {
  constructor(private readonly d: ContactReadDeps) {}

  /** ContactsService.get() as a step of a read-only route's Reads (awaited on PostgreSQL: src/db/reads.ts). */
  *readExisting(accountId: number, id: number): Reads<ContactRow> {
    const c = yield* nested(this.d.contacts.readById(accountId, id));
    if (!c) throw new NotFoundError("Contact", "id", `no contact ${id} in this account`);
    return c;
  }

  /** The contact with its inboxes, for a read-only route. */
  showSoon(accountId: number, id: number): ContactWithInboxes | Promise<ContactWithInboxes> {
    const contact = () => this.readExisting(accountId, id);
    const withInboxes = (c: ContactRow) => this.readWithInboxes([c], []);
    return readSoon(
      (function* () {
        return (yield* nested(withInboxes(yield* nested(contact()))))[0]!;
      })(),
    );
  }

  list(accountId: number, q: ContactListQuery): Promise<ContactPage & { page: number }> {
    return this.page(accountId, q, null);
  }

  /** Spec endpoint 6. A missing or blank `q` is a 422 (docs/compatibility.md #10). */
  search(accountId: number, q: ContactListQuery): Promise<ContactPage & { page: number }> {
    const term = searchTerm("q", q.q);
    if (!term) throw ValidationError.of("q", "Specify search string with parameter q", "required");
    return this.page(accountId, q, term);
  }

  private async page(
    accountId: number,
    q: ContactListQuery,
    term: string | null,
  ): Promise<ContactPage & { page: number }> {
    const page = pageNumber(q.page);
    const sort = contactSort(q.sort);
    const labels = q.labels === undefined ? null : labelTitles("labels", q.labels);
    const query = {
      accountId,
      sort,
      labels: labels?.length ? labels : null,
      limit: CONTACTS_PER_PAGE,
      offset: (page - 1) * CONTACTS_PER_PAGE,
    };
    const result = await (term === null
      ? this.d.contactSearch.list(query)
      : this.d.contactSearch.search({ ...query, term }));
    return { ...result, page };
  }

  /**
   * The contact_inboxes of these contacts, shaped for the Contact record. `known`: inboxes the
   * caller holds already (a conversation's), not read again. In place: the answer of a write.
   */
  withInboxes(contacts: ContactRow[], known: readonly InboxRef[] = []): ContactWithInboxes[] {
    return readNow(this.readWithInboxes(contacts, known));
  }

  /** withInboxes for a read-only endpoint's page: awaited on PostgreSQL (src/db/reads.ts readSoon). */
  withInboxesSoon(contacts: ContactRow[]): ContactWithInboxes[] | Promise<ContactWithInboxes[]> {
    return readSoon(this.readWithInboxes(contacts, []));
  }

  *readWithInboxes(contacts: ContactRow[], known: readonly InboxRef[]): Reads<ContactWithInboxes[]> {
    const cis = yield* nested(this.d.contactInboxes.readOfContacts(contacts.map((c) => c.id)));
    const inboxes = new Map(known.map((i) => [i.id, i]));
    const missing = [...cis.values()].flat().flatMap((ci) => (inboxes.has(ci.inbox_id) ? [] : [ci.inbox_id]));
    if (missing.length > 0) {
      for (const [id, inbox] of yield* nested(this.d.conversationRefs.readInboxes(missing))) inboxes.set(id, inbox);
    }
    return contacts.map((contact) => ({
      contact,
      contactInboxes: (cis.get(contact.id) ?? []).flatMap((ci) => {
        const inbox = inboxes.get(ci.inbox_id);
        return inbox ? [contactInboxOf(ci, inbox)] : [];
      }),
    }));
  }

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  labels(accountId: number, id: number): string[] | Promise<string[]> {
    return readSoon(chain(this.readExisting(accountId, id), () => this.d.labels.readTitles("contact", id)));
  }
}
