import { describe, expect, test } from "bun:test";
import { surveyRulesAllow } from "../../src/domain/csat.service.ts";
import type { ValidationError } from "../../src/domain/errors.ts";
import { randomContactName } from "../../src/domain/random-name.ts";
import { cleanSubmittedValues, csatLocked, MAX_ITEMS } from "../../src/domain/submitted-values.ts";

const errorsOf = (raw: unknown) => {
  try {
    cleanSubmittedValues(raw);
    return null;
  } catch (e) {
    return (e as ValidationError).errors;
  }
};

describe("cleanSubmittedValues", () => {
  test("absent is no change; an object keeps name/title/value scalars and the CSAT answer", () => {
    expect(cleanSubmittedValues(undefined)).toBeUndefined();
    expect(cleanSubmittedValues(null)).toBeUndefined();
    expect(
      cleanSubmittedValues({
        name: "n",
        title: 1,
        value: true,
        other: "x",
        csat_survey_response: { rating: "4", feedback_message: "ok", extra: 1 },
      }),
    ).toEqual({
      values: { name: "n", title: 1, value: true, csat_survey_response: { feedback_message: "ok", rating: 4 } },
      csat: { rating: 4, feedback_message: "ok" },
    });
    expect(cleanSubmittedValues({ value: { nested: 1 } })).toEqual({ values: {}, csat: null });
  });

  test("an array keeps its objects (in order) and drops the rest; the first CSAT answer counts", () => {
    expect(
      cleanSubmittedValues([
        { title: "A", value: "a" },
        3,
        { csat_survey_response: { rating: 2 } },
        { csat_survey_response: { rating: 5 } },
      ]),
    ).toEqual({
      values: [
        { title: "A", value: "a" },
        { csat_survey_response: { feedback_message: null, rating: 2 } },
        { csat_survey_response: { feedback_message: null, rating: 5 } },
      ],
      csat: { rating: 2, feedback_message: null },
    });
  });

  test("errors name their field", () => {
    expect(errorsOf("yes")).toEqual([
      { field: "submitted_values", message: "must be an object or an array of objects", code: "invalid" },
    ]);
    expect(errorsOf([{}, { csat_survey_response: { rating: 9, feedback_message: 5 } }])).toEqual([
      {
        field: "submitted_values.1.csat_survey_response.rating",
        message: "must be a whole number from 1 to 5",
        code: "invalid",
      },
      {
        field: "submitted_values.1.csat_survey_response.feedback_message",
        message: "must be a string",
        code: "invalid",
      },
    ]);
    expect(errorsOf({ csat_survey_response: "5" })).toEqual([
      {
        field: "submitted_values.csat_survey_response",
        message: "must be an object with rating and feedback_message",
        code: "invalid",
      },
    ]);
    expect(errorsOf({ value: "x".repeat(10_001) })).toEqual([
      { field: "submitted_values.value", message: "is too long (maximum is 10000 characters)", code: "too_long" },
    ]);
    expect(errorsOf(Array(MAX_ITEMS + 1).fill({}))).toEqual([
      { field: "submitted_values", message: "has too many items (maximum is 100)", code: "too_long" },
    ]);
  });
});

describe("csatLocked", () => {
  const day = 86_400;
  test("more than 14 calendar days (UTC) between the survey and now", () => {
    const sent = 20_000 * day + 23 * 3600; // 23:00 on day D
    expect(csatLocked(sent, sent + 14 * day)).toBe(false);
    expect(csatLocked(sent, 20_015 * day - 1)).toBe(false); // D+14, 23:59:59
    expect(csatLocked(sent, 20_015 * day)).toBe(true); // D+15, 00:00
  });
});

describe("surveyRulesAllow", () => {
  test("no rules or no values: always; contains / does_not_contain; an unknown operator does not block", () => {
    expect(surveyRulesAllow({}, [])).toBe(true);
    expect(surveyRulesAllow({ survey_rules: { operator: "contains", values: [] } }, [])).toBe(true);
    expect(surveyRulesAllow({ survey_rules: { values: ["vip"] } }, ["vip", "x"])).toBe(true);
    expect(surveyRulesAllow({ survey_rules: { operator: "contains", values: ["vip"] } }, ["x"])).toBe(false);
    expect(surveyRulesAllow({ survey_rules: { operator: "does_not_contain", values: ["vip"] } }, ["vip"])).toBe(false);
    expect(surveyRulesAllow({ survey_rules: { operator: "does_not_contain", values: ["vip"] } }, [])).toBe(true);
    expect(surveyRulesAllow({ survey_rules: { operator: "sometimes", values: ["vip"] } }, [])).toBe(true);
  });
});

describe("randomContactName", () => {
  test("adjective-noun-NNNN", () => {
    expect(randomContactName(() => 0)).toBe("amber-bird-1000");
    expect(randomContactName(() => 0.9999)).toBe("young-wood-9999");
    for (let i = 0; i < 50; i++) expect(randomContactName()).toMatch(/^[a-z]+-[a-z]+-[1-9]\d{3}$/);
  });
});
