// Automation rules: CRUD and clone (administrators), the compiled active rules the engine reads
// (cached per account and event, dropped on every change), and the engine's failure bookkeeping.
import type { AccountLabelsRepo } from "../db/account-labels.repo.ts";
import type { AutomationRulesRepo, RuleFields, RuleRow } from "../db/automation-rules.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import {
  validateRuleInput,
  type AutomationAction,
  type NormalisedRule,
  type RuleInput,
} from "./automation-catalogue.ts";
import { compileConditions, type CompiledConditions } from "./automation-match.ts";
import { readReferenceProblems, renameLabelIn } from "./automation-references.ts";
import { requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { readRecordAt } from "./path-record.ts";

/** What an unknown rule's 404 names. docs/compatibility.md #12: Chatwoot answers 500; we answer 404. */
const RULE = "Automation rule";

/** Consecutive failing runs after which the engine switches a rule off. */
export const MAX_CONSECUTIVE_FAILURES = 3;

export interface CompiledRule {
  row: RuleRow;
  conditions: CompiledConditions;
  actions: AutomationAction[];
}

export interface AutomationRulesDeps {
  automationRules: AutomationRulesRepo;
  accountLabels: AccountLabelsRepo;
  conversationRefs: ConversationRefsRepo;
  writeTx: WriteTx;
  clock: Clock;
}

export class AutomationRulesService {
  private readonly cache = new Map<number, Map<string, CompiledRule[]>>();
  /** Moves at every change of any account's rules: a read begun before one is not kept. */
  private generation = 0;
  private tellOthers: ((accountId: number) => Reads<void>) | null = null;

  constructor(private readonly d: AutomationRulesDeps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(p: AccountPrincipal): RuleRow[] | Promise<RuleRow[]> {
    requireAdministrator(p);
    return readSoon(this.d.automationRules.readList(p.account.id));
  }

  /** Read-only, as list(); the writes find their rule in their body (readFind). */
  get(p: AccountPrincipal, rawId: unknown): RuleRow | Promise<RuleRow> {
    requireAdministrator(p);
    const { automationRules } = this.d;
    return readSoon(readRecordAt(RULE, rawId, (id) => automationRules.readById(p.account.id, id)));
  }

  async create(p: AccountPrincipal, input: RuleInput): Promise<RuleRow> {
    requireAdministrator(p);
    const rule = validateRuleInput(input, { partial: false });
    const self = this;
    return this.committed(p.account.id, function* () {
      (yield* readReferenceProblems(self.d, p.account.id, rule.actions)).throwIfAny();
      return yield* self.insertSteps(p.account.id, fieldsOf(rule));
    });
  }

  /** Only the fields sent change; conditions and actions are replaced whole when sent. */
  async update(p: AccountPrincipal, rawId: unknown, input: RuleInput): Promise<RuleRow> {
    requireAdministrator(p);
    const { automationRules, clock } = this.d;
    const self = this;
    return this.committed(p.account.id, function* () {
      const current = yield* self.readFind(p.account.id, rawId);
      const patch = validateRuleInput(input, {
        partial: true,
        current: { event_name: current.event_name, conditions: JSON.parse(current.conditions) },
      });
      if (patch.actions) (yield* readReferenceProblems(self.d, p.account.id, patch.actions)).throwIfAny();
      const next: RuleFields = {
        ...fieldsFrom(current),
        name: patch.name ?? current.name,
        description: patch.description !== undefined ? patch.description : current.description,
        event_name: patch.event_name ?? current.event_name,
        conditions: patch.conditions ? JSON.stringify(patch.conditions) : current.conditions,
        actions: patch.actions ? JSON.stringify(patch.actions) : current.actions,
        active: patch.active === undefined ? current.active : patch.active ? 1 : 0,
      };
      // A rule that was switched on again or changed starts with a clean record.
      if (patch.active === true || patch.conditions || patch.actions || patch.event_name) {
        next.failure_count = 0;
        next.disabled_reason = null;
      }
      yield* automationRules.updateSteps(p.account.id, current.id, next, unixSeconds(clock));
      yield* self.invalidateSteps(p.account.id);
      return (yield* automationRules.readById(p.account.id, current.id))!;
    });
  }

  async delete(p: AccountPrincipal, rawId: unknown): Promise<void> {
    requireAdministrator(p);
    const { automationRules } = this.d;
    const self = this;
    await this.committed(p.account.id, function* () {
      yield* automationRules.deleteSteps(p.account.id, (yield* self.readFind(p.account.id, rawId)).id);
      yield* self.invalidateSteps(p.account.id);
    });
  }

  /** A copy with the same name, conditions, actions and state, and a clean failure record. */
  async clone(p: AccountPrincipal, rawId: unknown): Promise<RuleRow> {
    requireAdministrator(p);
    const self = this;
    return this.committed(p.account.id, function* () {
      const source = yield* self.readFind(p.account.id, rawId);
      return yield* self.insertSteps(p.account.id, {
        ...fieldsFrom(source),
        failure_count: 0,
        last_error: null,
        disabled_reason: null,
      });
    });
  }

  /**
   * The account's active rules for an event, conditions compiled once per change of the rules: kept
   * ones in place, else a read (on PostgreSQL's read pool) whose answer is kept only if no change of
   * any account's rules came while it was under way.
   */
  activeFor(accountId: number, eventName: string): CompiledRule[] | Promise<CompiledRule[]> {
    const kept = this.cache.get(accountId)?.get(eventName);
    if (kept) return kept;
    const generation = this.generation;
    const keep = (rows: RuleRow[]) => {
      const rules = rows.map(compiled);
      if (generation !== this.generation) return rules;
      let byEvent = this.cache.get(accountId);
      if (!byEvent) {
        byEvent = new Map();
        this.cache.set(accountId, byEvent);
      }
      byEvent.set(eventName, rules);
      return rules;
    };
    const rows = readSoon(this.d.automationRules.readActive(accountId, eventName));
    return rows instanceof Promise ? rows.then(keep) : keep(rows);
  }

  /** Every active conversation_idle rule (the idle job reads them once a minute; no cache needed). */
  async activeIdle(): Promise<CompiledRule[]> {
    return (await readSoon(this.d.automationRules.readActiveIdle())).map(compiled);
  }

  /**
   * Records a run: a clean one (error null) clears the failure count; a failing one counts, and the
   * MAX_CONSECUTIVE_FAILURES-th in a row switches the rule off with the reason.
   */
  async recordRun(rule: Pick<RuleRow, "id" | "account_id">, error: string | null): Promise<void> {
    // A clean run of a rule with no failures to clear changes nothing: a read (on PostgreSQL's read
    // pool), no transaction. Only the process holding the lease runs rules, so nothing records a
    // failure between this read and the return.
    if (error === null) {
      const current = await readSoon(this.d.automationRules.readById(rule.account_id, rule.id));
      if (!current || current.failure_count === 0) return;
    }
    const { automationRules } = this.d;
    const self = this;
    await this.committed(rule.account_id, function* () {
      const fresh = yield* automationRules.readById(rule.account_id, rule.id);
      if (!fresh) return;
      if (error === null) {
        if (fresh.failure_count === 0) return;
        yield* automationRules.setHealthSteps(fresh.id, {
          active: fresh.active,
          failure_count: 0,
          last_error: fresh.last_error,
          disabled_reason: fresh.disabled_reason,
        });
      } else {
        const failures = fresh.failure_count + 1;
        const off = failures >= MAX_CONSECUTIVE_FAILURES && fresh.active === 1;
        yield* automationRules.setHealthSteps(fresh.id, {
          active: off ? 0 : fresh.active,
          failure_count: failures,
          last_error: error,
          disabled_reason: off
            ? `switched off after ${failures} consecutive failed runs; last error: ${error}`
            : fresh.disabled_reason,
        });
      }
      yield* self.invalidateSteps(rule.account_id);
    });
  }

  /** A label was renamed: steps of the renaming body, in which the rules naming the old title follow. */
  *renameLabelSteps(accountId: number, from: string, to: string): Reads<void> {
    const now = unixSeconds(this.d.clock);
    for (const rule of yield* this.d.automationRules.readList(accountId)) {
      const renamed = renameLabelIn(rule, from, to);
      if (renamed)
        yield* this.d.automationRules.updateSteps(accountId, rule.id, { ...fieldsFrom(rule), ...renamed }, now);
    }
    yield* this.invalidateSteps(accountId);
  }

  private *insertSteps(accountId: number, fields: RuleFields): Reads<RuleRow> {
    const id = yield* this.d.automationRules.insertSteps(accountId, fields, unixSeconds(this.d.clock));
    yield* this.invalidateSteps(accountId);
    return (yield* this.d.automationRules.readById(accountId, id))!;
  }

  /**
   * Several processes on PostgreSQL (src/deps/other-processes.ts): each change is told to the others
   * by a step of its body, so they hear of it once it commits. A failure to tell undoes the change:
   * the process running the automations would otherwise go on with the rules it compiled before.
   */
  shareChanges(tell: (accountId: number) => Reads<void>): void {
    this.tellOthers = tell;
  }

  /** Another process changed this account's rules (or this one's change committed): compile them again. */
  forget(accountId: number): void {
    this.cache.delete(accountId);
    this.generation++;
  }

  /**
   * A change of the account's rules, as a step of its body. The rules are dropped at once and again
   * once the body has committed (committed(); a label's rename: LabelsDeps.onRenamed): a read on the
   * read pool begun before the commit saw the rules as they were, and what it kept is dropped.
   */
  private *invalidateSteps(accountId: number): Reads<void> {
    this.forget(accountId);
    if (this.tellOthers) yield* this.tellOthers(accountId);
  }

  /** A body changing the account's rules, awaited; the rules are forgotten again once it committed. */
  private async committed<T>(accountId: number, make: () => Reads<T>): Promise<T> {
    const result = await this.d.writeTx.steps(make);
    this.forget(accountId);
    return result;
  }

  private readFind(accountId: number, rawId: unknown): Reads<RuleRow> {
    return readRecordAt(RULE, rawId, (id) => this.d.automationRules.readById(accountId, id));
  }
}

function fieldsOf(rule: NormalisedRule): RuleFields {
  return {
    name: rule.name,
    description: rule.description,
    event_name: rule.event_name,
    conditions: JSON.stringify(rule.conditions),
    actions: JSON.stringify(rule.actions),
    active: rule.active ? 1 : 0,
    failure_count: 0,
    last_error: null,
    disabled_reason: null,
  };
}

function fieldsFrom(r: RuleRow): RuleFields {
  const { name, description, event_name, conditions, actions, active, failure_count, last_error, disabled_reason } = r;
  return { name, description, event_name, conditions, actions, active, failure_count, last_error, disabled_reason };
}

function compiled(row: RuleRow): CompiledRule {
  return {
    row,
    conditions: compileConditions(JSON.parse(row.conditions)),
    actions: JSON.parse(row.actions) as AutomationAction[],
  };
}
