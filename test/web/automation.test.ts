// The automation form's rows become the rule the API takes, with the engine's own catalogue.
import { describe, expect, test } from "bun:test";
import { validateRuleInput } from "../../src/domain/automation-catalogue.ts";
import { attributesFor, humanize, newAction, newCondition, operatorsFor, ruleBody } from "../../src/web/lib/automation.ts";

describe("the automation form", () => {
  test("offers idle_minutes only for conversation_idle, and no attribute_changed", () => {
    expect(attributesFor("message_created").some((a) => a.key === "idle_minutes")).toBe(false);
    expect(attributesFor("conversation_idle").some((a) => a.key === "idle_minutes")).toBe(true);
    expect(operatorsFor("status")).toEqual(["equal_to", "not_equal_to"]);
    expect(newCondition("conversation_idle")).toEqual({ attribute_key: "idle_minutes", filter_operator: "is_greater_than", value: "", query_operator: "and" });
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

  test("humanize", () => {
    expect([humanize("assignee_id"), humanize("conversation_created")]).toEqual(["Assignee id", "Conversation created"]);
  });
});
