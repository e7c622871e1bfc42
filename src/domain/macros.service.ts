// Chatwoot's macros: a named list of conversation actions an agent runs by hand on one or more
// conversations. Agents keep personal macros (theirs alone; a macro an agent saves is always
// personal, as in Chatwoot); administrators also make global ones, which every member lists and
// runs, and may change or delete any. The actions are the automation catalogue's conversation
// actions, run by the automation executor as the caller — messages they send are the caller's.
// Unlike Chatwoot, which queues a job and answers first, a run is one transaction, done before the
// answer: a conversation the caller may not see, or an action that cannot be done, changes nothing.
import type { MemberRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { MacroFields, MacroRow, MacrosRepo } from "../db/macros.repo.ts";
import { MACROS_MAX } from "../db/macros.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { parseId, type AccountPrincipal } from "./auth.service.ts";
import { MACRO_ACTIONS } from "../shared/macro-actions.ts";
import { normaliseActions, type AutomationAction } from "./automation-catalogue.ts";
import type { AutomationExecutor, RunContext } from "./automation-executor.ts";
import { readReferenceProblems, type ReferenceRepos } from "./automation-references.ts";
import type { ConversationAccess } from "./conversation-access.ts";
import { AppError, FieldErrors, ForbiddenError, NotFoundError, ValidationError } from "./errors.ts";
import { idList } from "./id-list.ts";
import { requiredString } from "./validate.ts";

/** What a macro may do (shared with the web app's form): the catalogue's conversation actions. */
export { MACRO_ACTIONS };
const MAX_ACTIONS = 20;
/** The conversations one run may change (the mobile app runs a macro on a selection). */
export const MAX_RUN_CONVERSATIONS = 100;

export interface MacroInput {
  name?: unknown;
  visibility?: unknown;
  actions?: unknown;
}

export interface MacrosDeps extends ReferenceRepos {
  macros: MacrosRepo;
  access: ConversationAccess;
  executor: AutomationExecutor;
  writeTx: WriteTx;
  clock: Clock;
}

/**
 * Macros with who made and last changed them, by user id: the presenter shows those still members of
 * the account (a member's membership is not null).
 */
export interface MacrosWithPeople {
  macros: MacroRow[];
  people: Map<number, MemberRef>;
}

export class MacrosService {
  constructor(private readonly d: MacrosDeps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(p: AccountPrincipal): MacrosWithPeople | Promise<MacrosWithPeople> {
    const rows = this.d.macros.readList(p.account.id, isAdministrator(p) ? null : p.user.id);
    return readSoon(chain(rows, (macros) => this.readWithPeople(p.account.id, macros)));
  }

  /** get() with its people, for the read-only route: awaited on PostgreSQL. */
  showSoon(p: AccountPrincipal, rawId: unknown): MacrosWithPeople | Promise<MacrosWithPeople> {
    return readSoon(chain(this.readVisible(p, rawId), (macro) => this.readWithPeople(p.account.id, [macro])));
  }

  /** The macro made, with its people, read in its body: what a create answers. */
  create(p: AccountPrincipal, input: MacroInput): Promise<MacrosWithPeople> {
    const { macros, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const fields = yield* self.readFieldsOf(p, input, null);
      if ((yield* macros.readCount(p.account.id)) >= MACROS_MAX)
        throw ValidationError.of("name", `an account may keep at most ${MACROS_MAX} macros`, "invalid");
      const id = yield* macros.insertSteps(p.account.id, p.user.id, fields, unixSeconds(clock));
      return yield* self.readWithPeople(p.account.id, [(yield* macros.readById(p.account.id, id))!]);
    });
  }

  update(p: AccountPrincipal, rawId: unknown, input: MacroInput): Promise<MacrosWithPeople> {
    const { macros, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const current = yield* self.readOwned(p, rawId);
      const fields = yield* self.readFieldsOf(p, input, current);
      yield* macros.updateSteps(current.id, p.user.id, fields, unixSeconds(clock));
      return yield* self.readWithPeople(p.account.id, [(yield* macros.readById(p.account.id, current.id))!]);
    });
  }

  async delete(p: AccountPrincipal, rawId: unknown): Promise<void> {
    const { macros } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      yield* macros.deleteSteps((yield* self.readOwned(p, rawId)).id);
    });
  }

  /**
   * Runs every action, in order, on each conversation (display ids); all or nothing: one body, its
   * statements awaited on PostgreSQL (writeTx.steps).
   */
  async execute(p: AccountPrincipal, a: Acting, rawId: unknown, rawConversationIds: unknown): Promise<void> {
    const macro = await readSoon(this.readVisible(p, rawId));
    const ids = idList("conversation_ids", rawConversationIds, {
      max: MAX_RUN_CONVERSATIONS,
      noun: ["conversation", "conversations"],
    });
    const actions = JSON.parse(macro.actions) as AutomationAction[];
    const ctx = { eventName: "macro_executed", eventId: 0, ruleName: macro.name };
    await this.d.writeTx.steps(() => this.executeSteps(a, ids, actions, ctx));
  }

  private *executeSteps(a: Acting, ids: readonly number[], actions: AutomationAction[], ctx: RunContext): Reads<void> {
    const rows: ConversationRow[] = [];
    for (const id of ids) rows.push(yield* nested(this.d.access.readConversation(a, id)));
    for (const row of rows) {
      for (const [i, action] of actions.entries()) {
        try {
          yield* this.d.executor.runSteps(a, row.id, action, ctx);
        } catch (error) {
          // The executor's own failures (an agent who left, say) are the macro's problem, not ours.
          // (A failed statement is not caught here: it ends the body where the driver ran it.)
          if (error instanceof AppError) throw error;
          throw ValidationError.of(`actions[${i}]`, (error as Error).message, "invalid");
        }
      }
    }
  }

  private *readVisible(p: AccountPrincipal, rawId: unknown): Reads<MacroRow> {
    const id = parseId(rawId);
    return visible(p, id === null ? null : yield* nested(this.d.macros.readById(p.account.id, id)), rawId);
  }

  private *readWithPeople(accountId: number, macros: MacroRow[]): Reads<MacrosWithPeople> {
    return { macros, people: yield* nested(this.d.conversationRefs.readMembers(accountId, peopleOf(macros))) };
  }

  /** A macro the caller may change: their own, or any for an administrator. */
  private *readOwned(p: AccountPrincipal, rawId: unknown): Reads<MacroRow> {
    const macro = yield* this.readVisible(p, rawId);
    if (!isAdministrator(p) && macro.created_by_id !== p.user.id)
      throw new ForbiddenError("Only its author or an administrator may change this macro");
    return macro;
  }

  private *readFieldsOf(p: AccountPrincipal, input: MacroInput, current: MacroRow | null): Reads<MacroFields> {
    const errors = new FieldErrors();
    const name = input.name === undefined && current ? current.name : requiredString(errors, "name", input.name);
    let visibility = current?.visibility ?? "personal";
    if (input.visibility !== undefined && input.visibility !== null) {
      if (input.visibility !== "personal" && input.visibility !== "global")
        errors.add("visibility", "must be personal or global", "invalid");
      // Chatwoot: what an agent saves is personal, whatever they ask.
      else visibility = isAdministrator(p) ? input.visibility : "personal";
    }
    let actions = current?.actions ?? null;
    if (input.actions !== undefined || !current) {
      const list = actionsOf(input.actions, errors);
      if (list) {
        const problems = yield* readReferenceProblems(this.d, p.account.id, list);
        for (const e of problems.items) errors.add(e.field, e.message, e.code);
        actions = JSON.stringify(list);
      }
    }
    errors.throwIfAny();
    return { name: name!, visibility, actions: actions! };
  }
}

function isAdministrator(p: AccountPrincipal): boolean {
  return p.role === "administrator";
}

function mayUse(p: AccountPrincipal, macro: MacroRow): boolean {
  return macro.visibility === "global" || macro.created_by_id === p.user.id || isAdministrator(p);
}

/** The macro, when the caller may see it; else the 404 (one for the forms in place and awaited). */
function visible(p: AccountPrincipal, macro: MacroRow | null, rawId: unknown): MacroRow {
  if (!macro || !mayUse(p, macro)) throw new NotFoundError("Macro", "id", `no macro ${String(rawId)} in this account`);
  return macro;
}

/** Who made and last changed the macros, each once. */
function peopleOf(macros: readonly MacroRow[]): number[] {
  const ids = new Set<number>();
  for (const m of macros) {
    if (m.created_by_id !== null) ids.add(m.created_by_id);
    if (m.updated_by_id !== null) ids.add(m.updated_by_id);
  }
  return [...ids];
}

function actionsOf(raw: unknown, errors: FieldErrors): AutomationAction[] | null {
  if (Array.isArray(raw) && raw.length > MAX_ACTIONS) {
    errors.add("actions", `may hold at most ${MAX_ACTIONS} actions`, "too_long");
    return null;
  }
  const list = normaliseActions(raw, errors);
  if (!list) return null;
  const refused = list.findIndex((a) => !MACRO_ACTIONS.includes(a.action_name));
  if (refused >= 0) {
    errors.add(`actions[${refused}].action_name`, `a macro may use: ${MACRO_ACTIONS.join(", ")}`, "invalid");
    return null;
  }
  return list;
}
