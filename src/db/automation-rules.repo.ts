// Automation rules (conditions and actions kept as JSON text) and the idle trigger's memory of which
// conversations a conversation_idle rule has already been evaluated for.
import type { Database } from "bun:sqlite";
import type { ConversationRow } from "./conversations.repo.ts";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface RuleRow {
  id: number;
  account_id: number;
  name: string;
  description: string | null;
  event_name: string;
  conditions: string;
  actions: string;
  active: number;
  failure_count: number;
  last_error: string | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

export type RuleFields = Pick<
  RuleRow,
  | "name"
  | "description"
  | "event_name"
  | "conditions"
  | "actions"
  | "active"
  | "failure_count"
  | "last_error"
  | "disabled_reason"
>;

/** What a run of the rule left behind (see the engine's failure rule). */
export type RuleHealth = Pick<RuleRow, "active" | "failure_count" | "last_error" | "disabled_reason">;

export class AutomationRulesRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly healthStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly listStmt: TwoWayStatement;
  private readonly activeStmt: TwoWayStatement;
  private readonly activeIdleStmt: TwoWayStatement;
  private readonly idleCandidatesStmt: TwoWayStatement;
  private readonly recordIdleStmt: TwoWayStatement;

  constructor(db: Database) {
    const cols = [
      "name",
      "description",
      "event_name",
      "conditions",
      "actions",
      "active",
      "failure_count",
      "last_error",
      "disabled_reason",
    ];
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO automation_rules (account_id, ${cols.join(", ")}, created_at, updated_at)
       VALUES ($account_id, ${cols.map((c) => `$${c}`).join(", ")}, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE automation_rules SET ${cols.map((c) => `${c} = $${c}`).join(", ")}, updated_at = $now WHERE account_id = $account_id AND id = $id`,
    );
    // The engine's bookkeeping leaves updated_at alone: it is about what an administrator changed.
    this.healthStmt = new TwoWayStatement(
      db,
      "UPDATE automation_rules SET active = $active, failure_count = $failure_count, last_error = $last_error, disabled_reason = $disabled_reason WHERE id = $id",
    );
    this.deleteStmt = new TwoWayStatement(
      db,
      "DELETE FROM automation_rules WHERE account_id = $account_id AND id = $id",
    );
    this.byIdStmt = new TwoWayStatement(
      db,
      "SELECT * FROM automation_rules WHERE account_id = $account_id AND id = $id",
    );
    this.listStmt = new TwoWayStatement(
      db,
      "SELECT * FROM automation_rules WHERE account_id = $account_id ORDER BY id",
    );
    this.activeStmt = new TwoWayStatement(
      db,
      "SELECT * FROM automation_rules WHERE account_id = $account_id AND event_name = $event_name AND active = 1 ORDER BY id",
    );
    this.activeIdleStmt = new TwoWayStatement(
      db,
      "SELECT * FROM automation_rules WHERE event_name = 'conversation_idle' AND active = 1 ORDER BY id",
    );
    // Open conversations idle since before the threshold that the rule has not looked at in this idle
    // period (the recorded last_activity_at is the one its own actions left).
    this.idleCandidatesStmt = new TwoWayStatement(
      db,
      `SELECT c.* FROM conversations c
       LEFT JOIN automation_idle_fires f ON f.rule_id = $rule_id AND f.conversation_id = c.id
       WHERE c.account_id = $account_id AND c.status = 'open' AND c.last_activity_at <= $threshold
         AND (f.conversation_id IS NULL OR f.last_activity_at <> c.last_activity_at)
       ORDER BY c.last_activity_at, c.id LIMIT $limit`,
    );
    this.recordIdleStmt = new TwoWayStatement(
      db,
      `INSERT INTO automation_idle_fires (rule_id, conversation_id, last_activity_at, fired_at) VALUES ($rule_id, $conversation_id, $last_activity_at, $now)
       ON CONFLICT (rule_id, conversation_id) DO UPDATE SET last_activity_at = excluded.last_activity_at, fired_at = excluded.fired_at`,
    );
  }

  *insertSteps(accountId: number, f: RuleFields, now: number): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, ...f, now });
  }

  *updateSteps(accountId: number, id: number, f: RuleFields, now: number): Reads<void> {
    yield this.updateStmt.write({ account_id: accountId, id, ...f, now });
  }

  *setHealthSteps(id: number, h: RuleHealth): Reads<void> {
    yield this.healthStmt.write({ id, ...h });
  }

  *deleteSteps(accountId: number, id: number): Reads<void> {
    yield this.deleteStmt.write({ account_id: accountId, id });
  }

  *readById(accountId: number, id: number): Reads<RuleRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as RuleRow | null;
  }

  *readList(accountId: number): Reads<RuleRow[]> {
    return (yield this.listStmt.all({ account_id: accountId })) as RuleRow[];
  }

  *readActive(accountId: number, eventName: string): Reads<RuleRow[]> {
    return (yield this.activeStmt.all({ account_id: accountId, event_name: eventName })) as RuleRow[];
  }

  /** Every active conversation_idle rule, all accounts. */
  *readActiveIdle(): Reads<RuleRow[]> {
    return (yield this.activeIdleStmt.all([])) as RuleRow[];
  }

  *readIdleCandidates(
    rule: Pick<RuleRow, "id" | "account_id">,
    threshold: number,
    limit: number,
  ): Reads<ConversationRow[]> {
    const params = { rule_id: rule.id, account_id: rule.account_id, threshold, limit };
    return (yield this.idleCandidatesStmt.all(params)) as ConversationRow[];
  }

  *recordIdleSteps(ruleId: number, conversationId: number, lastActivityAt: number, now: number): Reads<void> {
    yield this.recordIdleStmt.write({
      rule_id: ruleId,
      conversation_id: conversationId,
      last_activity_at: lastActivityAt,
      now,
    });
  }
}
