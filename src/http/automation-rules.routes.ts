// /api/v1/accounts/:account_id/automation_rules — administrators only (agents 403). Wrappers as
// Chatwoot answers them: create gives the bare rule, show/update/clone give {payload: rule}, the list
// {payload: [rule]}.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { AUTOMATION_ACTIONS } from "../shared/automation-actions.ts";
import { CUSTOM_ATTRIBUTE_TYPES, FILTER_OPERATORS } from "../shared/automation-conditions.ts";
import { AUTOMATION_EVENTS } from "../shared/automation-events.ts";
import { ruleOf } from "../domain/presenters/automation-rule.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Attributes, Checked, errorResponses, Integer, JsonValue, Nullable } from "./schemas.ts";

const Rule = t.Object({
  id: Integer(),
  account_id: Integer(),
  name: t.String(),
  description: Nullable(t.String()),
  event_name: t.String({
    description:
      "conversation_created, conversation_updated, conversation_opened, conversation_resolved, message_created, conversation_idle",
  }),
  conditions: t.Array(Attributes, {
    description: "{attribute_key, filter_operator, values, query_operator, custom_attribute_type?}",
  }),
  actions: t.Array(Attributes, { description: "{action_name, action_params}" }),
  created_on: Integer({ description: "Unix seconds" }),
  active: t.Boolean(),
  failure_count: Integer({ description: "consecutive failing runs; the rule is switched off at 3" }),
  last_error: Nullable(t.String()),
  disabled_reason: Nullable(t.String({ description: "why the engine switched the rule off" })),
});

const ConditionDoc = t.Object(
  {
    attribute_key: t.String({ description: "a built-in attribute (status, labels, …) or a custom attribute key" }),
    filter_operator: t.String({ enum: [...FILTER_OPERATORS] }),
    values: t.Optional(
      t.Union([t.Array(JsonValue), t.Object({ from: t.Array(JsonValue), to: t.Array(JsonValue) })], {
        description: "an array; {from, to} for attribute_changed; absent for presence checks",
      }),
    ),
    query_operator: t.Optional(
      Nullable(t.String({ enum: ["and", "or"], description: "joins to the next condition; required between" })),
    ),
    custom_attribute_type: t.Optional(
      Nullable(
        t.String({
          description: `${CUSTOM_ATTRIBUTE_TYPES.join(" or ")} for a custom attribute key; ignored for built-in keys`,
        }),
      ),
    ),
  },
  { additionalProperties: JsonValue },
);

const ActionDoc = t.Object({
  action_name: t.String({ enum: [...AUTOMATION_ACTIONS] }),
  action_params: t.Optional(t.Array(JsonValue, { description: "what the action needs; [] when absent" })),
});

// Unchecked here: validateRuleInput checks every field and names each problem.
const RuleBody = t.Object({
  name: t.Optional(Checked(t.String({ minLength: 1 }))),
  description: t.Optional(Checked(Nullable(t.String()))),
  event_name: t.Optional(Checked(t.String({ enum: [...AUTOMATION_EVENTS] }))),
  conditions: t.Optional(Checked(t.Array(ConditionDoc, { minItems: 1 }))),
  actions: t.Optional(Checked(t.Array(ActionDoc, { minItems: 1 }))),
  active: t.Optional(
    Checked(t.Union([t.Boolean(), t.String({ enum: ["true", "false"] })], { description: "default true" })),
  ),
});

const RuleParams = t.Object({ account_id: t.String(), id: t.String() });
const Wrapped = t.Object({ payload: Rule });
const tags = ["automation rules"];

export function automationRuleRoutes(d: Deps) {
  const rules = d.services.automationRules;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/automation_rules" })
    .use(accountScope(d.services.auth))
    .get("", ({ principal }) => whenReady(rules.list(principal), (rows) => ({ payload: rows.map(ruleOf) })), {
      admin: true,
      params: AccountParams,
      response: { 200: t.Object({ payload: t.Array(Rule) }), ...errorResponses },
      detail: { tags, summary: "List the account's automation rules" },
    })
    .post("", async ({ principal, body }) => ruleOf(await rules.create(principal, body)), {
      admin: true,
      params: AccountParams,
      ...bodyOf(RuleBody, "automation_rule"),
      response: { 200: Rule, ...errorResponses },
      detail: { tags, summary: "Create a rule; answers the bare rule (as Chatwoot does)" },
    })
    .get(
      "/:id",
      ({ principal, params }) => whenReady(rules.get(principal, params.id), (r) => ({ payload: ruleOf(r) })),
      {
        admin: true,
        params: RuleParams,
        response: { 200: Wrapped, ...errorResponses },
        detail: { tags, summary: "Show a rule; an unknown id is 404" },
      },
    )
    .patch(
      "/:id",
      async ({ principal, params, body }) => ({ payload: ruleOf(await rules.update(principal, params.id, body)) }),
      {
        admin: true,
        params: RuleParams,
        ...bodyOf(RuleBody, "automation_rule"),
        response: { 200: Wrapped, ...errorResponses },
        detail: { tags, summary: "Update a rule; conditions and actions are replaced only when sent" },
      },
    )
    .delete(
      "/:id",
      async ({ principal, params }) => (await rules.delete(principal, params.id), new Response(null, { status: 200 })),
      {
        admin: true,
        params: RuleParams,
        response: { 200: t.Void(), ...errorResponses },
        detail: { tags, summary: "Delete a rule" },
      },
    )
    .post(
      "/:id/clone",
      async ({ principal, params }) => ({ payload: ruleOf(await rules.clone(principal, params.id)) }),
      {
        admin: true,
        params: RuleParams,
        response: { 200: Wrapped, ...errorResponses },
        detail: { tags, summary: "Copy a rule" },
      },
    );
}
