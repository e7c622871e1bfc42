// Chatwoot's conversation create: the inbox the caller may use, the contact and its contact inbox
// (by contact_id, or the legacy source_id alone), status (pending where a bot answers), assignee
// and team, and an optional first message, all in one writeTx with their events.
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { ConversationRefsRepo, InboxRef, MemberRef, TeamRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRow, ConversationsRepo, ConversationStatus } from "../db/conversations.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import type { ConversationAssignment } from "./conversation-assignment.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { objectValue, optionalId, statusValue, timeValue } from "./conversation-input.ts";
import type { CustomAttributeValues } from "./custom-attribute-values.ts";
import { FieldErrors, NotFoundError, ValidationError } from "./errors.ts";
import type { MessageInput } from "./message-input.ts";
import type { MessagesService } from "./messages.service.ts";
import { optionalString } from "./validate.ts";

export interface CreateConversationInput {
  source_id?: unknown;
  inbox_id?: unknown;
  contact_id?: unknown;
  additional_attributes?: unknown;
  custom_attributes?: unknown;
  status?: unknown;
  assignee_id?: unknown;
  team_id?: unknown;
  snoozed_until?: unknown;
  message?: unknown;
  hmac_verified?: unknown;
}

export interface ConversationCreationDeps {
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  agentBots: AgentBotsRepo;
  access: ConversationAccess;
  events: ConversationEvents;
  contactsService: ContactsService;
  messagesService: MessagesService;
  attributeValues: CustomAttributeValues;
  writeTx: WriteTx;
  clock: Clock;
}

/** What create() checked and read before its transaction. */
interface Plan {
  inbox: InboxRef;
  sourceId: string | null;
  status: ConversationStatus;
  snoozedUntil: number | null;
  additional: Record<string, unknown>;
  custom: Record<string, unknown>;
  assignee: MemberRef | null;
  team: TeamRef | null;
  message: MessageInput | null;
}

export class ConversationCreation {
  constructor(
    private readonly d: ConversationCreationDeps,
    private readonly assignment: ConversationAssignment,
  ) {}

  /** Checks the request, then writes it in its own transaction (or the caller's, joined). */
  async create(a: Acting, input: CreateConversationInput): Promise<ConversationRow> {
    const plan = this.plan(a, input);
    return await this.d.writeTx(() => this.write(a, input, plan));
  }

  /** create() in place, for a caller inside another writeTx body (which cannot await). */
  createNow(a: Acting, input: CreateConversationInput): ConversationRow {
    const plan = this.plan(a, input);
    return this.d.writeTx.now(() => this.write(a, input, plan));
  }

  /** Everything create() checks and reads before its transaction. */
  private plan(a: Acting, input: CreateConversationInput): Plan {
    if (input.inbox_id === undefined || input.inbox_id === null || input.inbox_id === "")
      throw ValidationError.of("inbox_id", "can't be blank", "required");
    const inbox = this.d.access.inbox(a, input.inbox_id);
    const errors = new FieldErrors();
    const sourceId = optionalString(errors, "source_id", input.source_id, 255);
    errors.throwIfAny();
    // In an inbox a bot answers, a new conversation waits for the bot (Chatwoot: pending) until it hands off.
    const fallback: ConversationStatus = this.d.agentBots.ofInbox(inbox.id) ? "pending" : "open";
    const status: ConversationStatus =
      input.status === undefined || input.status === null || input.status === ""
        ? fallback
        : statusValue("status", input.status);
    const snoozedUntil = timeValue("snoozed_until", input.snoozed_until);
    const additional = objectValue("additional_attributes", input.additional_attributes) ?? {};
    const custom = objectValue("custom_attributes", input.custom_attributes) ?? {};
    this.d.attributeValues.check(a.account.id, "conversation_attribute", custom);
    const assignee = this.assignment.assignee(a, optionalId("assignee_id", input.assignee_id) ?? null, inbox);
    const team = this.assignment.team(a, optionalId("team_id", input.team_id) ?? null);
    if (input.hmac_verified !== undefined && typeof input.hmac_verified !== "boolean")
      throw ValidationError.of("hmac_verified", "must be true or false", "invalid");
    const message =
      input.message === undefined || input.message === null
        ? null
        : (objectValue("message", input.message) as MessageInput);
    return { inbox, sourceId: sourceId ?? null, status, snoozedUntil, additional, custom, assignee, team, message };
  }

  /** The write itself: inside writeTx. */
  private write(a: Acting, input: CreateConversationInput, plan: Plan): ConversationRow {
    const { inbox, snoozedUntil, additional, custom, assignee, team, message } = plan;
    const { contact, contactInbox } = this.contactInbox(a, input, inbox, plan.sourceId);
    if (inbox.lock_to_single_conversation === 1) {
      const existing = this.d.conversations.lastOfContactInbox(contactInbox.id);
      if (existing) return existing;
    }
    const status: ConversationStatus = contact.blocked === 1 ? "resolved" : plan.status;
    const now = unixSeconds(this.d.clock);
    // Chatwoot's team rule: an assignee who is not in the team is dropped.
    const assigneeId =
      assignee && team && !this.d.conversationRefs.isTeamMember(team.id, assignee.user.id)
        ? null
        : (assignee?.user.id ?? null);
    const id = this.d.conversations.insert({
      account_id: a.account.id,
      display_id: this.d.conversations.nextDisplayId(a.account.id),
      uuid: crypto.randomUUID(),
      inbox_id: inbox.id,
      contact_id: contact.id,
      contact_inbox_id: contactInbox.id,
      status,
      priority: null,
      assignee_id: assigneeId,
      team_id: team?.id ?? null,
      snoozed_until: status === "snoozed" ? snoozedUntil : null,
      waiting_since: now,
      first_reply_created_at: null,
      agent_last_seen_at: null,
      assignee_last_seen_at: null,
      contact_last_seen_at: null,
      last_activity_at: now,
      additional_attributes: JSON.stringify(additional),
      custom_attributes: JSON.stringify(custom),
      created_at: now,
      updated_at_ms: this.d.clock.nowMs(),
    });
    let row = this.d.conversations.byId(id)!;
    this.d.events.created(a, row);
    if (row.team_id !== null || row.assignee_id !== null) {
      const blank = { ...row, assignee_id: null, team_id: null };
      this.d.events.changed(a, blank, row);
      row = this.assignment.activity(a, blank, row);
    }
    if (message) row = this.d.messagesService.createInTx(a, row, message).view.row;
    return this.d.conversations.byId(row.id)!;
  }

  private contactInbox(a: Acting, input: CreateConversationInput, inbox: InboxRef, sourceId: string | null) {
    const contactId = optionalId("contact_id", input.contact_id);
    if (contactId === undefined || contactId === null) {
      // Chatwoot's legacy form: the contact_inbox found by source_id alone.
      if (!sourceId) throw ValidationError.of("contact_id", "can't be blank", "required");
      const found = this.d.contactsService.contactInboxBySource(inbox.id, sourceId);
      if (!found)
        throw new NotFoundError("Contact inbox", "source_id", `no contact with source_id ${sourceId} in this inbox`);
      return { contact: this.d.contactsService.get(a.account.id, found.contact_id), contactInbox: found };
    }
    const contact = this.d.contactsService.get(a.account.id, contactId, "contact_id");
    let source = sourceId;
    if (!source && inbox.channel_type === "email") {
      if (!contact.email)
        throw ValidationError.of("source_id", "the contact has no email for this email inbox", "required");
      source = contact.email;
    } else if (!source && inbox.channel_type === "phone") {
      if (!contact.phone_number)
        throw ValidationError.of("source_id", "the contact has no phone number for this inbox", "required");
      source = contact.phone_number;
    }
    const contactInbox = this.d.contactsService.addContactInbox(
      contact,
      inbox,
      source,
      input.hmac_verified === true,
      unixSeconds(this.d.clock),
    );
    return { contact, contactInbox };
  }
}
