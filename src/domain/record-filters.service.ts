// POST contacts/filter and conversations/filter: Chatwoot's filter payload over the account's
// contacts (15 a page) and the conversations the caller may see (25 a page).
import type { ContactRow } from "../db/contacts.repo.ts";
import type { ConversationCounts, ConversationRow } from "../db/conversations.repo.ts";
import type { RecordFiltersRepo } from "../db/record-filters.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { pageNumber } from "./contact-input.ts";
import { CONTACTS_PER_PAGE } from "./contacts.service.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import { CONVERSATIONS_PER_PAGE } from "./conversations.service.ts";
import { CONTACT_ATTRIBUTES, CONVERSATION_ATTRIBUTES, filterConditions } from "./filter-input.ts";

export interface RecordFiltersDeps {
  recordFilters: RecordFiltersRepo;
  access: ConversationAccess;
  clock: Clock;
}

export class RecordFiltersService {
  constructor(private readonly d: RecordFiltersDeps) {}

  contacts(a: Acting, payload: unknown, rawPage: unknown): { rows: ContactRow[]; count: number; page: number } {
    const conditions = filterConditions(payload, CONTACT_ATTRIBUTES, "contact_attribute", unixSeconds(this.d.clock));
    const page = pageNumber(rawPage);
    const r = this.d.recordFilters.contacts(a.account.id, conditions, {
      limit: CONTACTS_PER_PAGE,
      offset: (page - 1) * CONTACTS_PER_PAGE,
    });
    return { ...r, page };
  }

  conversations(
    a: Acting,
    payload: unknown,
    rawPage: unknown,
  ): { rows: ConversationRow[]; counts: ConversationCounts; page: number } {
    const conditions = filterConditions(
      payload,
      CONVERSATION_ATTRIBUTES,
      "conversation_attribute",
      unixSeconds(this.d.clock),
    );
    const page = pageNumber(rawPage);
    const r = this.d.recordFilters.conversations(
      a.account.id,
      this.d.access.visibleInboxes(a),
      a.user?.id ?? 0,
      conditions,
      {
        limit: CONVERSATIONS_PER_PAGE,
        offset: (page - 1) * CONVERSATIONS_PER_PAGE,
      },
    );
    return { ...r, page };
  }
}
