// Chatwoot's bulk actions on conversations (POST bulk_actions, the mobile app's and the dashboard's
// multi-select): labels removed and added, then status, assignee and team, for each conversation
// named by its display id. Each change goes through the same service as its single-conversation
// route, with its activity message and events. Unlike Chatwoot, which queues a job and answers
// before anything is done, the whole batch is one transaction, done when the answer comes: an
// unknown id, a conversation the caller may not see or an assignee who may not work one of the
// inboxes refuses the batch and changes nothing.
import type { ConversationRow, ConversationStatus } from "../db/conversations.repo.ts";
import { nested, type Reads } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { Acting } from "./acting.ts";
import { labelTitles } from "./contact-input.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import { statusValue, timeValue } from "./conversation-input.ts";
import type { ConversationStateService } from "./conversation-state.service.ts";
import type { ConversationsService } from "./conversations.service.ts";
import { ValidationError } from "./errors.ts";
import { idList } from "./id-list.ts";

/** The most conversations one request may change. */
export const MAX_BULK_IDS = 1000;

export interface BulkActionInput {
  type?: unknown;
  ids?: unknown;
  fields?: unknown;
  labels?: unknown;
  snoozed_until?: unknown;
}

export interface BulkActionsDeps {
  access: ConversationAccess;
  conversationsService: ConversationsService;
  conversationState: ConversationStateService;
  writeTx: WriteTx;
}

interface Plan {
  ids: number[];
  status: ConversationStatus | null;
  snoozedUntil: number | null;
  assignment: { assignee_id?: unknown; team_id?: unknown } | null;
  add: string[];
  remove: string[];
}

export class BulkActionsService {
  constructor(private readonly d: BulkActionsDeps) {}

  /** Applies the action to every conversation named, or to none. Returns how many were named. */
  async apply(a: Acting, input: BulkActionInput): Promise<number> {
    const plan = planOf(input);
    return await this.d.writeTx.steps(() => this.applySteps(a, plan));
  }

  /** One body, its statements awaited on PostgreSQL: every conversation is checked before any changes. */
  private *applySteps(a: Acting, plan: Plan): Reads<number> {
    const rows: ConversationRow[] = [];
    for (const id of plan.ids) rows.push(yield* nested(this.d.access.readConversation(a, id)));
    for (const row of rows) yield* this.applyOneSteps(a, row, plan);
    return rows.length;
  }

  /** Each change reads the conversation as the one before it left it (the services' steps do). */
  private *applyOneSteps(a: Acting, row: ConversationRow, plan: Plan): Reads<void> {
    const labels = this.d.conversationsService;
    if (plan.add.length > 0 || plan.remove.length > 0) {
      const current = yield* labels.readLabels(row);
      const kept = current.filter((l) => !plan.remove.includes(l));
      const next = [...kept, ...plan.add.filter((l) => !kept.includes(l))];
      if (next.join("\n") !== current.join("\n")) yield* labels.setLabelsSteps(a, row, next);
    }
    const state = this.d.conversationState;
    if (plan.status) yield* state.setStatusSteps(a, row, plan.status, plan.snoozedUntil);
    if (plan.assignment) yield* state.assignSteps(a, row, plan.assignment);
  }
}

function planOf(input: BulkActionInput): Plan {
  const type = typeof input.type === "string" ? input.type.trim().toLowerCase() : "";
  if (type !== "conversation")
    throw ValidationError.of("type", "must be Conversation (the only kind of bulk action Parley takes)", "invalid");
  const ids = idList("ids", input.ids, { max: MAX_BULK_IDS, noun: ["conversation", "conversations"] });
  const fields = objectOrNull("fields", input.fields);
  // Chatwoot drops a null status; a null assignee_id unassigns, a team_id of null or 0 removes the team.
  const status =
    fields?.status === undefined || fields.status === null ? null : statusValue("fields.status", fields.status);
  const assignment: Plan["assignment"] = {};
  if (fields && "assignee_id" in fields) assignment.assignee_id = fields.assignee_id;
  if (fields && "team_id" in fields)
    assignment.team_id = fields.team_id === 0 || fields.team_id === "0" ? null : fields.team_id;
  const labels = objectOrNull("labels", input.labels);
  const add = labelTitles("labels.add", labels?.add);
  const remove = labelTitles("labels.remove", labels?.remove);
  const hasAssignment = Object.keys(assignment).length > 0;
  if (!status && !hasAssignment && add.length === 0 && remove.length === 0)
    throw ValidationError.of(
      "fields",
      "give fields (status, assignee_id, team_id) or labels (add, remove)",
      "required",
    );
  const snoozedUntil = status === "snoozed" ? timeValue("snoozed_until", input.snoozed_until) : null;
  return { ids, status, snoozedUntil, assignment: hasAssignment ? assignment : null, add, remove };
}

function objectOrNull(field: string, raw: unknown): Record<string, unknown> | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== "object" || Array.isArray(raw)) throw ValidationError.of(field, "must be an object", "invalid");
  return raw as Record<string, unknown>;
}
