// The automation matcher's logic: AND/OR precedence, attribute_changed, missing messages, rules that
// cannot be evaluated, the spec's example rule and compiled conditions (operators have their own file).
import { describe, expect, test } from "bun:test";
import { compileConditions, evaluateRule, matchesRule } from "../../src/domain/automation-match.ts";
import { facts, one } from "../helpers/match-fixtures.ts";
import { cond } from "../helpers/rule-input-fixtures.ts";

describe("AND binds tighter than OR", () => {
  const T = (q?: string) => cond("status", "equal_to", ["open"], { query_operator: q ?? null });
  const F = (q?: string) => cond("status", "equal_to", ["resolved"], { query_operator: q ?? null });
  const run = (...conditions: object[]) => evaluateRule(conditions, facts());

  test.each([
    ["true and false or true", [T("and"), F("or"), T()], true],
    ["true or false and false", [T("or"), F("and"), F()], true],
    ["false and true or false", [F("and"), T("or"), F()], false],
    ["true or true and false (left to right would say false)", [T("or"), T("and"), F()], true],
    ["false or true and true", [F("or"), T("and"), T()], true],
    ["(true and false) or (false and true)", [T("and"), F("or"), F("and"), T()], false],
    ["(false and true) or (true and true)", [F("and"), T("or"), T("and"), T()], true],
    ["true and true and false", [T("and"), T("and"), F()], false],
    ["false or false or true", [F("or"), F("or"), T()], true],
    ["query operators in capitals", [T("AND"), F("OR"), T()], true],
  ] as [string, object[], boolean][])("%s", (_label, conditions, expected) => {
    expect(run(...conditions)).toEqual({ matched: expected, error: null });
  });

  test("a trailing query_operator on the last condition is ignored", () => {
    expect(run(T("and"))).toEqual({ matched: true, error: null });
  });
});

describe("attribute_changed", () => {
  const statusChange = cond("status", "attribute_changed", { from: ["open", "pending"], to: ["resolved"] });
  const changed = (key: string, previous_value: unknown, current_value: unknown) =>
    facts({ changed_attributes: { [key]: { previous_value, current_value } } });

  test("matches when previous is in from and current in to", () => {
    expect(one(statusChange, changed("status", "open", "resolved"))).toBe(true);
    expect(one(statusChange, changed("status", "pending", "resolved"))).toBe(true);
  });

  test("does not match another change, another key, or no change record", () => {
    expect(one(statusChange, changed("status", "snoozed", "resolved"))).toBe(false);
    expect(one(statusChange, changed("status", "open", "pending"))).toBe(false);
    expect(one(statusChange, changed("priority", "open", "resolved"))).toBe(false);
    expect(one(statusChange, facts())).toBe(false);
  });

  test("ids compare as numbers; nil stands for none", () => {
    const assigned = cond("assignee_id", "attribute_changed", { from: ["nil"], to: ["7", 8] });
    expect(one(assigned, changed("assignee_id", null, 7))).toBe(true);
    expect(one(assigned, changed("assignee_id", 3, 7))).toBe(false);
  });

  test("Chatwoot-style [previous, current] pairs are read too", () => {
    const f = facts({ changed_attributes: { status: ["open", "resolved"] as never } });
    expect(one(statusChange, f)).toBe(true);
  });

  test("combines with other conditions by the same precedence", () => {
    const rule = [{ ...statusChange, query_operator: "and" }, cond("team_id", "equal_to", [3])];
    expect(matchesRule(rule, changed("status", "open", "resolved"))).toBe(true);
    expect(
      matchesRule(
        rule,
        facts({
          conversation: { team_id: 9 },
          changed_attributes: { status: { previous_value: "open", current_value: "resolved" } },
        }),
      ),
    ).toBe(false);
  });
});

describe("message conditions without a message", () => {
  const noMessage = facts({ message: null });

  test("are false whatever the operator, and not an error", () => {
    for (const c of [
      cond("message_type", "equal_to", ["incoming"]),
      cond("message_type", "not_equal_to", ["outgoing"]),
      cond("content", "does_not_contain", ["refund"]),
      cond("content", "is_not_present"),
    ]) {
      expect(evaluateRule([c], noMessage)).toEqual({ matched: false, error: null });
    }
  });

  test("an OR with a conversation condition can still match", () => {
    const rule = [
      cond("message_type", "equal_to", ["incoming"], { query_operator: "or" }),
      cond("status", "equal_to", ["open"]),
    ];
    expect(matchesRule(rule, noMessage)).toBe(true);
  });
});

describe("rules that cannot be evaluated", () => {
  test.each([
    ["an unknown key", [cond("not a key", "equal_to", ["x"])], "not a key"],
    ["an unknown operator", [cond("status", "resembles", ["open"])], "resembles"],
    ["an operator the key does not take", [cond("status", "days_before", [3])], "days_before"],
    ["values of the wrong shape", [cond("status", "equal_to", "open")], "values"],
    [
      "a missing query_operator between conditions",
      [cond("status", "equal_to", ["open"]), cond("team_id", "equal_to", [3])],
      "query_operator",
    ],
    [
      "a query_operator that is not and/or",
      [cond("status", "equal_to", ["open"], { query_operator: "xor" }), cond("team_id", "equal_to", [3])],
      "query_operator",
    ],
    ["a condition that is not an object", ["status"], "not an object"],
    ["no conditions", [], "no conditions"],
  ] as [string, unknown[], string][])("%s: no match, with the reason", (_label, conditions, fragment) => {
    const result = evaluateRule(conditions, facts());
    expect(result.matched).toBe(false);
    expect(result.error).toContain(fragment);
    expect(matchesRule(conditions, facts())).toBe(false);
  });

  test("an invalid condition spoils the rule even when an earlier OR branch would match", () => {
    const rule = [cond("status", "equal_to", ["open"], { query_operator: "or" }), cond("bad key", "equal_to", ["x"])];
    expect(evaluateRule(rule, facts()).error).toContain("condition 1");
  });

  test("a stored value that is not a list", () => {
    expect(evaluateRule("conditions", facts()).error).not.toBeNull();
  });
});

describe("the spec's example rule", () => {
  // event message_created; content contains "refund"; action add_label ["billing"]
  const conditions = [
    { values: ["refund"], attribute_key: "content", filter_operator: "contains", query_operator: "and" },
  ];

  test("matches a message asking for a Refund", () => {
    expect(
      matchesRule(conditions, facts({ message: { message_type: "incoming", content: "Can I get a Refund?" } })),
    ).toBe(true);
  });

  test("does not match other messages", () => {
    expect(
      matchesRule(conditions, facts({ message: { message_type: "incoming", content: "Where is my parcel?" } })),
    ).toBe(false);
    expect(matchesRule(conditions, facts({ message: { message_type: "incoming", content: null } }))).toBe(false);
  });
});

describe("compileConditions", () => {
  test("compiles once, tests many facts", () => {
    const compiled = compileConditions([
      cond("team_id", "equal_to", [3], { query_operator: "and" }),
      cond("labels", "is_present"),
    ]);
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.test(facts())).toBe(true);
    expect(compiled.test(facts({ labels: [] }))).toBe(false);
    expect(compiled.test(facts({ conversation: { team_id: 4 } }))).toBe(false);
  });

  test("leaves the facts unchanged", () => {
    const f = facts();
    const before = JSON.stringify(f);
    expect(matchesRule([cond("status", "equal_to", ["open"])], f)).toBe(true);
    expect(JSON.stringify(f)).toBe(before);
  });
});
