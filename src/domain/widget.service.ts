// The website chat's visitor: the web_widget inbox found by its website_token, the visitor's
// identity in it from the X-Auth-Token (widget-token.ts), a new identity when there is none, and
// setUser (Chatwoot's PATCH /api/v1/widget/contact/set_user) with identity verification. Contact
// rules (find by identifier, verification) are the public API's: PublicContactsService.
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { PublicInboxRow, PublicRepo } from "../db/public.repo.ts";
import { type Reads, readLater, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { WidgetRepo } from "../db/widget.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { ContactsService } from "./contacts.service.ts";
import { FieldErrors, NotFoundError, UnauthorizedError } from "./errors.ts";
import { nextOpening } from "./next-opening.ts";
import type { PublicContactInput, PublicContactsService, PublicScope } from "./public-contacts.service.ts";
import { requiredString } from "./validate.ts";
import { readWidgetToken, signWidgetToken } from "./widget-token.ts";
import { isWithinBusinessHours } from "./business-hours.ts";
import { scheduleFromEntries, type WorkingHoursEntry } from "./working-hours.ts";

export interface WidgetDeps {
  widgetRepo: WidgetRepo;
  publicRepo: PublicRepo;
  contacts: ContactsRepo;
  contactsService: ContactsService;
  publicContacts: PublicContactsService;
  writeTx: WriteTx;
  clock: Clock;
}

/** A visitor's identity and the token that carries it (new when the identity changed). */
export interface WidgetVisitor {
  scope: PublicScope;
  token: string;
}

/** Whether the inbox is open now and, when it is not, when it opens next (Unix seconds). */
export interface Availability {
  open: boolean;
  next_open_at: number | null;
}

/** The identity's source_id the token carries (401 when it is missing, forged or another inbox's). */
function visitorSource(inbox: PublicInboxRow, authToken: string | null | undefined): string {
  const claims = authToken && inbox.hmac_token ? readWidgetToken(inbox.hmac_token, inbox.id, authToken) : null;
  if (!claims) throw new UnauthorizedError("A valid X-Auth-Token is required", "X-Auth-Token");
  return claims.source_id;
}

function knownWebsiteInbox(inbox: PublicInboxRow | null): PublicInboxRow {
  if (!inbox) throw new NotFoundError("Inbox", "website_token", "no website inbox with this website_token");
  return inbox;
}

/** An identity the token names that is gone is a 401 too, not a 404. */
function goneVisitor(error: unknown): unknown {
  return error instanceof NotFoundError
    ? new UnauthorizedError("This visitor no longer exists", "X-Auth-Token")
    : error;
}

export class WidgetService {
  constructor(private readonly d: WidgetDeps) {}

  /** The web_widget inbox with this website_token (404 for a wrong one or a suspended account). */
  inbox(websiteToken: unknown): PublicInboxRow {
    return knownWebsiteInbox(
      typeof websiteToken === "string" && websiteToken ? this.d.widgetRepo.inboxByWebsiteToken(websiteToken) : null,
    );
  }

  /** inbox(), awaited (PostgreSQL's widget routes: src/http/widget-scope.ts). */
  async inboxLater(websiteToken: unknown): Promise<PublicInboxRow> {
    if (typeof websiteToken !== "string" || !websiteToken) return knownWebsiteInbox(null);
    return knownWebsiteInbox(await readLater(this.d.widgetRepo.readInboxByWebsiteToken(websiteToken)));
  }

  /** The visitor behind an X-Auth-Token (401 when it is missing, forged, another inbox's or its identity is gone). */
  visitor(inbox: PublicInboxRow, authToken: string | null | undefined): PublicScope {
    const sourceId = visitorSource(inbox, authToken);
    try {
      return this.d.publicContacts.scopeIn(inbox, sourceId);
    } catch (error) {
      throw goneVisitor(error);
    }
  }

  /** visitor(), awaited on PostgreSQL (GET /contact), in place on SQLite. */
  visitorSoon(inbox: PublicInboxRow, authToken: string | null | undefined): PublicScope | Promise<PublicScope> {
    if (!this.d.publicRepo.pooled) return this.visitor(inbox, authToken);
    return readSoon(this.readVisitor(inbox, authToken));
  }

  /** visitor() as a Reads, for read-only routes on PostgreSQL. */
  *readVisitor(inbox: PublicInboxRow, authToken: string | null | undefined): Reads<PublicScope> {
    const sourceId = visitorSource(inbox, authToken);
    try {
      // Delegated, not nested(): a NotFoundError of the identity must reach the catch below.
      return yield* this.d.publicContacts.readScopeIn(inbox, sourceId);
    } catch (error) {
      throw goneVisitor(error);
    }
  }

  /** The visitor of a valid token, else a new anonymous visitor (counted against the address's new-contact limit). */
  async start(inbox: PublicInboxRow, authToken: string | null | undefined, ip: string | null): Promise<WidgetVisitor> {
    if (authToken) {
      try {
        const scope = await this.visitorSoon(inbox, authToken);
        return { scope, token: authToken };
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw error; // a stale token starts over
      }
    }
    const r = await this.d.publicContacts.create(inbox, {}, ip);
    return await this.identity(inbox, r.contactInbox.source_id);
  }

  token(scope: PublicScope): string {
    return signWidgetToken(scope.inbox.hmac_token!, {
      source_id: scope.contactInbox.source_id,
      inbox_id: scope.inbox.id,
    });
  }

  /**
   * setUser(identifier, {name, email, …, identifier_hash}). The hash is checked as the public API
   * checks it (401 when wrong, or missing with hmac_mandatory). The same person (this contact
   * already has the identifier, or an anonymous visitor nobody else has claimed it for) is updated
   * in place and keeps the thread. Another person needs a verified hash — without it the visitor
   * would be shown that contact's details — and gets a new identity with a new token.
   */
  async setUser(
    scope: PublicScope,
    input: PublicContactInput,
    ip: string | null,
  ): Promise<WidgetVisitor & { switched: boolean }> {
    const errors = new FieldErrors();
    const identifier = requiredString(errors, "identifier", input.identifier, 255);
    errors.throwIfAny();
    const verified = this.d.publicContacts.verify(scope.inbox, input);
    // Committed rows, awaited on PostgreSQL's read pool; the update's body checks uniqueness again.
    const holder = await readSoon(this.d.contacts.readHolderOf(scope.account.id, "identifier", identifier!));
    const same =
      holder === null
        ? scope.contact.identifier === null || scope.contact.identifier === identifier
        : holder === scope.contact.id;
    const { name, email, phone_number, avatar_url, custom_attributes } = input;
    if (same) {
      const details = { identifier, name, email, phone_number, avatar_url, custom_attributes };
      const contacts = this.d.contactsService;
      const publicRepo = this.d.publicRepo;
      const now = unixSeconds(this.d.clock);
      await this.d.writeTx.steps(function* () {
        yield* contacts.updateSteps(scope.acting, scope.contact.id, details);
        if (verified && scope.contactInbox.hmac_verified === 0)
          yield* publicRepo.markVerifiedSteps(scope.contactInbox.id, now);
      });
      return { ...(await this.identity(scope.inbox, scope.contactInbox.source_id)), switched: false };
    }
    if (!verified)
      throw new UnauthorizedError(
        "This identifier belongs to another contact: send its identifier_hash",
        "identifier_hash",
      );
    const r = await this.d.publicContacts.create(
      scope.inbox,
      { identifier, identifier_hash: input.identifier_hash, name, email, phone_number, avatar_url, custom_attributes },
      ip,
    );
    return { ...(await this.identity(scope.inbox, r.contactInbox.source_id)), switched: true };
  }

  /** Business hours as the visitor sees them: always open when the inbox keeps none. */
  availability(inbox: PublicInboxRow): Availability {
    if (inbox.working_hours_enabled !== 1) return { open: true, next_open_at: null };
    const now = unixSeconds(this.d.clock);
    const schedule = scheduleFromEntries(JSON.parse(inbox.working_hours) as WorkingHoursEntry[]);
    if (isWithinBusinessHours(now, schedule, inbox.timezone)) return { open: true, next_open_at: null };
    return { open: false, next_open_at: nextOpening(now, schedule, inbox.timezone) };
  }

  /** The identity just written, read back: committed rows, awaited on PostgreSQL's read pool. */
  private async identity(inbox: PublicInboxRow, sourceId: string): Promise<WidgetVisitor> {
    const scope = await readSoon(this.d.publicContacts.readScopeIn(inbox, sourceId));
    return { scope, token: this.token(scope) };
  }
}
