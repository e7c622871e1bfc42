// The automation engine: for an event (from the bus, after commit, off the request path) or an idle
// conversation (from the scheduler), evaluates the account's active rules for that event over the
// conversation as it is now, and runs the matching rules' actions in order, each in its own try.
// A run that cannot evaluate the conditions, or in which an action failed, counts against the rule;
// the rules service switches it off after MAX_CONSECUTIVE_FAILURES such runs in a row.
// On PostgreSQL what it reads (the conversation, its message, contact and labels, the rule) is
// awaited on the read pool: committed rows, which is all it acts on, since it runs after the commit
// and each action commits before the next rule reads again. Each action is an awaited body.
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { ConversationRow, ConversationsRepo } from "../db/conversations.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import type { MessageRow, MessagesRepo } from "../db/messages.repo.ts";
import type { AutomationRulesRepo } from "../db/automation-rules.repo.ts";
import { all, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { StoredEvent } from "../shared/event-types.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { actingAsAutomation } from "./acting.ts";
import { idleMinutesOf, type AutomationEvent } from "./automation-catalogue.ts";
import type { AutomationExecutor } from "./automation-executor.ts";
import { factsOf, flattenChanges, type ChangeMap } from "./automation-facts.ts";
import type { Facts } from "./automation-match.ts";
import type { AutomationRulesService, CompiledRule } from "./automation-rules.service.ts";
import { AppError } from "./errors.ts";

/** The events rules react to (conversation_idle comes from the scheduler, not from events). */
export const TRIGGER_KINDS: ReadonlySet<string> = new Set<AutomationEvent>([
  "conversation_created",
  "conversation_updated",
  "conversation_opened",
  "conversation_resolved",
  "message_created",
]);

/** Idle conversations looked at per rule and scheduler run; the rest wait for the next minute. */
export const IDLE_BATCH = 500;

export interface EngineDeps {
  conversations: ConversationsRepo;
  contacts: ContactsRepo;
  messages: MessagesRepo;
  labels: LabelsRepo;
  conversationRefs: ConversationRefsRepo;
  automationRules: AutomationRulesRepo;
  rules: AutomationRulesService;
  executor: AutomationExecutor;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  /**
   * PostgreSQL: its reads are awaited on the read pool. SQLite: they run in place as plain statement
   * calls, as before (the same reads driven as generators cost the drain ~20 % more a message).
   */
  pooled: boolean;
}

interface Trigger {
  eventName: string;
  eventId: number;
  message: MessageRow | null;
  changed?: ChangeMap;
}

/** A service's refusal reads best as its field messages ("no team 3 in this account"). */
const errorText = (e: unknown): string => {
  if (e instanceof AppError && e.errors.length) return e.errors.map((x) => x.message).join(", ");
  return e instanceof Error ? e.message : String(e);
};

export class AutomationEngine {
  constructor(private readonly d: EngineDeps) {}

  /**
   * The bus listener's work for one event. Events caused by automation never trigger automation
   * (chatwoot-behaviour.md §9.5): that is what keeps a rule from triggering itself or another rule.
   */
  async handle(e: StoredEvent): Promise<void> {
    if (!TRIGGER_KINDS.has(e.kind) || e.actor.type === "automation" || e.conversationId === null) return;
    const found = this.d.rules.activeFor(e.accountId, e.kind);
    // Kept rules answer in place: an account without rules for the kind costs no await.
    const rules = found instanceof Promise ? await found : found;
    if (rules.length === 0) return;
    const conversations = this.d.conversations;
    const conversation = this.d.pooled
      ? await readSoon(conversations.readById(e.conversationId))
      : conversations.byId(e.conversationId);
    if (!conversation || conversation.account_id !== e.accountId) return;
    let message: MessageRow | null = null;
    if (e.kind === "message_created") {
      // Activity messages ("… was resolved by …") are the system talking, not a message (Chatwoot).
      if (e.payload.message_type === "activity" || typeof e.payload.id !== "number") return;
      const messages = this.d.messages;
      message = this.d.pooled
        ? await readSoon(messages.readById(conversation.id, e.payload.id))
        : messages.byId(conversation.id, e.payload.id);
      if (!message) return;
    }
    // Chatwoot skips these for conversations an auto-reply opened (a mail server's out-of-office).
    if ((e.kind === "conversation_created" || e.kind === "conversation_opened") && isAutoReply(conversation)) return;
    const changed = e.kind === "conversation_updated" ? flattenChanges(e.payload.changed_attributes) : undefined;
    await this.runRules(rules, conversation.id, { eventName: e.kind, eventId: e.id, message, changed });
  }

  /**
   * The scheduler's conversation_idle pass: open conversations with no activity for more than the
   * rule's idle_minutes are evaluated once per idle period. The period's mark is the conversation's
   * last_activity_at after the rule's own actions, so a rule that writes a message (which moves the
   * activity) does not start a new period for itself. Yields between conversations.
   */
  async runIdle(batch = IDLE_BATCH): Promise<number> {
    let looked = 0;
    for (const rule of await this.d.rules.activeIdle()) {
      const minutes = idleMinutesOf(JSON.parse(rule.row.conditions));
      if (minutes === null) {
        await this.d.rules.recordRun(rule.row, "conditions: no usable idle_minutes condition");
        continue;
      }
      const now = unixSeconds(this.d.clock);
      // idle_minutes counts whole minutes, so "more than N" starts at N + 1 whole minutes.
      const threshold = now - (minutes + 1) * 60;
      const candidates = await readSoon(this.d.automationRules.readIdleCandidates(rule.row, threshold, batch));
      for (const conversation of candidates) {
        if (!(await this.stillActive(rule))) break;
        // Read again: a message may have arrived while this pass yielded, starting a new period.
        const current = await readSoon(this.d.conversations.readById(conversation.id));
        if (current?.status !== "open" || current.last_activity_at !== conversation.last_activity_at) continue;
        await this.runRules([rule], conversation.id, { eventName: "conversation_idle", eventId: 0, message: null });
        const after = await readSoon(this.d.conversations.readById(conversation.id));
        if (after)
          await this.d.writeTx.steps(() =>
            this.d.automationRules.recordIdleSteps(rule.row.id, after.id, after.last_activity_at, now),
          );
        looked++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return looked;
  }

  private async stillActive(rule: CompiledRule): Promise<boolean> {
    return (await readSoon(this.d.automationRules.readById(rule.row.account_id, rule.row.id)))?.active === 1;
  }

  /** Each action in a transaction of its own (a failed one undone whole, the others kept); the rule's record after them. */
  private async runRules(rules: readonly CompiledRule[], conversationId: number, trigger: Trigger): Promise<void> {
    const refs = this.d.conversationRefs;
    const accountId = rules[0]!.row.account_id;
    const account = this.d.pooled ? await readSoon(refs.readAccountRef(accountId)) : refs.accountRef(accountId);
    if (!account) return;
    // Read once, and again only after a rule acted: the next rule sees what the earlier ones did.
    let facts: Facts | null = null;
    for (const rule of rules) {
      const { row } = rule;
      if (!rule.conditions.ok) {
        await this.d.rules.recordRun(row, `conditions: ${rule.conditions.error}`);
        continue;
      }
      facts ??= this.d.pooled
        ? await readSoon(this.readFacts(conversationId, trigger))
        : this.facts(conversationId, trigger);
      if (!facts) return;
      let matched: boolean;
      try {
        matched = rule.conditions.test(facts);
      } catch (e) {
        await this.d.rules.recordRun(row, `conditions: ${errorText(e)}`);
        continue;
      }
      if (!matched) continue;
      facts = null;
      const acting = actingAsAutomation(account, row.id);
      const failures: string[] = [];
      for (const action of rule.actions) {
        try {
          await this.d.writeTx.steps(() =>
            this.d.executor.runSteps(acting, conversationId, action, {
              eventName: trigger.eventName,
              eventId: trigger.eventId,
              ruleName: row.name,
            }),
          );
        } catch (e) {
          failures.push(`${action.action_name}: ${errorText(e)}`);
        }
      }
      if (failures.length)
        this.d.logger.warn("automation rule actions failed", {
          rule_id: row.id,
          conversation_id: conversationId,
          errors: failures,
        });
      await this.d.rules.recordRun(row, failures.length ? failures.join("; ") : null);
    }
  }

  /** readFacts in place, with plain statement calls (SQLite). */
  private facts(conversationId: number, trigger: Trigger): Facts | null {
    const conversation = this.d.conversations.byId(conversationId);
    const contact = conversation && this.d.contacts.byId(conversation.account_id, conversation.contact_id);
    if (!conversation || !contact) return null;
    const labels = this.d.labels.titles("conversation", conversation.id);
    return factsOf(conversation, contact, labels, trigger.message, trigger.changed, unixSeconds(this.d.clock));
  }

  /** The conversation, its contact and labels as they are now; null when the conversation is gone. */
  private *readFacts(conversationId: number, trigger: Trigger): Reads<Facts | null> {
    const conversation = yield* nested(this.d.conversations.readById(conversationId));
    if (!conversation) return null;
    const [contact, labels] = yield* all(
      this.d.contacts.readById(conversation.account_id, conversation.contact_id),
      this.d.labels.readTitles("conversation", conversation.id),
    );
    if (!contact) return null;
    return factsOf(conversation, contact, labels, trigger.message, trigger.changed, unixSeconds(this.d.clock));
  }
}

function isAutoReply(c: ConversationRow): boolean {
  const attrs = JSON.parse(c.additional_attributes) as Record<string, unknown>;
  return attrs.auto_reply === true || attrs.auto_reply === "true";
}
