// Status, priority and assignment changes (Chatwoot's toggle_status, toggle_priority,
// assignments, mute/unmute), each with its activity message and events; and the job that wakes
// snoozed conversations.
import type { ConversationRow, ConversationsRepo, ConversationStatus } from "../db/conversations.repo.ts";
import type { MemberRef, TeamRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { actingAsSystem, isAgent, type Acting } from "./acting.ts";
import { priorityActivity, statusActivity } from "./activity-messages.ts";
import { ConversationAssignment } from "./conversation-assignment.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { optionalId, priorityValue, statusValue, timeValue } from "./conversation-input.ts";
import type { ContactsService } from "./contacts.service.ts";
import { ValidationError } from "./errors.ts";

export interface ConversationStateDeps {
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  contactsService: ContactsService;
  events: ConversationEvents;
  writeTx: WriteTx;
  clock: Clock;
  /** Steps of the same transaction once a conversation has become resolved (the CSAT survey). */
  afterResolved?: (a: Acting, row: ConversationRow) => Reads<ConversationRow>;
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
  private readonly assignment: ConversationAssignment;

  constructor(private readonly d: ConversationStateDeps) {
    this.assignment = new ConversationAssignment(d);
  }

  /** No status toggles (open ↔ resolved; pending/snoozed → open). Leaving snoozed clears snoozed_until; resolving clears waiting_since. */
  async toggleStatus(
    a: Acting,
    row: ConversationRow,
    input: { status?: unknown; snoozed_until?: unknown },
  ): Promise<ConversationRow> {
    const asked: ConversationStatus | null =
      input.status === undefined || input.status === null || input.status === ""
        ? null
        : statusValue("status", input.status);
    const snoozedUntil = timeValue("snoozed_until", input.snoozed_until);
    return await this.d.writeTx.steps(() => this.toggleSteps(a, row, asked, snoozedUntil));
  }

  private *toggleSteps(
    a: Acting,
    loaded: ConversationRow,
    asked: ConversationStatus | null,
    snoozedUntil: number | null,
  ): Reads<ConversationRow> {
    // What a toggle means depends on the status as of this transaction.
    const row = yield* this.d.events.readCurrent(loaded);
    const status = asked ?? (row.status === "open" ? "resolved" : "open");
    let next = this.withStatus(row, status, status === "snoozed" ? snoozedUntil : null);
    // Chatwoot: an agent who opens an unassigned conversation takes it.
    if (isAgent(a) && status === "open" && next.assignee_id === null) next = { ...next, assignee_id: a.user!.id };
    return yield* this.applySteps(a, row, next);
  }

  setStatus(
    a: Acting,
    row: ConversationRow,
    status: ConversationStatus,
    snoozedUntil: number | null = null,
  ): Promise<ConversationRow> {
    return this.d.writeTx.steps(() => this.setStatusSteps(a, row, status, snoozedUntil));
  }

  /** setStatus() as steps, inside the caller's body (automation actions, macros). */
  *setStatusSteps(
    a: Acting,
    loaded: ConversationRow,
    status: ConversationStatus,
    snoozedUntil: number | null,
  ): Reads<ConversationRow> {
    const row = yield* this.d.events.readCurrent(loaded);
    return yield* this.applySteps(a, row, this.withStatus(row, status, snoozedUntil));
  }

  /**
   * Chatwoot's mute (the API action and the automation action alike): the contact is blocked, so
   * their messages no longer reopen anything or notify, and the conversation is resolved.
   */
  mute(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return this.d.writeTx.steps(() => this.muteSteps(a, row, true));
  }

  /** Chatwoot's unmute: the contact is unblocked; the conversation stays as it is. */
  unmute(a: Acting, row: ConversationRow): Promise<ConversationRow> {
    return this.d.writeTx.steps(() => this.muteSteps(a, row, false));
  }

  /** mute() (muted) or unmute() as steps, inside the caller's body (automation actions, macros). */
  *muteSteps(a: Acting, loaded: ConversationRow, muted: boolean): Reads<ConversationRow> {
    const row = yield* this.d.events.readCurrent(loaded);
    yield* this.d.contactsService.updateSteps(a, row.contact_id, { blocked: muted });
    const current = muted ? yield* this.applySteps(a, row, this.withStatus(row, "resolved", null)) : row;
    return yield* this.d.events.activitySteps(
      a,
      current,
      `${a.name} has ${muted ? "muted" : "unmuted"} the conversation`,
    );
  }

  async togglePriority(a: Acting, row: ConversationRow, raw: unknown): Promise<ConversationRow> {
    const priority = priorityValue(raw);
    if (priority === row.priority) return row;
    return await this.d.writeTx.steps(() => this.prioritySteps(a, row, priority));
  }

  /** togglePriority() as steps, inside the caller's body (automation actions, macros). */
  *togglePrioritySteps(a: Acting, row: ConversationRow, raw: unknown): Reads<ConversationRow> {
    const priority = priorityValue(raw);
    if (priority === row.priority) return row;
    return yield* this.prioritySteps(a, row, priority);
  }

  private *prioritySteps(
    a: Acting,
    loaded: ConversationRow,
    priority: ConversationRow["priority"],
  ): Reads<ConversationRow> {
    const row = yield* this.d.events.readCurrent(loaded);
    if (priority === row.priority) return row;
    const after = { ...row, priority, updated_at_ms: this.d.clock.nowMs() };
    yield* this.saveSteps(a, row, after);
    return yield* this.d.events.activitySteps(a, after, priorityActivity(a, row.priority, priority));
  }

  /** Assignee and/or team. A team drops an assignee who is not in it; asking for both with such an assignee is a 422. */
  async assign(a: Acting, row: ConversationRow, input: AssignmentInput): Promise<AssignmentResult> {
    // Committed rows, awaited on PostgreSQL's read pool: what the body checks again is the row alone.
    const plan = await readSoon(this.readPlan(a, row, input));
    return await this.d.writeTx.steps(() => this.assignmentSteps(a, row, plan));
  }

  /** assign() as steps, its checks included, inside the caller's body (automation actions, macros). */
  *assignSteps(a: Acting, row: ConversationRow, input: AssignmentInput): Reads<AssignmentResult> {
    const plan = yield* this.readPlan(a, row, input);
    return yield* this.assignmentSteps(a, row, plan);
  }

  /** What assign() checks and reads before its transaction. */
  private *readPlan(a: Acting, row: ConversationRow, input: AssignmentInput): Reads<AssignmentPlan> {
    const hasAssignee = input.assignee_id !== undefined;
    const hasTeam = input.team_id !== undefined;
    if (!hasAssignee && !hasTeam) throw ValidationError.of("assignee_id", "give assignee_id or team_id", "required");
    const { assignment } = this;
    const assignee = hasAssignee
      ? yield* assignment.readAssignee(a, optionalId("assignee_id", input.assignee_id) ?? null, { id: row.inbox_id })
      : null;
    const team = hasTeam ? yield* assignment.readTeam(a, optionalId("team_id", input.team_id) ?? null) : null;
    if (assignee && team && !(yield* this.d.conversationRefs.readIsTeamMember(team.id, assignee.user.id))) {
      throw ValidationError.of(
        "assignee_id",
        `agent ${assignee.user.id} is not a member of team ${team.id}`,
        "invalid",
      );
    }
    return { hasAssignee, hasTeam, assignee, team };
  }

  private *assignmentSteps(a: Acting, loaded: ConversationRow, plan: AssignmentPlan): Reads<AssignmentResult> {
    const { hasAssignee, hasTeam, assignee, team } = plan;
    const kind = hasAssignee ? "assignee" : "team";
    const refs = this.d.conversationRefs;
    const row = yield* this.d.events.readCurrent(loaded);
    let next: ConversationRow = { ...row, updated_at_ms: this.d.clock.nowMs() };
    if (hasAssignee) next.assignee_id = assignee?.user.id ?? null;
    if (hasTeam) {
      next.team_id = team?.id ?? null;
      if (
        team &&
        next.assignee_id !== null &&
        next.team_id !== row.team_id &&
        !(yield* refs.readIsTeamMember(team.id, next.assignee_id))
      )
        next.assignee_id = null;
    }
    if (next.assignee_id === row.assignee_id && next.team_id === row.team_id) return { row, kind, assignee, team };
    if (next.assignee_id !== row.assignee_id) next.assignee_last_seen_at = null;
    yield* this.saveSteps(a, row, next);
    next = yield* this.assignment.activitySteps(a, row, next);
    const members = next.assignee_id === null ? null : yield* refs.readMembers(a.account.id, [next.assignee_id]);
    const current = next.assignee_id === null ? null : (members?.get(next.assignee_id) ?? null);
    return { row: next, kind, assignee: current, team };
  }

  /**
   * An agent left the account: their conversations there become unassigned, as Chatwoot's agent
   * removal does, but with the usual events (Chatwoot's bulk update sends none, so lists and
   * webhooks kept showing a departed assignee). Steps of the removal's awaited body.
   */
  *unassignAgentSteps(account: { id: number; name: string }, userId: number): Reads<void> {
    const a = actingAsSystem(account);
    for (const row of yield* this.d.conversations.readAssignedTo(account.id, userId)) {
      yield* this.saveSteps(a, row, {
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
    // Committed rows (PostgreSQL's read pool); each body reads its row again before opening it.
    const due = await readSoon(this.d.conversations.readSnoozedDue(now, limit));
    for (const row of due) await this.d.writeTx.steps(() => this.reopenSteps(row.id));
    return due.length;
  }

  private *reopenSteps(id: number): Reads<void> {
    const current = yield* this.d.conversations.readById(id);
    if (current?.status !== "snoozed") return;
    const account = yield* this.d.conversationRefs.readAccountRef(current.account_id);
    if (!account) return;
    yield* this.applySteps(actingAsSystem(account), current, this.withStatus(current, "open", null));
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
  private *applySteps(a: Acting, before: ConversationRow, after: ConversationRow): Reads<ConversationRow> {
    if (
      after.status === before.status &&
      after.snoozed_until === before.snoozed_until &&
      after.assignee_id === before.assignee_id
    )
      return before;
    let current = after;
    if (after.status === before.status) yield* this.saveSteps(a, before, after);
    else {
      yield* this.d.conversations.saveSteps(after);
      current = yield* this.d.events.statusChangedSteps(a, before, after, statusActivity(a, after.status));
    }
    if (after.assignee_id !== before.assignee_id) current = yield* this.assignment.activitySteps(a, before, current);
    // After the activity message, so the survey follows "Conversation was marked resolved" as in Chatwoot.
    if (after.status === "resolved" && before.status !== "resolved" && this.d.afterResolved)
      current = yield* this.d.afterResolved(a, current);
    return current;
  }

  /** Saves a change and records its events (ConversationsService.save, as steps). */
  private *saveSteps(a: Acting, before: ConversationRow, after: ConversationRow): Reads<void> {
    yield* this.d.conversations.saveSteps(after);
    yield* this.d.events.changedSteps(a, before, after);
  }
}
