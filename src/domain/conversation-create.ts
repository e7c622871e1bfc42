// Chatwoot's conversation create: the inbox the caller may use, the contact and its contact inbox
// (by contact_id, or the legacy source_id alone), status (pending where a bot answers), assignee
// and team, and an optional first message, all in one writeTx with their events.
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { ConversationRefsRepo, InboxRef, MemberRef, TeamRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRow, ConversationsRepo, ConversationStatus } from "../db/conversations.repo.ts";
import type { ContactInboxRow } from "../db/contact-inboxes.repo.ts";
import type { ContactRow } from "../db/contacts.repo.ts";
import { type Reads, readNow, readSoon } from "../db/reads.ts";
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

  /** Checks the request (committed rows: PostgreSQL's read pool), then writes it as an awaited body. */
  async create(a: Acting, input: CreateConversationInput): Promise<ConversationRow> {
    const plan = await readSoon(this.readPlan(a, input));
    return await this.d.writeTx.steps(() => this.writeSteps(a, input, plan));
  }

  /** create() in place, for a caller inside another writeTx body (which cannot await). */
  createNow(a: Acting, input: CreateConversationInput): ConversationRow {
    const plan = readNow(this.readPlan(a, input));
    return this.d.writeTx.now(() => readNow(this.writeSteps(a, input, plan)));
  }

  /** create() as steps of the caller's awaited body (the widget's first message opens the conversation). */
  *createSteps(a: Acting, input: CreateConversationInput): Reads<ConversationRow> {
    return yield* this.writeSteps(a, input, yield* this.readPlan(a, input));
  }

  /** Everything create() checks and reads before its transaction. */
  private *readPlan(a: Acting, input: CreateConversationInput): Reads<Plan> {
    if (input.inbox_id === undefined || input.inbox_id === null || input.inbox_id === "")
      throw ValidationError.of("inbox_id", "can't be blank", "required");
    const inbox = yield* this.d.access.readInbox(a, input.inbox_id);
    const errors = new FieldErrors();
    const sourceId = optionalString(errors, "source_id", input.source_id, 255);
    errors.throwIfAny();
    // In an inbox a bot answers, a new conversation waits for the bot (Chatwoot: pending) until it hands off.
    const fallback: ConversationStatus = (yield* this.d.agentBots.readOfInbox(inbox.id)) ? "pending" : "open";
    const status: ConversationStatus =
      input.status === undefined || input.status === null || input.status === ""
        ? fallback
        : statusValue("status", input.status);
    const snoozedUntil = timeValue("snoozed_until", input.snoozed_until);
    const additional = objectValue("additional_attributes", input.additional_attributes) ?? {};
    const custom = objectValue("custom_attributes", input.custom_attributes) ?? {};
    yield* this.d.attributeValues.readCheck(a.account.id, "conversation_attribute", custom);
    const assignee = yield* this.assignment.readAssignee(
      a,
      optionalId("assignee_id", input.assignee_id) ?? null,
      inbox,
    );
    const team = yield* this.assignment.readTeam(a, optionalId("team_id", input.team_id) ?? null);
    if (input.hmac_verified !== undefined && typeof input.hmac_verified !== "boolean")
      throw ValidationError.of("hmac_verified", "must be true or false", "invalid");
    const message =
      input.message === undefined || input.message === null
        ? null
        : (objectValue("message", input.message) as MessageInput);
    return { inbox, sourceId: sourceId ?? null, status, snoozedUntil, additional, custom, assignee, team, message };
  }

  /** The write itself, as steps of the transaction (src/db/reads.ts). */
  private *writeSteps(a: Acting, input: CreateConversationInput, plan: Plan): Reads<ConversationRow> {
    const { inbox, snoozedUntil, additional, custom, assignee, team, message } = plan;
    const { contact, contactInbox } = yield* this.contactInboxSteps(a, input, inbox, plan.sourceId);
    if (inbox.lock_to_single_conversation === 1) {
      const existing = yield* this.d.conversations.readLastOfContactInbox(contactInbox.id);
      if (existing) return existing;
    }
    const status: ConversationStatus = contact.blocked === 1 ? "resolved" : plan.status;
    const now = unixSeconds(this.d.clock);
    // Chatwoot's team rule: an assignee who is not in the team is dropped.
    const assigneeId =
      assignee && team && !(yield* this.d.conversationRefs.readIsTeamMember(team.id, assignee.user.id))
        ? null
        : (assignee?.user.id ?? null);
    const conversations = this.d.conversations;
    const id = yield* conversations.insertSteps({
      account_id: a.account.id,
      display_id: yield* conversations.nextDisplayIdSteps(a.account.id),
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
    let row = (yield* conversations.readById(id))!;
    yield* this.d.events.createdSteps(a, row);
    if (row.team_id !== null || row.assignee_id !== null) {
      const blank = { ...row, assignee_id: null, team_id: null };
      yield* this.d.events.changedSteps(a, blank, row);
      row = yield* this.assignment.activitySteps(a, blank, row);
    }
    if (message) row = (yield* this.d.messagesService.createInTxSteps(a, row, message, "chat", [])).view.row;
    return (yield* conversations.readById(row.id))!;
  }

  private *contactInboxSteps(
    a: Acting,
    input: CreateConversationInput,
    inbox: InboxRef,
    sourceId: string | null,
  ): Reads<{ contact: ContactRow; contactInbox: ContactInboxRow }> {
    const contacts = this.d.contactsService;
    const contactId = optionalId("contact_id", input.contact_id);
    if (contactId === undefined || contactId === null) {
      // Chatwoot's legacy form: the contact_inbox found by source_id alone.
      if (!sourceId) throw ValidationError.of("contact_id", "can't be blank", "required");
      const found = yield* contacts.readContactInboxBySource(inbox.id, sourceId);
      if (!found)
        throw new NotFoundError("Contact inbox", "source_id", `no contact with source_id ${sourceId} in this inbox`);
      return { contact: yield* contacts.readGet(a.account.id, found.contact_id), contactInbox: found };
    }
    const contact = yield* contacts.readGet(a.account.id, contactId, "contact_id");
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
    const hmac = input.hmac_verified === true;
    const now = unixSeconds(this.d.clock);
    const contactInbox = yield* contacts.addContactInboxSteps(contact, inbox, source, hmac, now);
    return { contact, contactInbox };
  }
}
