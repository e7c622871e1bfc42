// POST actions/contact_merge (Chatwoot's ContactMergeAction): the mergee's conversations,
// contact_inboxes, messages, notes and labels move to the base contact, its attributes fill the
// base's blanks (the base's own values win), and the mergee is deleted — one transaction, with
// contact_deleted (mergee), contact_merged and contact_updated (base) recorded in it: an awaited
// body (writeTx.steps), which on PostgreSQL holds nothing of the process while it runs.
import type { ContactMergeRepo } from "../db/contact-merge.repo.ts";
import type { ContactFields, ContactRow, ContactsRepo } from "../db/contacts.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import type { EventOutbox } from "../events/outbox.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { fieldsOf } from "./contact-input.ts";
import type { ContactsService } from "./contacts.service.ts";
import { optionalId } from "./conversation-input.ts";
import { ValidationError } from "./errors.ts";
import { contactChanges, contactWebhookData } from "./presenters/contact.presenter.ts";

export interface ContactMergeDeps {
  contactMerge: ContactMergeRepo;
  contacts: ContactsRepo;
  contactsService: ContactsService;
  outbox: EventOutbox;
  writeTx: WriteTx;
  clock: Clock;
}

const blank = (v: string | null) => v === null || v === "";

export class ContactMergeService {
  constructor(private readonly d: ContactMergeDeps) {}

  async merge(a: Acting, input: { base_contact_id?: unknown; mergee_contact_id?: unknown }): Promise<ContactRow> {
    const baseId = this.id("base_contact_id", input.base_contact_id);
    const mergeeId = this.id("mergee_contact_id", input.mergee_contact_id);
    const { contactMerge, contacts, contactsService, outbox, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      const base = yield* contactsService.readGet(a.account.id, baseId, "base_contact_id");
      const mergee = yield* contactsService.readGet(a.account.id, mergeeId, "mergee_contact_id");
      if (base.id === mergee.id)
        throw ValidationError.of("mergee_contact_id", "must be a different contact than base_contact_id", "invalid");
      yield* contactMerge.moveChildrenSteps(base.id, mergee.id);
      // The mergee goes first: its email/phone/identifier may move to the base, and they are unique.
      yield* contacts.deleteSteps(mergee.id);
      yield* outbox.recordSteps({
        kind: "contact_deleted",
        accountId: a.account.id,
        actor: a.actor,
        contactId: mergee.id,
        payload: contactWebhookData(mergee, a.account),
      });
      yield* contacts.updateSteps(base.id, self.mergedFields(base, mergee), unixSeconds(clock));
      const after = yield* contactsService.readGet(a.account.id, base.id);
      yield* outbox.recordSteps({
        kind: "contact_merged",
        accountId: a.account.id,
        actor: a.actor,
        contactId: base.id,
        payload: { ...contactWebhookData(after, a.account), mergee_contact_id: mergee.id },
      });
      const changes = contactChanges(base, after);
      if (changes.some((c) => !("updated_at" in c)))
        yield* contactsService.recordSteps(a, "contact_updated", after, changes);
      return after;
    });
  }

  private id(field: string, raw: unknown): number {
    const id = optionalId(field, raw);
    if (id === undefined || id === null) throw ValidationError.of(field, "can't be blank", "required");
    return id;
  }

  /** The base's values win; the mergee fills what the base lacks, attribute objects key by key. */
  private mergedFields(base: ContactRow, mergee: ContactRow): ContactFields {
    const b = fieldsOf(base);
    const m = fieldsOf(mergee);
    const pick = (x: string | null, y: string | null) => (blank(x) ? y : x);
    return {
      ...b,
      name: blank(b.name) ? m.name : b.name,
      email: pick(b.email, m.email),
      phone_number: pick(b.phone_number, m.phone_number),
      identifier: pick(b.identifier, m.identifier),
      company_name: pick(b.company_name, m.company_name),
      avatar_url: pick(b.avatar_url, m.avatar_url),
      additional_attributes: JSON.stringify({
        ...JSON.parse(m.additional_attributes),
        ...JSON.parse(b.additional_attributes),
      }),
      custom_attributes: JSON.stringify({ ...JSON.parse(m.custom_attributes), ...JSON.parse(b.custom_attributes) }),
    };
  }
}
