// Conversations: create, show (the list and its filters: conversation-lists.ts), update,
// labels, custom attributes, last-seen marks. State changes live in conversation-state.service.ts.
import { ConversationLists, type ListQuery } from "./conversation-lists.ts";
import type { ContactSearch } from "../db/contacts-search.ts";
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { CustomAttributeValues } from "./custom-attribute-values.ts";
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo, InboxRef, MemberRef, TeamRef } from "../db/conversation-refs.repo.ts";
import type {
  ConversationCounts,
  ConversationRow,
  ConversationsRepo,
  ConversationStatus,
} from "../db/conversations.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import type { MessageRow, MessagesRepo } from "../db/messages.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { assigneeActivity, labelActivity, teamActivity } from "./activity-messages.ts";
import { labelTitles } from "./contact-input.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { objectValue, optionalId, statusValue, timeValue } from "./conversation-input.ts";
import type { ConversationView, ConversationViews } from "./conversation-view.ts";
import { FieldErrors, NotFoundError, ValidationError } from "./errors.ts";
import type { MessageInput } from "./message-input.ts";
import type { MessagesService } from "./messages.service.ts";
import type { MessageUpdatesService } from "./message-updates.service.ts";
import { optionalString } from "./validate.ts";

export interface ConversationsDeps {
  conversations: ConversationsRepo;
  messages: MessagesRepo;
  contacts: ContactsRepo;
  conversationRefs: ConversationRefsRepo;
  labels: LabelsRepo;
  access: ConversationAccess;
  views: ConversationViews;
  events: ConversationEvents;
  contactsService: ContactsService;
  messagesService: MessagesService;
  messageUpdates: MessageUpdatesService;
  attributeValues: CustomAttributeValues;
  agentBots: AgentBotsRepo;
  contactSearch: ContactSearch;
  writeTx: WriteTx;
  clock: Clock;
}

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

export { CONVERSATIONS_PER_PAGE, type ListQuery } from "./conversation-lists.ts";

export class ConversationsService {
  private readonly lists: ConversationLists;

  constructor(private readonly d: ConversationsDeps) {
    this.lists = new ConversationLists(d);
  }

  list(a: Acting, q: ListQuery): { counts: ConversationCounts; rows: ConversationRow[] } {
    return this.lists.list(a, q);
  }

  counts(a: Acting, q: ListQuery): ConversationCounts {
    return this.lists.counts(a, q);
  }

  /** A contact's conversations the caller may see, newest activity first, at most 20 (Chatwoot). */
  ofContact(a: Acting, contactId: number): ConversationRow[] {
    return this.lists.ofContact(a, contactId);
  }

  get(a: Acting, rawDisplayId: unknown): ConversationRow {
    return this.d.access.conversation(a, rawDisplayId);
  }

  /** The API object's data for conversations the caller sees. */
  views(a: Acting, rows: ConversationRow[]): ConversationView[] {
    return this.d.views.many(rows, { account: a.account, viewerId: a.user?.id ?? null, api: true });
  }

  /**
   * The same for a page of a list or filter whose rows were just selected in this request: their
   * trigger-kept labels, unread count and newest message stand in for three lookups per row.
   */
  listViews(a: Acting, rows: ConversationRow[]): ConversationView[] {
    return this.d.views.many(rows, { account: a.account, viewerId: a.user?.id ?? null, api: true, fresh: true });
  }

  view(a: Acting, row: ConversationRow): ConversationView {
    return this.views(a, [row])[0]!;
  }

  /** The view behind a message page: the conversation's meta and every sender on the page. */
  messageListView(a: Acting, row: ConversationRow, page: readonly MessageRow[]): ConversationView {
    const view = this.d.views.one(row, { account: a.account, viewerId: a.user?.id ?? null, api: false });
    return this.d.views.withSenders(view, page);
  }

  create(a: Acting, input: CreateConversationInput): ConversationRow {
    if (input.inbox_id === undefined || input.inbox_id === null || input.inbox_id === "")
      throw ValidationError.of("inbox_id", "can't be blank", "required");
    const inbox = this.d.access.inbox(a, input.inbox_id);
    const errors = new FieldErrors();
    const sourceId = optionalString(errors, "source_id", input.source_id, 255);
    errors.throwIfAny();
    // In an inbox a bot answers, a new conversation waits for the bot (Chatwoot: pending) until it hands off.
    const fallback: ConversationStatus = this.d.agentBots.ofInbox(inbox.id) ? "pending" : "open";
    let status: ConversationStatus =
      input.status === undefined || input.status === null || input.status === ""
        ? fallback
        : statusValue("status", input.status);
    const snoozedUntil = timeValue("snoozed_until", input.snoozed_until);
    const additional = objectValue("additional_attributes", input.additional_attributes) ?? {};
    const custom = objectValue("custom_attributes", input.custom_attributes) ?? {};
    this.d.attributeValues.check(a.account.id, "conversation_attribute", custom);
    const assignee = this.assignee(a, optionalId("assignee_id", input.assignee_id) ?? null, inbox);
    const team = this.team(a, optionalId("team_id", input.team_id) ?? null);
    if (input.hmac_verified !== undefined && typeof input.hmac_verified !== "boolean")
      throw ValidationError.of("hmac_verified", "must be true or false", "invalid");
    const message =
      input.message === undefined || input.message === null
        ? null
        : (objectValue("message", input.message) as MessageInput);
    return this.d.writeTx(() => {
      const { contact, contactInbox } = this.contactInbox(a, input, inbox, sourceId ?? null);
      if (inbox.lock_to_single_conversation === 1) {
        const existing = this.d.conversations.lastOfContactInbox(contactInbox.id);
        if (existing) return existing;
      }
      if (contact.blocked === 1) status = "resolved";
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
        row = this.assignmentActivity(a, blank, row);
      }
      if (message) row = this.d.messagesService.createInTx(a, row, message).view.row;
      return this.d.conversations.byId(row.id)!;
    });
  }

  /** PATCH: priority via the state service; attribute objects are merged. */
  updateAttributes(
    a: Acting,
    row: ConversationRow,
    input: { additional_attributes?: unknown; custom_attributes?: unknown },
  ): ConversationRow {
    const additional = objectValue("additional_attributes", input.additional_attributes);
    const custom = objectValue("custom_attributes", input.custom_attributes);
    if (!additional && !custom) return row;
    this.d.attributeValues.check(a.account.id, "conversation_attribute", custom);
    return this.d.writeTx(() => {
      const after: ConversationRow = {
        ...row,
        additional_attributes: additional
          ? JSON.stringify({ ...JSON.parse(row.additional_attributes), ...additional })
          : row.additional_attributes,
        custom_attributes: custom
          ? JSON.stringify({ ...JSON.parse(row.custom_attributes), ...custom })
          : row.custom_attributes,
        updated_at_ms: this.d.clock.nowMs(),
      };
      return this.save(a, row, after);
    });
  }

  /** POST custom_attributes: replaces the whole object (Chatwoot). */
  setCustomAttributes(a: Acting, row: ConversationRow, raw: unknown): ConversationRow {
    const custom = objectValue("custom_attributes", raw);
    if (!custom) throw ValidationError.of("custom_attributes", "can't be blank", "required");
    this.d.attributeValues.check(a.account.id, "conversation_attribute", custom);
    return this.d.writeTx(() =>
      this.save(a, row, { ...row, custom_attributes: JSON.stringify(custom), updated_at_ms: this.d.clock.nowMs() }),
    );
  }

  labels(row: ConversationRow): string[] {
    return this.d.labels.titles("conversation", row.id);
  }

  /** Replaces the labels; activity messages name what was added and removed. */
  setLabels(a: Acting, row: ConversationRow, raw: unknown): string[] {
    const titles = labelTitles("labels", raw);
    return this.d.writeTx(() => {
      const before = this.d.labels.titles("conversation", row.id);
      const { added, removed } = this.d.labels.replace("conversation", row.id, a.account.id, titles);
      if (added.length === 0 && removed.length === 0) return before;
      const after = { ...row, updated_at_ms: this.d.clock.nowMs() };
      this.d.conversations.save(after);
      const labels = this.d.labels.titles("conversation", row.id);
      this.d.events.changed(a, row, after, { before, after: labels });
      let current = this.d.events.activity(a, after, labelActivity(a, "added", added));
      current = this.d.events.activity(a, current, labelActivity(a, "removed", removed));
      return labels;
    });
  }

  /**
   * The agent has read the conversation: the last-seen columns move (silently, as Chatwoot's), and
   * the contact's messages not read yet become read, each with its message_updated (Chatwoot's
   * UpdateMessageStatusJob), so the website chat shows the visitor "Read".
   */
  markSeen(a: Acting, row: ConversationRow): ConversationRow {
    const now = unixSeconds(this.d.clock);
    const isAssignee = a.user !== null && row.assignee_id === a.user.id;
    const after = {
      ...row,
      agent_last_seen_at: now,
      assignee_last_seen_at: isAssignee ? now : row.assignee_last_seen_at,
    };
    this.d.writeTx(() => {
      this.d.conversations.save(after);
      this.d.messageUpdates.markRead(
        a,
        after,
        this.d.messages.incomingUnread(row.id, row.agent_last_seen_at ?? 0, now),
      );
    });
    return after;
  }

  /** Marks the last incoming message unread: last seen goes to one second before it (Chatwoot). */
  markUnread(a: Acting, row: ConversationRow): ConversationRow {
    const lastIncomingAt = this.d.messages.lastIncomingAt(row.id);
    const seen = lastIncomingAt === null ? null : lastIncomingAt - 1;
    const isAssignee = a.user !== null && row.assignee_id === a.user.id;
    const after = {
      ...row,
      agent_last_seen_at: seen,
      assignee_last_seen_at: isAssignee ? seen : row.assignee_last_seen_at,
    };
    this.d.writeTx(() => this.d.conversations.save(after));
    return after;
  }

  /** Saves a change and records its events; inside writeTx. */
  save(a: Acting, before: ConversationRow, after: ConversationRow): ConversationRow {
    this.d.conversations.save(after);
    this.d.events.changed(a, before, after);
    return after;
  }

  /** Activity for an assignment change: a team change names the team (and the new assignee), else the assignee. */
  assignmentActivity(a: Acting, before: ConversationRow, after: ConversationRow): ConversationRow {
    const members = this.d.conversationRefs.members(
      a.account.id,
      after.assignee_id === null ? [] : [after.assignee_id],
    );
    const assignee = after.assignee_id === null ? null : (members.get(after.assignee_id)?.user ?? null);
    if (before.team_id !== after.team_id) {
      const teams = this.d.conversationRefs.teams(
        [before.team_id, after.team_id].filter((t): t is number => t !== null),
      );
      const changedAssignee = before.assignee_id !== after.assignee_id && assignee ? assignee.name : null;
      const text = teamActivity(
        a,
        after.team_id === null ? null : (teams.get(after.team_id)?.name ?? null),
        before.team_id === null ? null : (teams.get(before.team_id)?.name ?? null),
        changedAssignee,
      );
      return this.d.events.activity(a, after, text);
    }
    if (before.assignee_id !== after.assignee_id)
      return this.d.events.activity(a, after, assigneeActivity(a, assignee));
    return after;
  }

  /** An assignee must be a member of the account who can reach the inbox (administrator or inbox member). */
  assignee(a: Acting, id: number | null, inbox: InboxRef | { id: number }): MemberRef | null {
    if (id === null) return null;
    const m = this.d.conversationRefs.member(a.account.id, id);
    if (!m?.membership) throw ValidationError.of("assignee_id", `no agent ${id} in this account`, "not_found");
    if (m.membership.role !== "administrator" && !this.d.conversationRefs.isInboxMember(inbox.id, id)) {
      throw ValidationError.of("assignee_id", `agent ${id} is not a member of the conversation's inbox`, "invalid");
    }
    return m;
  }

  team(a: Acting, id: number | null): TeamRef | null {
    if (id === null) return null;
    const t = this.d.conversationRefs.team(a.account.id, id);
    if (!t) throw ValidationError.of("team_id", `no team ${id} in this account`, "not_found");
    return t;
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
