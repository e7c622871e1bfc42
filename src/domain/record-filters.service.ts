// POST contacts/filter and conversations/filter: Chatwoot's filter payload over the account's
// contacts (15 a page) and the conversations the caller may see (25 a page).
import type { ContactRow } from "../db/contacts.repo.ts";
import type { ConversationCounts } from "../db/conversation-lists.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { RecordFiltersRepo } from "../db/record-filters.repo.ts";
import { readSoon } from "../db/reads.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { pageNumber } from "./contact-input.ts";
import { CONTACTS_PER_PAGE } from "./contact-reads.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import { CONVERSATIONS_PER_PAGE } from "./conversations.service.ts";
import { CONTACT_ATTRIBUTES, CONVERSATION_ATTRIBUTES, filterConditions } from "./filter-input.ts";
import { VersionedCache } from "./versioned-cache.ts";

export interface RecordFiltersDeps {
  recordFilters: RecordFiltersRepo;
  access: ConversationAccess;
  clock: Clock;
  /** Changes whenever the database may have changed; without it counts are not kept. */
  readVersion?: () => string;
  readVersionSoon?: () => Promise<string>;
}

/** Filters whose counts are kept: an app polls a few saved filters over and over. */
const CACHED_COUNTS = 256;

export class RecordFiltersService {
  /**
   * meta.count is the costly part of a filter (every match counted; a label on a tenth of a million
   * conversations is 100,000 index entries) while the page itself is 15 or 25 rows. The counts of a
   * filter are kept until the next commit (src/domain/versioned-cache.ts), so they stay exact.
   */
  private readonly counts: VersionedCache;

  constructor(private readonly d: RecordFiltersDeps) {
    this.counts = new VersionedCache(d.readVersion, CACHED_COUNTS, d.readVersionSoon);
  }

  async contacts(
    a: Acting,
    payload: unknown,
    rawPage: unknown,
  ): Promise<{ rows: ContactRow[]; count: number; page: number }> {
    const conditions = filterConditions(payload, CONTACT_ATTRIBUTES, "contact_attribute", unixSeconds(this.d.clock));
    const page = pageNumber(rawPage);
    const key = JSON.stringify(["contacts", a.account.id, conditions]);
    const kept = await this.counts.lookSoon<number>(key);
    const r = await this.d.recordFilters.contacts(
      a.account.id,
      conditions,
      { limit: CONTACTS_PER_PAGE, offset: (page - 1) * CONTACTS_PER_PAGE },
      kept.value,
    );
    this.counts.keep(key, kept.at, r.count);
    return { ...r, page };
  }

  async conversations(
    a: Acting,
    payload: unknown,
    rawPage: unknown,
  ): Promise<{ rows: ConversationRow[]; counts: ConversationCounts; page: number }> {
    const conditions = filterConditions(
      payload,
      CONVERSATION_ATTRIBUTES,
      "conversation_attribute",
      unixSeconds(this.d.clock),
    );
    const page = pageNumber(rawPage);
    const inboxes = await readSoon(this.d.access.readVisibleInboxes(a));
    const userId = a.user?.id ?? 0;
    const key = JSON.stringify(["conversations", a.account.id, inboxes, userId, conditions]);
    const kept = await this.counts.lookSoon<ConversationCounts>(key);
    const r = await this.d.recordFilters.conversations(
      a.account.id,
      inboxes,
      userId,
      conditions,
      { limit: CONVERSATIONS_PER_PAGE, offset: (page - 1) * CONVERSATIONS_PER_PAGE },
      kept.value,
    );
    this.counts.keep(key, kept.at, r.counts);
    return { ...r, page };
  }
}
