// Contacts' changes: create, update, delete with Chatwoot's validation and uniqueness rules,
// contact_inboxes, labels; contact_created/contact_updated events in the same transaction. What
// read-only routes read (show, list, search, a page's inboxes, labels): contact-reads.ts.
import type { CustomAttributeValues } from "./custom-attribute-values.ts";
import type { AttachmentsService } from "./attachments.service.ts";
import type { ContactInboxesRepo, ContactInboxRow } from "../db/contact-inboxes.repo.ts";
import type { ContactFields, ContactRow, ContactsRepo } from "../db/contacts.repo.ts";
import type { InboxRef } from "../db/conversation-refs.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import { type Reads, readNow, readSoon } from "../db/reads.ts";
import type { EventOutbox } from "../events/outbox.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { randomToken } from "../lib/tokens.ts";
import { actingAsContact, type Acting } from "./acting.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import { contactFields, EMPTY_CONTACT, fieldsOf, labelTitles, type ContactInput } from "./contact-input.ts";
import { FieldErrors, NotFoundError, ValidationError } from "./errors.ts";
import { contactChanges, contactInboxOf, contactWebhookData, type AccountRef } from "./presenters/contact.presenter.ts";
import { optionalString } from "./validate.ts";

export interface ContactsDeps {
  contacts: ContactsRepo;
  contactInboxes: ContactInboxesRepo;
  labels: LabelsRepo;
  access: ConversationAccess;
  writeTx: WriteTx;
  clock: Clock;
  outbox: EventOutbox;
  attachmentsService: AttachmentsService;
  attributeValues: CustomAttributeValues;
}

export class ContactsService {
  constructor(private readonly d: ContactsDeps) {}

  get(accountId: number, id: number, field = "id"): ContactRow {
    return readNow(this.readGet(accountId, id, field));
  }

  *readGet(accountId: number, id: number, field = "id"): Reads<ContactRow> {
    const c = yield* this.d.contacts.readById(accountId, id);
    if (!c) throw new NotFoundError("Contact", field, `no contact ${id} in this account`);
    return c;
  }

  async create(
    a: Acting,
    input: ContactInput & { inbox_id?: unknown; source_id?: unknown },
  ): Promise<{ contact: ContactRow; contactInbox: ContactInboxRow | null; inbox: InboxRef | null }> {
    const fields = contactFields(input, EMPTY_CONTACT);
    // Committed rows, awaited on PostgreSQL's read pool: the definitions and the inbox.
    const inbox = await readSoon(this.readCreationChecks(a, input));
    const errors = new FieldErrors();
    const sourceId = optionalString(errors, "source_id", input.source_id, 255);
    errors.throwIfAny();
    return await this.d.writeTx.steps(() => this.createSteps(a, fields, inbox, sourceId ?? null));
  }

  private *readCreationChecks(a: Acting, input: ContactInput & { inbox_id?: unknown }): Reads<InboxRef | null> {
    yield* this.readCheckCustom(a, input.custom_attributes);
    return input.inbox_id === undefined || input.inbox_id === null
      ? null
      : yield* this.d.access.readInbox(a, input.inbox_id);
  }

  private *createSteps(
    a: Acting,
    fields: ContactFields,
    inbox: InboxRef | null,
    sourceId: string | null,
  ): Reads<{ contact: ContactRow; contactInbox: ContactInboxRow | null; inbox: InboxRef | null }> {
    yield* this.ensureUniqueSteps(a.account.id, fields, null);
    const now = unixSeconds(this.d.clock);
    const contact = yield* this.readGet(a.account.id, yield* this.d.contacts.insertSteps(a.account.id, fields, now));
    yield* this.recordSteps(a, "contact_created", contact, null);
    const contactInbox = inbox ? yield* this.addContactInboxSteps(contact, inbox, sourceId, false, now) : null;
    return { contact, contactInbox, inbox };
  }

  /**
   * A contact that creates itself (public API, incoming mail): contact_created's actor is the new
   * contact. Fields come validated (contactFields); steps of the caller's body.
   */
  *createSelfSteps(account: AccountRef, fields: ContactFields): Reads<ContactRow> {
    yield* this.ensureUniqueSteps(account.id, fields, null);
    const id = yield* this.d.contacts.insertSteps(account.id, fields, unixSeconds(this.d.clock));
    const contact = yield* this.readGet(account.id, id);
    yield* this.recordSteps(actingAsContact(account, contact), "contact_created", contact, null);
    return contact;
  }

  update(a: Acting, id: number, input: ContactInput): Promise<ContactRow> {
    return this.d.writeTx.steps(() => this.updateSteps(a, id, input));
  }

  /** update() as steps of the caller's awaited body (the website chat's setUser and pre-chat form). */
  *updateSteps(a: Acting, id: number, input: ContactInput): Reads<ContactRow> {
    const before = yield* this.readGet(a.account.id, id);
    const fields = contactFields(input, fieldsOf(before));
    yield* this.readCheckCustom(a, input.custom_attributes);
    yield* this.ensureUniqueSteps(a.account.id, fields, id);
    yield* this.d.contacts.updateSteps(id, fields, unixSeconds(this.d.clock));
    const after = yield* this.readGet(a.account.id, id);
    const changes = contactChanges(before, after);
    // Chatwoot skips contact_updated when nothing but updated_at changed.
    if (changes.some((c) => !("updated_at" in c))) yield* this.recordSteps(a, "contact_updated", after, changes);
    return after;
  }

  /** Values of defined custom attributes must fit their definition (422 naming the key). */
  *readCheckCustom(a: Acting, custom: unknown): Reads<void> {
    if (custom && typeof custom === "object" && !Array.isArray(custom))
      yield* this.d.attributeValues.readCheck(a.account.id, "contact_attribute", custom as Record<string, unknown>);
  }

  /** Removes custom attribute keys (Chatwoot's destroy_custom_attributes). */
  async removeCustomAttributes(a: Acting, id: number, keys: unknown): Promise<ContactRow> {
    const list = labelTitles("custom_attributes", keys);
    // Awaited, as update(): the route reads its answer on PostgreSQL's read pool after the commit.
    return await this.d.writeTx.steps(() => this.removeCustomSteps(a, id, list));
  }

  private *removeCustomSteps(a: Acting, id: number, keys: string[]): Reads<ContactRow> {
    const before = yield* this.readGet(a.account.id, id);
    const custom = JSON.parse(before.custom_attributes) as Record<string, unknown>;
    for (const k of keys) delete custom[k];
    const fields = { ...fieldsOf(before), custom_attributes: JSON.stringify(custom) };
    yield* this.d.contacts.updateSteps(id, fields, unixSeconds(this.d.clock));
    const after = yield* this.readGet(a.account.id, id);
    const changes = contactChanges(before, after);
    if (changes.some((c) => !("updated_at" in c))) yield* this.recordSteps(a, "contact_updated", after, changes);
    return after;
  }

  async delete(a: Acting, id: number): Promise<void> {
    const { contacts, outbox, attachmentsService } = this.d;
    const self = this;
    const files = await this.d.writeTx.steps(function* () {
      const contact = yield* self.readGet(a.account.id, id);
      // The contact's conversations, messages and attachment rows go with it (foreign keys).
      const keys = yield* attachmentsService.readKeysOfContact(a.account.id, id);
      yield* contacts.deleteSteps(id);
      yield* outbox.recordSteps({
        kind: "contact_deleted",
        accountId: a.account.id,
        actor: a.actor,
        contactId: id,
        payload: contactWebhookData(contact, a.account),
      });
      return keys;
    });
    attachmentsService.release(files);
  }

  /** Records activity on the contact (an incoming message) and its contact_updated; inside the caller's writeTx. */
  *touchActivitySteps(a: Acting, contact: ContactRow, at: number): Reads<ContactRow> {
    yield* this.d.contacts.touchActivitySteps(contact.id, at);
    const after = { ...contact, last_activity_at: at, updated_at: at };
    const changes = contactChanges(contact, after);
    if (changes.length) yield* this.recordSteps(a, "contact_updated", after, changes);
    return after;
  }

  /** POST /contacts/:id/contact_inboxes: the contact's identity in an inbox. */
  async createContactInbox(
    a: Acting,
    contactId: number,
    input: { inbox_id?: unknown; source_id?: unknown; hmac_verified?: unknown },
  ): Promise<ReturnType<typeof contactInboxOf>> {
    const { access, clock } = this.d;
    const self = this;
    const { ci, inbox } = await this.d.writeTx.steps(function* () {
      const contact = yield* self.readGet(a.account.id, contactId);
      if (input.inbox_id === undefined || input.inbox_id === null)
        throw ValidationError.of("inbox_id", "can't be blank", "required");
      const inbox = yield* access.readInbox(a, input.inbox_id);
      const errors = new FieldErrors();
      const sourceId = optionalString(errors, "source_id", input.source_id, 255);
      if (input.hmac_verified !== undefined && typeof input.hmac_verified !== "boolean")
        errors.add("hmac_verified", "must be true or false", "invalid");
      errors.throwIfAny();
      const verified = input.hmac_verified === true;
      const ci = yield* self.addContactInboxSteps(contact, inbox, sourceId ?? null, verified, unixSeconds(clock));
      return { ci, inbox };
    });
    return contactInboxOf(ci, inbox);
  }

  readContactInboxBySource(inboxId: number, sourceId: string): Reads<ContactInboxRow | null> {
    return this.d.contactInboxes.readBySource(inboxId, sourceId);
  }

  /** Finds or creates the contact_inbox; a source_id taken by another contact in the inbox is a 422. */
  *addContactInboxSteps(
    contact: ContactRow,
    inbox: InboxRef,
    sourceId: string | null,
    hmacVerified: boolean,
    now: number,
  ): Reads<ContactInboxRow> {
    const source = sourceId ?? crypto.randomUUID();
    const existing = yield* this.d.contactInboxes.readBySource(inbox.id, source);
    if (existing) {
      if (existing.contact_id !== contact.id) throw ValidationError.of("source_id", "should be unique", "taken");
      return existing;
    }
    const id = yield* this.d.contactInboxes.insertSteps({
      contact_id: contact.id,
      inbox_id: inbox.id,
      source_id: source,
      pubsub_token: randomToken(24),
      hmac_verified: hmacVerified ? 1 : 0,
      now,
    });
    return (yield* this.d.contactInboxes.readById(id))!;
  }

  async setLabels(a: Acting, id: number, raw: unknown): Promise<string[]> {
    const { labels } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      yield* self.readGet(a.account.id, id);
      const titles = labelTitles("labels", raw);
      yield* labels.replaceSteps("contact", id, a.account.id, titles);
      return yield* labels.readTitles("contact", id);
    });
  }

  private *ensureUniqueSteps(accountId: number, f: ContactFields, selfId: number | null): Reads<void> {
    const errors = new FieldErrors();
    for (const field of ["email", "phone_number", "identifier"] as const) {
      const value = f[field];
      if (value === null) continue;
      const holder = yield* this.d.contacts.readHolderOf(accountId, field, value);
      if (holder !== null && holder !== selfId) errors.add(field, "has already been taken", "taken");
    }
    errors.throwIfAny();
  }

  /** Records contact_created/contact_updated with Chatwoot's payload: steps of the caller's body. */
  *recordSteps(
    a: Acting,
    kind: "contact_created" | "contact_updated",
    c: ContactRow,
    changes: ReturnType<typeof contactChanges> | null,
  ): Reads<void> {
    const payload: Record<string, unknown> = contactWebhookData(c, a.account as AccountRef);
    if (changes) payload.changed_attributes = changes;
    yield* this.d.outbox.recordSteps({ kind, accountId: a.account.id, actor: a.actor, contactId: c.id, payload });
  }
}
