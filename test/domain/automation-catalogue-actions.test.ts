// validateRuleInput on actions: unknown actions, and the params every action accepts and refuses.
import { describe, expect, test } from "bun:test";
import { AUTOMATION_ACTIONS, validateRuleInput } from "../../src/domain/automation-catalogue.ts";
import { CREATE, failures, pairs, withActions } from "../helpers/rule-input-fixtures.ts";

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
