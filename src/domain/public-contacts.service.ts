// The public API's entry points: an API inbox by its public identifier, a contact identity
// (contact_inbox) by its source_id within that inbox, and contact create/update as Chatwoot's
// ContactInboxWithContactBuilder and public contacts controller do them. An identifier of another
// inbox, a wrong identifier, a suspended account: all 404, told apart by nothing.
import { actingAsSystem } from "./acting.ts";
import type { ContactInboxesRepo, ContactInboxRow } from "../db/contact-inboxes.repo.ts";
import type { ContactFields, ContactRow, ContactsRepo } from "../db/contacts.repo.ts";
import type { PublicInboxRow, PublicRepo } from "../db/public.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { sameSecret } from "../lib/tokens.ts";
import { actingAsContact, type Acting } from "./acting.ts";
import { contactFields, EMPTY_CONTACT } from "./contact-input.ts";
import type { ContactsService } from "./contacts.service.ts";
import { FieldErrors, NotFoundError, UnauthorizedError } from "./errors.ts";
import type { AccountRef } from "./presenters/contact.presenter.ts";
import type { PublicLimits } from "./public-limits.ts";
import { randomContactName } from "./random-name.ts";
import { optionalString } from "./validate.ts";

/** Everything a request addressed by inbox and contact identifiers acts within. */
export interface PublicScope {
  inbox: PublicInboxRow;
  account: AccountRef;
  contactInbox: ContactInboxRow;
  contact: ContactRow;
  /** The contact as the actor of what it changes. */
  acting: Acting;
}

export interface PublicContactInput {
  source_id?: unknown;
  identifier?: unknown;
  identifier_hash?: unknown;
  email?: unknown;
  name?: unknown;
  phone_number?: unknown;
  avatar_url?: unknown;
  custom_attributes?: unknown;
}

export interface PublicContactsDeps {
  publicRepo: PublicRepo;
  contacts: ContactsRepo;
  contactInboxes: ContactInboxesRepo;
  contactsService: ContactsService;
  limits: PublicLimits;
  writeTx: WriteTx;
  clock: Clock;
}

/** Identity verification: hex HMAC-SHA256 of the identifier, keyed by the inbox's hmac_token. */
export function identifierHash(hmacToken: string, identifier: string): string {
  return new Bun.CryptoHasher("sha256", hmacToken).update(identifier).digest("hex");
}

function knownInbox(inbox: PublicInboxRow | null): PublicInboxRow {
  if (!inbox) throw new NotFoundError("Inbox", "inbox_identifier", "no API inbox with this identifier");
  return inbox;
}

function scopeOf(inbox: PublicInboxRow, contactInbox: ContactInboxRow | null, contact: ContactRow | null): PublicScope {
  if (!contactInbox || !contact)
    throw new NotFoundError("Contact", "contact_identifier", "no contact with this identifier in this inbox");
  const account = { id: inbox.account_id, name: inbox.account_name };
  return { inbox, account, contactInbox, contact, acting: actingAsContact(account, contact) };
}

export class PublicContactsService {
  constructor(private readonly d: PublicContactsDeps) {}

  inbox(identifier: string): PublicInboxRow {
    return knownInbox(this.d.publicRepo.inboxByIdentifier(identifier));
  }

  /** inbox(), awaited on PostgreSQL's read pool (the public inbox routes' derive there). */
  async inboxLater(identifier: string): Promise<PublicInboxRow> {
    return knownInbox(await readSoon(this.d.publicRepo.readInboxByIdentifier(identifier)));
  }

  scope(inboxIdentifier: string, contactIdentifier: string): PublicScope {
    return this.scopeIn(this.inbox(inboxIdentifier), contactIdentifier);
  }

  /** scope(), awaited on PostgreSQL (src/db/reads.ts readSoon): the public routes' derive there. */
  scopeSoon(inboxIdentifier: string, contactIdentifier: string): PublicScope | Promise<PublicScope> {
    return readSoon(this.readScope(inboxIdentifier, contactIdentifier));
  }

  private *readScope(inboxIdentifier: string, contactIdentifier: string): Reads<PublicScope> {
    const inbox = knownInbox(yield* nested(this.d.publicRepo.readInboxByIdentifier(inboxIdentifier)));
    return yield* nested(this.readScopeIn(inbox, contactIdentifier));
  }

  /** scopeIn() as a Reads (the website chat's visitor, awaited on PostgreSQL). */
  *readScopeIn(inbox: PublicInboxRow, contactIdentifier: string): Reads<PublicScope> {
    const contactInbox = yield* nested(this.d.contactInboxes.readBySource(inbox.id, contactIdentifier));
    const contact = contactInbox
      ? yield* nested(this.d.contacts.readById(inbox.account_id, contactInbox.contact_id))
      : null;
    return scopeOf(inbox, contactInbox, contact);
  }

  /** The contact identity with this source_id in an inbox already found (the website chat finds its own). */
  scopeIn(inbox: PublicInboxRow, contactIdentifier: string): PublicScope {
    const contactInbox = this.d.contactInboxes.bySource(inbox.id, contactIdentifier);
    const contact = contactInbox ? this.d.contacts.byId(inbox.account_id, contactInbox.contact_id) : null;
    return scopeOf(inbox, contactInbox, contact);
  }

  /**
   * A contact identity in this inbox: the one with the given source_id if it exists, else a new one
   * for the account's contact with this identifier, else email, else phone number, else a new contact.
   * With identity verification (the inbox's hmac_mandatory, or an identifier_hash sent), an
   * identifier needs its hash (401 otherwise); the identity is marked verified only when its contact
   * carries that very identifier, so a verified identifier never vouches for a contact found by email.
   */
  async create(
    inbox: PublicInboxRow,
    input: PublicContactInput,
    ip: string | null,
  ): Promise<{ contactInbox: ContactInboxRow; contact: ContactRow }> {
    this.d.limits.contactCreation(ip);
    const verified = this.verify(inbox, input);
    const errors = new FieldErrors();
    const sourceId = optionalString(errors, "source_id", input.source_id, 255);
    errors.throwIfAny();
    const { name, email, phone_number, identifier, avatar_url, custom_attributes } = input;
    const fields = contactFields(
      { name, email, phone_number, identifier, avatar_url, custom_attributes },
      EMPTY_CONTACT,
    );
    const account = { id: inbox.account_id, name: inbox.account_name };
    // Committed rows, awaited on PostgreSQL's read pool: the attribute definitions.
    await readSoon(this.d.contactsService.readCheckCustom(actingAsSystem(account), custom_attributes));
    return await this.d.writeTx.steps(() => this.createSteps(inbox, account, fields, sourceId ?? null, verified));
  }

  private *createSteps(
    inbox: PublicInboxRow,
    account: AccountRef,
    fields: ContactFields,
    sourceId: string | null,
    verified: boolean,
  ): Reads<{ contactInbox: ContactInboxRow; contact: ContactRow }> {
    const now = unixSeconds(this.d.clock);
    const existing = sourceId ? yield* this.d.contactInboxes.readBySource(inbox.id, sourceId) : null;
    if (existing) {
      const contact = (yield* this.d.contacts.readById(inbox.account_id, existing.contact_id))!;
      if (verified && existing.hmac_verified === 0 && contact.identifier === fields.identifier) {
        yield* this.d.publicRepo.markVerifiedSteps(existing.id, now);
        return { contactInbox: (yield* this.d.contactInboxes.readById(existing.id))!, contact };
      }
      return { contactInbox: existing, contact };
    }
    const contact =
      (yield* this.readFoundContact(inbox.account_id, fields)) ??
      (yield* this.d.contactsService.createSelfSteps(account, { ...fields, name: fields.name || randomContactName() }));
    const isVerified = verified && fields.identifier !== null && contact.identifier === fields.identifier;
    const contactInbox = yield* this.d.contactsService.addContactInboxSteps(contact, inbox, sourceId, isVerified, now);
    return { contactInbox, contact };
  }

  /** Name, email, phone number, avatar and custom attributes (merged); the identifier is not the contact's to change. */
  update(scope: PublicScope, input: PublicContactInput): Promise<ContactRow> {
    const { name, email, phone_number, avatar_url, custom_attributes } = input;
    return this.d.contactsService.update(scope.acting, scope.contact.id, {
      name,
      email,
      phone_number,
      avatar_url,
      custom_attributes,
    });
  }

  /** True when an identifier was sent and its hash checked out; 401 when it must be and does not. */
  verify(inbox: PublicInboxRow, input: PublicContactInput): boolean {
    const identifier = typeof input.identifier === "string" && input.identifier.trim() !== "" ? input.identifier : null;
    const hashSent =
      input.identifier_hash !== undefined && input.identifier_hash !== null && input.identifier_hash !== "";
    if (identifier === null || (!hashSent && inbox.hmac_mandatory !== 1)) return false;
    const hash = typeof input.identifier_hash === "string" ? input.identifier_hash.trim().toLowerCase() : "";
    if (!inbox.hmac_token || !hash || !sameSecret(hash, identifierHash(inbox.hmac_token, identifier))) {
      throw new UnauthorizedError("HMAC failed: Invalid Identifier Hash Provided", "identifier_hash");
    }
    return true;
  }

  /** Chatwoot's order: identifier, then email, then phone number. */
  private *readFoundContact(accountId: number, f: ContactFields): Reads<ContactRow | null> {
    for (const field of ["identifier", "email", "phone_number"] as const) {
      const value = f[field];
      const id = value === null ? null : yield* this.d.contacts.readHolderOf(accountId, field, value);
      if (id !== null) return yield* this.d.contacts.readById(accountId, id);
    }
    return null;
  }
}
