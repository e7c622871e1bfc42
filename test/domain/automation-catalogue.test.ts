import { describe, expect, test } from "bun:test";
import { ValidationError, type FieldError } from "../../src/domain/errors.ts";
import {
  AUTOMATION_ACTIONS,
  AUTOMATION_EVENTS,
  BUILT_IN_ATTRIBUTES,
  idleMinutesOf,
  validateRuleInput,
  type RuleInput,
  type ValidateOptions,
} from "../../src/domain/automation-catalogue.ts";

// The seed spec's example rule: tag messages that mention a refund.
const refundRule = () => ({
  name: "Refunds to billing",
  description: "Tag refund requests",
  event_name: "message_created",
  conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: null }],
  actions: [{ action_name: "add_label", action_params: ["billing"] }],
});

const CREATE: ValidateOptions = { partial: false };
const PATCH: ValidateOptions = { partial: true };

/** The 422 items a call throws, as [field, code] pairs (messages are checked where they matter). */
function failures(input: RuleInput, options: ValidateOptions = CREATE): FieldError[] {
  try {
    validateRuleInput(input, options);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).status).toBe(422);
    return (e as ValidationError).errors;
  }
  throw new Error("expected a ValidationError");
}
const pairs = (errors: FieldError[]) => errors.map((e) => [e.field, e.code]);
const withConditions = (...conditions: unknown[]) => ({ ...refundRule(), conditions });
const withActions = (...actions: unknown[]) => ({ ...refundRule(), actions });
const cond = (attribute_key: string, filter_operator: string, values?: unknown, extra: object = {}) => ({
  attribute_key,
  filter_operator,
  values,
  ...extra,
});

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

describe("validateRuleInput: action errors", () => {
  test("an unknown action is named", () => {
    const [e] = failures(
      withActions({ action_name: "add_label", action_params: ["x"] }, { action_name: "explode", action_params: [] }),
    );
    expect(e).toEqual({
      field: "actions[1].action_name",
      message: "Automation action explode is not supported",
      code: "unsupported",
    });
    expect(pairs(failures(withActions({ action_params: [] })))).toEqual([["actions[0].action_name", "required"]]);
    expect(pairs(failures(withActions({ action_name: "add_label", action_params: "billing" })))).toEqual([
      ["actions[0].action_params", "invalid"],
    ]);
  });

  // [action, params that pass, params that fail]
  const cases: [string, unknown[][], unknown[][]][] = [
    ["send_message", [["Thanks, we are on it"]], [[], [""], [42], ["a", "b"], ["x".repeat(150_001)]]],
    ["add_private_note", [["check the invoice"]], [[], ["  "]]],
    ["add_label", [["billing"], ["billing", "vip"]], [[], [""], [7]]],
    ["remove_label", [["spam"]], [[], [null]]],
    ["assign_agent", [[3], ["3"], ["nil"]], [[], [0], [-2], ["bob"], [1, 2]]],
    ["assign_team", [[2], ["2"], ["nil"], [0], []], [["team"], [-1], [1, 2]]],
    ["change_status", [["open"], ["resolved"], ["pending"], ["snoozed"]], [[], ["closed"], ["open", "pending"]]],
    ["resolve_conversation", [[]], [["now"]]],
    ["open_conversation", [[]], [[1]]],
    ["snooze_conversation", [[], [1_800_000_000], ["1800000000"]], [["tomorrow"], [0], [1, 2]]],
    ["mute_conversation", [[]], [[true]]],
    ["change_priority", [["low"], ["medium"], ["high"], ["urgent"], ["nil"]], [[], ["critical"]]],
    [
      "send_webhook_event",
      [["https://hooks.example.com/in"], ["http://10.0.0.1:8080/x"]],
      [[], ["ftp://x.example"], ["not a url"]],
    ],
    [
      "send_email_to_team",
      [[{ team_ids: [1, "2"], message: "Please look" }]],
      [[], [{ team_ids: [], message: "x" }], [{ team_ids: [1] }], [{ team_ids: [1], message: "" }], ["x"]],
    ],
    [
      "send_email_transcript",
      [["a@x.com, b@y.org"], ["a@x.com", "{{contact.email}}"]],
      [[], ["nobody"], ["a@x.com, "], [3]],
    ],
    ["send_attachment", [[12], ["eyJfcmFpbHMiOnsiZGF0YSI6NDJ9fQ=="]], [[], [""], [0], [1, 2]]],
  ];

  test("the table covers every action", () => {
    expect(cases.map(([name]) => name).sort()).toEqual([...AUTOMATION_ACTIONS].sort());
  });

  for (const [name, good, bad] of cases) {
    test(`${name}: accepts ${JSON.stringify(good).slice(0, 60)}`, () => {
      for (const params of good) {
        const rule = validateRuleInput(withActions({ action_name: name, action_params: params }), CREATE);
        expect(rule.actions?.[0]?.action_params).toEqual(params);
      }
    });
    test(`${name}: refuses bad params with actions[0].action_params`, () => {
      for (const params of bad) {
        expect(pairs(failures(withActions({ action_name: name, action_params: params })))).toEqual([
          ["actions[0].action_params", "invalid"],
        ]);
      }
    });
  }
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
