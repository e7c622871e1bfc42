// What a rule's actions name in the account: agents, teams, labels, a webhook URL. The catalogue
// checks shapes; these checks need the account's records, so they run when the rule is saved, and
// an action naming something missing is a 422 naming it (Chatwoot finds out only when the rule runs).
// Labels a rule adds must be label records (a typo would otherwise tag conversations with a label
// nobody defined); labels a rule removes, like conversations' labels, are free-form titles.
import type { AccountLabelsRepo } from "../db/account-labels.repo.ts";
import type { RuleRow } from "../db/automation-rules.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { Reads } from "../db/reads.ts";
import { validateWebhookUrl } from "./webhook-url.ts";
import { toInteger, type AutomationAction } from "./automation-catalogue.ts";
import { FieldErrors, ValidationError } from "./errors.ts";

export interface ReferenceRepos {
  accountLabels: AccountLabelsRepo;
  conversationRefs: ConversationRefsRepo;
}

const positive = (v: unknown): number | null => {
  const n = toInteger(v);
  return n !== null && n > 0 ? n : null;
};

/** Steps of the saving body: what is checked is read in the same transaction as the save. */
export function* readReferenceProblems(
  r: ReferenceRepos,
  accountId: number,
  actions: readonly AutomationAction[],
): Reads<FieldErrors> {
  const errors = new FieldErrors();
  function* missingTeams(ids: number[]): Reads<number[]> {
    const missing: number[] = [];
    for (const id of ids) if ((yield* r.conversationRefs.readTeam(accountId, id)) === null) missing.push(id);
    return missing;
  }
  for (const [i, action] of actions.entries()) {
    const at = `actions[${i}].action_params`;
    const params = action.action_params;
    switch (action.action_name) {
      case "assign_agent": {
        const id = positive(params[0]);
        if (id !== null && !(yield* r.conversationRefs.readMembers(accountId, [id])).get(id)?.membership)
          errors.add(at, `no agent ${id} in this account`, "not_found");
        break;
      }
      case "assign_team": {
        const id = positive(params[0]);
        if (id !== null && (yield* missingTeams([id])).length)
          errors.add(at, `no team ${id} in this account`, "not_found");
        break;
      }
      case "send_email_to_team": {
        const ids = (params[0] as { team_ids: unknown[] }).team_ids
          .map(positive)
          .filter((id): id is number => id !== null);
        const missing = yield* missingTeams(ids);
        if (missing.length) errors.add(at, `no team ${missing.join(", ")} in this account`, "not_found");
        break;
      }
      case "add_label": {
        const missing: string[] = [];
        for (const t of params as string[])
          if ((yield* r.accountLabels.readByTitle(accountId, t.trim().toLowerCase())) === null) missing.push(t);
        if (missing.length)
          errors.add(at, `no label ${missing.join(", ")} in this account (create it first)`, "not_found");
        break;
      }
      case "send_webhook_event":
        try {
          validateWebhookUrl(params[0], at);
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e;
          for (const item of e.errors) errors.add(item.field, item.message, item.code);
        }
        break;
      case "send_attachment":
        errors.add(
          `actions[${i}].action_name`,
          "send_attachment is not supported: Parley stores no attachment files",
          "unsupported",
        );
        break;
    }
  }
  return errors;
}

const sameTitle = (v: unknown, title: string): boolean => typeof v === "string" && v.trim().toLowerCase() === title;

/** The rule's conditions and actions with a renamed label's title replaced; null when it names none. */
export function renameLabelIn(
  rule: Pick<RuleRow, "conditions" | "actions">,
  from: string,
  to: string,
): Pick<RuleRow, "conditions" | "actions"> | null {
  let changed = false;
  const swap = (list: unknown[]) =>
    list.map((v) => {
      if (!sameTitle(v, from)) return v;
      changed = true;
      return to;
    });
  const conditions = (JSON.parse(rule.conditions) as Record<string, unknown>[]).map((c) =>
    c.attribute_key === "labels" && Array.isArray(c.values) ? { ...c, values: swap(c.values) } : c,
  );
  const actions = (JSON.parse(rule.actions) as AutomationAction[]).map((a) =>
    a.action_name === "add_label" || a.action_name === "remove_label"
      ? { ...a, action_params: swap(a.action_params) }
      : a,
  );
  return changed ? { conditions: JSON.stringify(conditions), actions: JSON.stringify(actions) } : null;
}
