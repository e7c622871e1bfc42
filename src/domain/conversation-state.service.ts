// Status, priority and assignment changes (Chatwoot's toggle_status, toggle_priority,
// assignments, mute/unmute), each with its activity message and events; and the job that wakes
// snoozed conversations.
import type { ConversationRow, ConversationsRepo, ConversationStatus } from "../db/conversations.repo.ts";
import type { MemberRef, TeamRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { actingAsSystem, isAgent, type Acting } from "./acting.ts";
import { priorityActivity, statusActivity } from "./activity-messages.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { optionalId, priorityValue, statusValue, timeValue } from "./conversation-input.ts";
import type { ContactsService } from "./contacts.service.ts";
import type { ConversationsService } from "./conversations.service.ts";
import { ValidationError } from "./errors.ts";

export interface ConversationStateDeps {
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  conversationsService: ConversationsService;
  contactsService: ContactsService;
  events: ConversationEvents;
  writeTx: WriteTx;
  clock: Clock;
  /** Runs in the same transaction once a conversation has become resolved (the CSAT survey). */
  afterResolved?: (a: Acting, row: ConversationRow) => ConversationRow;
}

export interface AssignmentResult {
  row: ConversationRow;
  /** What Chatwoot answers: the assignee, the team, or null. */
  kind: "assignee" | "team";
  assignee: MemberRef | null;
  team: TeamRef | null;
}

export interface AssignmentInput {
  assignee_id?: unknown;
  team_id?: unknown;
}

interface AssignmentPlan {
  hasAssignee: boolean;
  hasTeam: boolean;
  assignee: MemberRef | null;
  team: TeamRef | null;
}

export class ConversationStateService {
  constructor(private readonly d: ConversationStateDeps) {}

  /** No status toggles (open ↔ resolved; pending/snoozed → open). Leaving snoozed clears snoozed_until; resolving clears waiting_since. */
  async toggleStatus(
    a: Acting,
    row: ConversationRow,
    input: { status?: unknown; snoozed_until?: unknown },
  ): Promise<ConversationRow> {
    const status: ConversationStatus =
      input.status === undefined || input.status === null || input.status === ""
        ? row.status === "open"
          ? "resolved"
          : "open"
        : statusValue("status", input.status);
    const snoozedUntil = timeValue("snoozed_until", input.snoozed_until);
    return await this.d.writeTx(() => {
      let next = this.withStatus(row, status, status === "snoozed" ? snoozedUntil : null);
      // Chatwoot: an agent who opens an unassigned conversation takes it.
      if (isAgent(a) && status === "open" && next.assignee_id === null) next = { ...next, assignee_id: a.user!.id };
      return this.apply(a, row, next);
    });
  }

  setStatus(
    a: Acting,
    row: ConversationRow,
    status: ConversationStatus,
    snoozedUntil: number | null = null,
  ): Promise<ConversationRow> {
    return this.d.writeTx(() => this.setStatusNow(a, row, status, snoozedUntil));
  }

  /** setStatus() in place, for callers inside another writeTx body (bulk actions, automation actions). */
  setStatusNow(
    a: Acting,
    row: ConversationRow,
    status: ConversationStatus,
    snoozedUntil: number | null = null,
  ): ConversationRow {
    return this.d.writeTx.now(() => this.apply(a, row, this.withStatus(row, status, snoozedUntil)));
  }

  /**
   * Chatwoot's mute (the API action and the automation action alike): the contact is blocked, so
   * their messages no longer reopen anything or notify, and the conversation is resolved.
   */
  mute(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return this.d.writeTx(() => this.muteNow(a, row));
  }

  /** mute() in place: automation actions run inside a macro's writeTx body, which cannot await. */
  muteNow(a: Acting, row: ConversationRow): ConversationRow {
    return this.d.writeTx.now(() => {
      this.d.contactsService.updateNow(a, row.contact_id, { blocked: true });
      const resolved = this.setStatusNow(a, row, "resolved");
      return this.d.events.activity(a, resolved, `${a.name} has muted the conversation`);
    });
  }

  /** Chatwoot's unmute: the contact is unblocked; the conversation stays as it is. */
  unmute(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return this.d.writeTx(() => {
      this.d.contactsService.updateNow(a, row.contact_id, { blocked: false });
      return this.d.events.activity(a, this.d.conversations.byId(row.id)!, `${a.name} has unmuted the conversation`);
    });
  }

  async togglePriority(a: Acting, row: ConversationRow, raw: unknown): Promise<ConversationRow> {
    const priority = priorityValue(raw);
    if (priority === row.priority) return row;
    return await this.d.writeTx(() => this.savePriority(a, row, priority));
  }

  /** togglePriority() in place: automation actions run inside a macro's writeTx body, which cannot await. */
  togglePriorityNow(a: Acting, row: ConversationRow, raw: unknown): ConversationRow {
    const priority = priorityValue(raw);
    if (priority === row.priority) return row;
    return this.d.writeTx.now(() => this.savePriority(a, row, priority));
  }

  /** Inside writeTx. */
  private savePriority(a: Acting, row: ConversationRow, priority: ConversationRow["priority"]): ConversationRow {
    const after = { ...row, priority, updated_at_ms: this.d.clock.nowMs() };
    this.d.conversationsService.save(a, row, after);
    return this.d.events.activity(a, after, priorityActivity(a, row.priority, priority));
  }

  /** Assignee and/or team. A team drops an assignee who is not in it; asking for both with such an assignee is a 422. */
  async assign(a: Acting, row: ConversationRow, input: AssignmentInput): Promise<AssignmentResult> {
    const plan = this.assignment(a, row, input);
    return await this.d.writeTx(() => this.saveAssignment(a, row, plan));
  }

  /** assign() in place, for callers inside another writeTx body (bulk actions, automation actions). */
  assignNow(a: Acting, row: ConversationRow, input: AssignmentInput): AssignmentResult {
    const plan = this.assignment(a, row, input);
    return this.d.writeTx.now(() => this.saveAssignment(a, row, plan));
  }

  /** What assign() checks and reads before its transaction. */
  private assignment(a: Acting, row: ConversationRow, input: AssignmentInput): AssignmentPlan {
    const hasAssignee = input.assignee_id !== undefined;
    const hasTeam = input.team_id !== undefined;
    if (!hasAssignee && !hasTeam) throw ValidationError.of("assignee_id", "give assignee_id or team_id", "required");
    const svc = this.d.conversationsService;
    const assignee = hasAssignee
      ? svc.assignee(a, optionalId("assignee_id", input.assignee_id) ?? null, { id: row.inbox_id })
      : null;
    const team = hasTeam ? svc.team(a, optionalId("team_id", input.team_id) ?? null) : null;
    const refs = this.d.conversationRefs;
    if (hasAssignee && hasTeam && assignee && team && !refs.isTeamMember(team.id, assignee.user.id)) {
      throw ValidationError.of(
        "assignee_id",
        `agent ${assignee.user.id} is not a member of team ${team.id}`,
        "invalid",
      );
    }
    return { hasAssignee, hasTeam, assignee, team };
  }

  /** Inside writeTx. */
  private saveAssignment(a: Acting, row: ConversationRow, plan: AssignmentPlan): AssignmentResult {
    const { hasAssignee, hasTeam, assignee, team } = plan;
    const svc = this.d.conversationsService;
    const refs = this.d.conversationRefs;
    let next: ConversationRow = { ...row, updated_at_ms: this.d.clock.nowMs() };
    if (hasAssignee) next.assignee_id = assignee?.user.id ?? null;
    if (hasTeam) {
      next.team_id = team?.id ?? null;
      if (
        team &&
        next.assignee_id !== null &&
        next.team_id !== row.team_id &&
        !refs.isTeamMember(team.id, next.assignee_id)
      )
        next.assignee_id = null;
    }
    if (next.assignee_id === row.assignee_id && next.team_id === row.team_id) {
      return { row, kind: hasAssignee ? "assignee" : "team", assignee, team } as AssignmentResult;
    }
    if (next.assignee_id !== row.assignee_id) next.assignee_last_seen_at = null;
    svc.save(a, row, next);
    next = svc.assignmentActivity(a, row, next);
    const current = next.assignee_id === null ? null : refs.member(a.account.id, next.assignee_id);
    return { row: next, kind: hasAssignee ? "assignee" : "team", assignee: current, team } as AssignmentResult;
  }

  /**
   * An agent left the account: their conversations there become unassigned, as Chatwoot's agent
   * removal does, but with the usual events (Chatwoot's bulk update sends none, so lists and
   * webhooks kept showing a departed assignee). Inside the removal's writeTx.
   */
  unassignAgent(account: { id: number; name: string }, userId: number): void {
    const a = actingAsSystem(account);
    for (const row of this.d.conversations.assignedTo(account.id, userId)) {
      this.d.conversationsService.save(a, row, {
        ...row,
        assignee_id: null,
        assignee_last_seen_at: null,
        updated_at_ms: this.d.clock.nowMs(),
      });
    }
  }

  /** The job: snoozed conversations whose snoozed_until has passed are opened by the system. */
  async reopenDue(limit = 500): Promise<number> {
    const now = unixSeconds(this.d.clock);
    const due = this.d.conversations.snoozedDue(now, limit);
    for (const row of due) {
      await this.d.writeTx(() => {
        const current = this.d.conversations.byId(row.id);
        if (current?.status !== "snoozed") return;
        const account = this.d.conversationRefs.accountRef(current.account_id);
        if (!account) return;
        this.apply(actingAsSystem(account), current, this.withStatus(current, "open", null));
      });
    }
    return due.length;
  }

  private withStatus(row: ConversationRow, status: ConversationStatus, snoozedUntil: number | null): ConversationRow {
    return {
      ...row,
      status,
      snoozed_until: status === "snoozed" ? snoozedUntil : null,
      waiting_since: status === "resolved" ? null : row.waiting_since,
      updated_at_ms: this.d.clock.nowMs(),
    };
  }

  /** Saves, records the events, writes the activity messages (status, then assignment). */
  private apply(a: Acting, before: ConversationRow, after: ConversationRow): ConversationRow {
    if (
      after.status === before.status &&
      after.snoozed_until === before.snoozed_until &&
      after.assignee_id === before.assignee_id
    )
      return before;
    const svc = this.d.conversationsService;
    svc.save(a, before, after);
    let current =
      after.status === before.status ? after : this.d.events.activity(a, after, statusActivity(a, after.status));
    if (after.assignee_id !== before.assignee_id) current = svc.assignmentActivity(a, before, current);
    // After the activity message, so the survey follows "Conversation was marked resolved" as in Chatwoot.
    if (after.status === "resolved" && before.status !== "resolved" && this.d.afterResolved)
      current = this.d.afterResolved(a, current);
    return current;
  }
}
