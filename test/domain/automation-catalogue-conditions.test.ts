// validateRuleInput on conditions: each error names the condition's index; conversation_idle rules
// and their idle_minutes condition.
import { describe, expect, test } from "bun:test";
import { idleMinutesOf, validateRuleInput } from "../../src/domain/automation-catalogue.ts";
import { CREATE, cond, failures, pairs, refundRule, withConditions } from "../helpers/rule-input-fixtures.ts";

describe("validateRuleInput: condition errors carry the condition's index", () => {
  const two = [
    cond("status", "equal_to", ["open"], { query_operator: "and" }),
    cond("priority", "equal_to", ["high"], { query_operator: "or" }),
  ];

  test("unknown attribute_key names the key", () => {
    const [e] = failures(withConditions(...two, cond("not a key!", "equal_to", ["x"])));
    expect(e).toEqual({
      field: "conditions[2].attribute_key",
      message: "Attribute key not a key! is not supported",
      code: "unsupported",
    });
  });

  test("blank attribute_key and filter_operator are required", () => {
    expect(pairs(failures(withConditions(cond("", "equal_to", ["x"]))))).toEqual([
      ["conditions[0].attribute_key", "required"],
    ]);
    expect(pairs(failures(withConditions(cond("status", "", ["open"]))))).toEqual([
      ["conditions[0].filter_operator", "required"],
    ]);
  });

  test("an operator the key does not accept, and an operator that does not exist", () => {
    const [notAllowed] = failures(withConditions(...two, cond("status", "contains", ["op"])));
    expect(notAllowed).toMatchObject({ field: "conditions[2].filter_operator", code: "not_allowed" });
    expect(notAllowed?.message).toContain("status");
    expect(pairs(failures(withConditions(cond("email", "matches", ["x"]))))).toEqual([
      ["conditions[0].filter_operator", "unsupported"],
    ]);
    expect(pairs(failures(withConditions(cond("email", "days_before", [3]))))).toEqual([
      ["conditions[0].filter_operator", "not_allowed"],
    ]);
  });

  test.each([
    ["missing values", cond("content", "contains")],
    ["values not an array", cond("content", "contains", "refund")],
    ["empty values", cond("content", "equal_to", [])],
    ["status name that does not exist", cond("status", "equal_to", ["closed"])],
    ["priority name that does not exist", cond("priority", "not_equal_to", ["critical"])],
    ["message_type given as an integer", cond("message_type", "equal_to", [0])],
    ["id that is not a number", cond("assignee_id", "equal_to", ["abc"])],
    ["id with a fraction", cond("team_id", "equal_to", [1.5])],
    ["blank label title", cond("labels", "equal_to", [" "])],
    ["object as a text value", cond("email", "equal_to", [{ a: 1 }])],
    ["date that is not a date", cond("created_at", "is_greater_than", ["yesterday"])],
    ["comparison without a value", cond("created_at", "is_less_than", [])],
    ["days_before negative", cond("created_at", "days_before", [-1])],
    ["days_before not a number", cond("created_at", "days_before", ["week"])],
    ["custom value that is an object", cond("plan", "equal_to", [{}])],
    ["custom comparison with text", cond("seats", "is_greater_than", ["many"])],
    ["presence check with a non-array", cond("team_id", "is_present", "yes")],
  ])("values: %s", (_label, condition) => {
    expect(pairs(failures(withConditions(condition)))).toEqual([["conditions[0].values", "invalid"]]);
  });

  test.each([
    ["an array", []],
    ["from missing", { to: ["open"] }],
    ["to empty", { from: ["open"], to: [] }],
    ["a status that does not exist", { from: ["open"], to: ["closed"] }],
  ])("attribute_changed values: %s", (_label, values) => {
    const input = {
      ...withConditions(cond("status", "attribute_changed", values)),
      event_name: "conversation_updated",
    };
    expect(pairs(failures(input))).toEqual([["conditions[0].values", "invalid"]]);
  });

  test("attribute_changed only with conversation_updated, and only on conversation keys", () => {
    const changed = cond("status", "attribute_changed", { from: ["open"], to: ["resolved"] });
    const [e] = failures(withConditions(changed));
    expect(e).toMatchObject({ field: "conditions[0].filter_operator", code: "not_allowed" });
    expect(e?.message).toContain("conversation_updated");
    const onContact = {
      ...withConditions(cond("email", "attribute_changed", { from: ["a@b.co"], to: ["c@d.co"] })),
      event_name: "conversation_updated",
    };
    expect(pairs(failures(onContact))).toEqual([["conditions[0].filter_operator", "not_allowed"]]);
  });

  test("query_operator: missing between conditions, not and/or, bad on the last one", () => {
    expect(
      pairs(failures(withConditions(cond("status", "equal_to", ["open"]), cond("priority", "equal_to", ["high"])))),
    ).toEqual([["conditions[0].query_operator", "required"]]);
    expect(
      pairs(
        failures(
          withConditions(
            cond("status", "equal_to", ["open"], { query_operator: "xor" }),
            cond("priority", "equal_to", ["high"]),
          ),
        ),
      ),
    ).toEqual([["conditions[0].query_operator", "invalid"]]);
    expect(pairs(failures(withConditions(cond("status", "equal_to", ["open"], { query_operator: 1 }))))).toEqual([
      ["conditions[0].query_operator", "invalid"],
    ]);
  });

  test("custom_attribute_type must be conversation_attribute or contact_attribute", () => {
    expect(
      pairs(
        failures(withConditions(cond("plan", "equal_to", ["gold"], { custom_attribute_type: "account_attribute" }))),
      ),
    ).toEqual([["conditions[0].custom_attribute_type", "invalid"]]);
    // A built-in key stays built-in whatever custom_attribute_type says.
    expect(
      pairs(
        failures(withConditions(cond("status", "contains", ["o"], { custom_attribute_type: "contact_attribute" }))),
      ),
    ).toEqual([["conditions[0].filter_operator", "not_allowed"]]);
  });
});

describe("conversation_idle rules", () => {
  const idle = (minutes: unknown) => cond("idle_minutes", "is_greater_than", [minutes], { query_operator: "and" });
  const idleRule = (...conditions: unknown[]) => ({ ...refundRule(), event_name: "conversation_idle", conditions });

  test("one idle_minutes condition, alone or with others", () => {
    expect(() => validateRuleInput(idleRule(cond("idle_minutes", "is_greater_than", [30])), CREATE)).not.toThrow();
    const rule = validateRuleInput(idleRule(idle("60"), cond("status", "equal_to", ["open"])), CREATE);
    expect(idleMinutesOf(rule.conditions)).toBe(60);
  });

  test("the idle_minutes condition is required, once", () => {
    expect(pairs(failures(idleRule(cond("status", "equal_to", ["open"]))))).toEqual([["conditions", "required"]]);
    expect(pairs(failures(idleRule(idle(30), cond("idle_minutes", "is_greater_than", [60]))))).toEqual([
      ["conditions[1].attribute_key", "invalid"],
    ]);
  });

  test("idle_minutes: only is_greater_than, only whole positive minutes, only on conversation_idle", () => {
    expect(pairs(failures(idleRule(cond("idle_minutes", "equal_to", [30]))))).toEqual([
      ["conditions[0].filter_operator", "not_allowed"],
    ]);
    for (const bad of [0, -5, 1.5, "soon", 525_601]) {
      expect(pairs(failures(idleRule(cond("idle_minutes", "is_greater_than", [bad]))))).toEqual([
        ["conditions[0].values", "invalid"],
      ]);
    }
    expect(pairs(failures(withConditions(cond("idle_minutes", "is_greater_than", [30]))))).toEqual([
      ["conditions[0].attribute_key", "not_allowed"],
    ]);
  });

  test("idleMinutesOf reads N, or null", () => {
    expect(idleMinutesOf([cond("status", "equal_to", ["open"], { query_operator: "and" }), idle(45)])).toBe(45);
    expect(idleMinutesOf([cond("status", "equal_to", ["open"])])).toBeNull();
    expect(idleMinutesOf("nope")).toBeNull();
  });
});
