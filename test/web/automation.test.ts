// The automation form's rows become the rule the API takes, with the engine's own catalogue.
import { describe, expect, test } from "bun:test";
import { validateRuleInput } from "../../src/domain/automation-catalogue.ts";
import {
  attributesFor,
  humanize,
  newAction,
  newCondition,
  operatorsFor,
  rowsOf,
  ruleBody,
  type AutomationRule,
} from "../../src/web/lib/automation.ts";

describe("the automation form", () => {
  test("offers idle_minutes only for conversation_idle, and no attribute_changed", () => {
    expect(attributesFor("message_created").some((a) => a.key === "idle_minutes")).toBe(false);
    expect(attributesFor("conversation_idle").some((a) => a.key === "idle_minutes")).toBe(true);
    expect(operatorsFor("status")).toEqual(["equal_to", "not_equal_to"]);
    expect(newCondition("conversation_idle")).toEqual({
      attribute_key: "idle_minutes",
      filter_operator: "is_greater_than",
      value: "",
      query_operator: "and",
    });
  });

  test("rows become conditions and actions the engine's validator accepts", () => {
    const body = ruleBody(
      "  VIP first ",
      "",
      "message_created",
      [
        { attribute_key: "labels", filter_operator: "contains", value: "vip, gold ,", query_operator: "or" },
        { attribute_key: "inbox_id", filter_operator: "equal_to", value: "3", query_operator: "and" },
        { attribute_key: "email", filter_operator: "is_present", value: "ignored", query_operator: "and" },
      ],
      [
        { ...newAction(), action_name: "assign_team", value: "" },
        { ...newAction(), action_name: "change_priority", value: "high" },
        { ...newAction(), action_name: "send_email_to_team", value: "2", message: "A VIP wrote" },
        { ...newAction(), action_name: "resolve_conversation", value: "x" },
      ],
    );
    expect(body).toEqual({
      name: "VIP first",
      description: null,
      event_name: "message_created",
      active: true,
      conditions: [
        { attribute_key: "labels", filter_operator: "contains", values: ["vip", "gold"], query_operator: "or" },
        { attribute_key: "inbox_id", filter_operator: "equal_to", values: [3], query_operator: "and" },
        { attribute_key: "email", filter_operator: "is_present", query_operator: null },
      ],
      actions: [
        { action_name: "assign_team", action_params: ["nil"] },
        { action_name: "change_priority", action_params: ["high"] },
        { action_name: "send_email_to_team", action_params: [{ team_ids: [2], message: "A VIP wrote" }] },
        { action_name: "resolve_conversation", action_params: [] },
      ],
    });
    expect(() => validateRuleInput(body, { partial: false })).not.toThrow();
  });

  test("a saved rule becomes the form's rows, and the rows give the same rule back", () => {
    const rule: AutomationRule = {
      id: 4,
      name: "Everything",
      description: "all inputs",
      event_name: "message_created",
      active: false,
      conditions: [
        { attribute_key: "labels", filter_operator: "contains", values: ["vip", "gold"], query_operator: "or" },
        { attribute_key: "inbox_id", filter_operator: "equal_to", values: [3], query_operator: "and" },
        { attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: "and" },
        { attribute_key: "email", filter_operator: "is_present", query_operator: null },
      ],
      actions: [
        { action_name: "add_label", action_params: ["billing", "refund"] },
        { action_name: "assign_agent", action_params: [7] },
        { action_name: "assign_team", action_params: ["nil"] },
        { action_name: "change_priority", action_params: ["nil"] },
        { action_name: "send_email_to_team", action_params: [{ team_ids: [2], message: "A VIP wrote" }] },
        { action_name: "send_email_transcript", action_params: ["a@example.com,b@example.com"] },
        { action_name: "send_message", action_params: ["Thanks!"] },
        { action_name: "resolve_conversation", action_params: [] },
      ],
    };
    const rows = rowsOf(rule);
    expect(rows.conditions.map((c) => [c.value, c.query_operator])).toEqual([
      ["vip, gold", "or"],
      ["3", "and"],
      ["refund", "and"],
      ["", "and"],
    ]);
    expect(rows.actions.map((a) => [a.action_name, a.value, a.message])).toEqual([
      ["add_label", "billing, refund", ""],
      ["assign_agent", "7", ""],
      ["assign_team", "", ""],
      ["change_priority", "", ""],
      ["send_email_to_team", "2", "A VIP wrote"],
      ["send_email_transcript", "a@example.com,b@example.com", ""],
      ["send_message", "Thanks!", ""],
      ["resolve_conversation", "", ""],
    ]);
    const { id: _id, ...expected } = rule;
    expect(
      ruleBody(rule.name, rule.description!, rule.event_name, rows.conditions, rows.actions, rule.active) as unknown,
    ).toEqual(expected);
  });

  test("humanize", () => {
    expect([humanize("assignee_id"), humanize("conversation_created")]).toEqual([
      "Assignee id",
      "Conversation created",
    ]);
  });
});
