// GET contacts/:id/contactable_inboxes (Chatwoot's ContactableInboxesService): the inboxes the
// caller may use through which this contact can be reached, each with the source_id a new
// conversation there would use.
import type { ContactInboxesRepo } from "../db/contact-inboxes.repo.ts";
import type { ContactRow } from "../db/contacts.repo.ts";
import type { InboxesRepo, InboxRow } from "../db/inboxes.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import { isAgent, type Acting } from "./acting.ts";
import type { ContactReads } from "./contact-reads.ts";

export interface ContactableInboxesDeps {
  inboxes: InboxesRepo;
  contactInboxes: ContactInboxesRepo;
  contactReads: ContactReads;
}

/** An inbox the contact can be reached through, with the source_id a new conversation there would use. */
export interface Contactable {
  inbox: InboxRow;
  source_id: string;
}

export class ContactableInboxes {
  constructor(private readonly d: ContactableInboxesDeps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(a: Acting, contactId: number): Contactable[] | Promise<Contactable[]> {
    return readSoon(chain(this.d.contactReads.readExisting(a.account.id, contactId), (c) => this.readOf(a, c)));
  }

  private *readOf(a: Acting, contact: ContactRow): Reads<Contactable[]> {
    const { inboxes, contactInboxes } = this.d;
    const visible = yield* nested(inboxes.readVisible(a.account.id, isAgent(a) ? a.user!.id : null));
    const existing = new Map<number, string>();
    // The latest identity per inbox: rows come oldest first, so later ones overwrite.
    for (const ci of (yield* nested(contactInboxes.readOfContacts([contact.id]))).get(contact.id) ?? [])
      existing.set(ci.inbox_id, ci.source_id);
    return visible.flatMap((inbox) => {
      const source = this.sourceId(inbox, contact, existing.get(inbox.id) ?? null);
      return source === null ? [] : [{ inbox, source_id: source }];
    });
  }

  private sourceId(inbox: InboxRow, contact: ContactRow, existing: string | null): string | null {
    switch (inbox.channel_type) {
      case "api":
        return existing ?? crypto.randomUUID();
      case "email":
        return contact.email;
      case "phone":
        return contact.phone_number;
      case "web_widget":
        // A widget visitor is reachable only through the session it already has.
        return existing;
    }
  }
}
