// The automation catalogue's contents, and validateRuleInput on whole rules: valid creates,
// rule-level errors and partial updates (conditions and actions have their own files).
import { describe, expect, test } from "bun:test";
import {
  AUTOMATION_ACTIONS,
  AUTOMATION_EVENTS,
  BUILT_IN_ATTRIBUTES,
  validateRuleInput,
} from "../../src/domain/automation-catalogue.ts";
import {
  CREATE,
  cond,
  failures,
  PATCH,
  pairs,
  refundRule,
  withActions,
  withConditions,
} from "../helpers/rule-input-fixtures.ts";

describe("catalogue contents", () => {
  test("the six events, Chatwoot's five plus conversation_idle", () => {
    expect([...AUTOMATION_EVENTS]).toEqual([
      "conversation_created",
      "conversation_updated",
      "conversation_opened",
      "conversation_resolved",
      "message_created",
      "conversation_idle",
    ]);
  });

  test("every built-in key the brief lists is in the attribute catalogue", () => {
    const keys =
      "status priority inbox_id team_id assignee_id labels browser_language conversation_language referer mail_subject country_code city company email phone_number name identifier message_type content created_at last_activity_at";
    for (const key of keys.split(" ")) expect(BUILT_IN_ATTRIBUTES.has(key)).toBe(true);
    expect(BUILT_IN_ATTRIBUTES.get("status")?.enumValues).toEqual(["open", "resolved", "pending", "snoozed"]);
    expect(BUILT_IN_ATTRIBUTES.get("content")?.source).toBe("message");
    expect(BUILT_IN_ATTRIBUTES.get("city")?.source).toBe("contact");
  });

  test("sixteen actions", () => {
    expect(AUTOMATION_ACTIONS.length).toBe(16);
  });
});

describe("validateRuleInput: a valid create", () => {
  test("the spec's example rule comes back as submitted, with defaults", () => {
    const rule = validateRuleInput(refundRule(), { partial: false });
    expect(rule as unknown).toEqual({ ...refundRule(), active: true });
  });

  test("description defaults to null, active is kept, form-style 'false' is read as false", () => {
    const { description: _omit, ...rest } = refundRule();
    expect(validateRuleInput({ ...rest, active: false }, { partial: false }).description).toBeNull();
    expect(validateRuleInput({ ...rest, active: "false" }, { partial: false }).active).toBe(false);
  });

  test("query_operator is lower-cased; on the last condition it is dropped to null", () => {
    const rule = validateRuleInput(
      withConditions(
        cond("status", "equal_to", ["open"], { query_operator: "AND" }),
        cond("priority", "equal_to", ["high"], { query_operator: "Or" }),
        cond("content", "contains", ["refund"], { query_operator: "AND" }),
      ),
      { partial: false },
    );
    expect(rule.conditions.map((c) => c.query_operator)).toEqual(["and", "or", null]);
  });

  test("an empty trailing query_operator becomes null; an absent one stays absent; other keys are kept", () => {
    const empty = validateRuleInput(
      withConditions(cond("status", "equal_to", ["open"], { query_operator: "" })),
      CREATE,
    );
    expect(empty.conditions?.[0]).toEqual({
      attribute_key: "status",
      filter_operator: "equal_to",
      values: ["open"],
      query_operator: null,
    });
    const absent = validateRuleInput(
      withConditions(cond("status", "equal_to", ["open"], { custom_attribute_type: "" })),
      CREATE,
    );
    expect(absent.conditions?.[0]).toEqual({
      attribute_key: "status",
      filter_operator: "equal_to",
      values: ["open"],
      custom_attribute_type: "",
    });
  });

  test("missing action_params of a no-parameter action become []", () => {
    const rule = validateRuleInput(withActions({ action_name: "resolve_conversation" }), CREATE);
    expect(rule.actions?.[0]).toEqual({ action_name: "resolve_conversation", action_params: [] });
  });

  test("presence checks need no values", () => {
    expect(() => validateRuleInput(withConditions(cond("team_id", "is_present")), CREATE)).not.toThrow();
    expect(() => validateRuleInput(withConditions(cond("team_id", "is_not_present", [])), CREATE)).not.toThrow();
  });

  test("ids may be numbers or digit strings; dates ISO or unix seconds", () => {
    for (const c of [
      cond("assignee_id", "equal_to", [5, "6"]),
      cond("created_at", "is_greater_than", ["2024-01-01T10:00:00Z"]),
      cond("last_activity_at", "is_less_than", [1_700_000_000]),
      cond("created_at", "days_before", ["3"]),
    ]) {
      expect(() => validateRuleInput(withConditions(c), CREATE)).not.toThrow();
    }
  });

  test("custom attributes: any key of letters, digits and _, of the conversation or the contact, every operator", () => {
    for (const c of [
      cond("plan_tier", "contains", ["gold"]),
      cond("plan_tier", "starts_with", ["go"], { custom_attribute_type: "conversation_attribute" }),
      cond("signup", "days_before", [30], { custom_attribute_type: "contact_attribute" }),
      cond("seats", "is_greater_than", [10], { custom_attribute_type: "contact_attribute" }),
      cond("vip", "equal_to", [true]),
    ]) {
      expect(() => validateRuleInput(withConditions(c), CREATE)).not.toThrow();
    }
  });

  test("attribute_changed on conversation_updated with {from, to}", () => {
    const rule = validateRuleInput(
      {
        ...withConditions(cond("status", "attribute_changed", { from: ["open"], to: ["resolved"] })),
        event_name: "conversation_updated",
      },
      CREATE,
    );
    expect(rule.conditions?.[0]?.values).toEqual({ from: ["open"], to: ["resolved"] });
  });
});

describe("validateRuleInput: rule-level errors", () => {
  test("name: missing, blank, not a string", () => {
    const { name: _n, ...noName } = refundRule();
    expect(pairs(failures(noName))).toEqual([["name", "required"]]);
    expect(pairs(failures({ ...refundRule(), name: "   " }))).toEqual([["name", "required"]]);
    expect(pairs(failures({ ...refundRule(), name: 42 }))).toEqual([["name", "invalid"]]);
  });

  test("description must be a string; active must be a boolean", () => {
    expect(pairs(failures({ ...refundRule(), description: 7 }))).toEqual([["description", "invalid"]]);
    expect(pairs(failures({ ...refundRule(), active: "yes" }))).toEqual([["active", "invalid"]]);
  });

  test("event_name: missing, unknown", () => {
    const { event_name: _e, ...noEvent } = refundRule();
    expect(pairs(failures(noEvent))).toEqual([["event_name", "required"]]);
    const [unknown] = failures({ ...refundRule(), event_name: "contact_created" });
    expect(unknown).toMatchObject({ field: "event_name", code: "unsupported" });
    expect(unknown?.message).toContain("contact_created");
  });

  test("conditions: missing, not an array, empty, an item that is not an object", () => {
    const { conditions: _c, ...noConditions } = refundRule();
    expect(pairs(failures(noConditions))).toEqual([["conditions", "required"]]);
    expect(pairs(failures({ ...refundRule(), conditions: { attribute_key: "status" } }))).toEqual([
      ["conditions", "invalid"],
    ]);
    expect(pairs(failures({ ...refundRule(), conditions: [] }))).toEqual([["conditions", "invalid"]]);
    expect(pairs(failures(withConditions("status")))).toEqual([["conditions[0]", "invalid"]]);
  });

  test("actions: missing, not an array, empty, an item that is not an object", () => {
    const { actions: _a, ...noActions } = refundRule();
    expect(pairs(failures(noActions))).toEqual([["actions", "required"]]);
    expect(pairs(failures({ ...refundRule(), actions: "add_label" }))).toEqual([["actions", "invalid"]]);
    expect(pairs(failures({ ...refundRule(), actions: [] }))).toEqual([["actions", "invalid"]]);
    expect(pairs(failures(withActions(null)))).toEqual([["actions[0]", "invalid"]]);
  });

  test("every problem is reported, one item each", () => {
    const errors = failures({
      name: "",
      event_name: "nope",
      conditions: [cond("bogus-key", "equal_to", ["x"])],
      actions: [{ action_name: "explode", action_params: [] }],
    });
    expect(pairs(errors)).toEqual([
      ["name", "required"],
      ["event_name", "unsupported"],
      ["conditions[0].attribute_key", "unsupported"],
      ["actions[0].action_name", "unsupported"],
    ]);
  });
});

describe("validateRuleInput: partial updates", () => {
  test("only sent fields are checked and returned", () => {
    expect(validateRuleInput({}, PATCH)).toEqual({});
    expect(validateRuleInput({ active: false }, PATCH)).toEqual({ active: false });
    expect(validateRuleInput({ name: "Renamed", description: null }, PATCH)).toEqual({
      name: "Renamed",
      description: null,
    });
  });

  test("sent fields follow the create rules", () => {
    expect(pairs(failures({ name: "" }, PATCH))).toEqual([["name", "required"]]);
    expect(pairs(failures({ name: null }, PATCH))).toEqual([["name", "required"]]);
    expect(pairs(failures({ conditions: [] }, PATCH))).toEqual([["conditions", "invalid"]]);
    expect(pairs(failures({ actions: null }, PATCH))).toEqual([["actions", "required"]]);
    expect(pairs(failures({ active: null }, PATCH))).toEqual([["active", "invalid"]]);
  });

  test("new conditions are checked against the stored event", () => {
    const changed = [cond("status", "attribute_changed", { from: ["open"], to: ["resolved"] })];
    expect(
      validateRuleInput(
        { conditions: changed },
        { partial: true, current: { event_name: "conversation_updated", conditions: [] } },
      ).conditions as unknown,
    ).toEqual(changed);
    expect(
      pairs(
        failures(
          { conditions: changed },
          { partial: true, current: { event_name: "message_created", conditions: [] } },
        ),
      ),
    ).toEqual([["conditions[0].filter_operator", "not_allowed"]]);
  });

  test("a new event is checked against the stored conditions", () => {
    const current = {
      event_name: "conversation_updated",
      conditions: [cond("status", "attribute_changed", { from: ["open"], to: ["resolved"] })],
    };
    const [e] = failures({ event_name: "message_created" }, { partial: true, current });
    expect(e).toMatchObject({ field: "event_name", code: "not_allowed" });
    expect(e?.message).toContain("conditions[0].filter_operator");
    expect(
      pairs(
        failures(
          { event_name: "conversation_idle" },
          {
            partial: true,
            current: { event_name: "message_created", conditions: [cond("status", "equal_to", ["open"])] },
          },
        ),
      ),
    ).toEqual([["event_name", "required"]]);
  });
});
