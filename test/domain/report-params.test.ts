import { describe, expect, test } from "bun:test";
import {
  businessHoursFlag,
  DEFAULT_RANGE_SECONDS,
  previousRange,
  reportRange,
} from "../../src/domain/report-params.ts";
import { errorsOf } from "../helpers/errors.ts";

const NOW = 1_768_000_000;

describe("reportRange", () => {
  test("defaults: until = now, since = until − 7 days", () => {
    expect(reportRange({}, NOW)).toEqual({ since: NOW - DEFAULT_RANGE_SECONDS, until: NOW });
    expect(reportRange({ until: "1000000" }, NOW)).toEqual({ since: 1_000_000 - 604_800, until: 1_000_000 });
    expect(reportRange({ since: "1000", until: "" }, NOW)).toEqual({ since: 1000, until: NOW });
    expect(reportRange({ since: 5, until: 9 }, NOW)).toEqual({ since: 5, until: 9 });
    expect(reportRange({ since: " -60 ", until: "0" }, NOW)).toEqual({ since: -60, until: 0 });
  });

  test("non-integer values and empty ranges are refused", () => {
    expect(errorsOf(() => reportRange({ since: "abc" }, NOW))).toEqual([
      { field: "since", message: "must be a Unix timestamp in seconds", code: "invalid" },
    ]);
    expect(errorsOf(() => reportRange({ since: "1e9", until: ["1"] }, NOW)).map((e) => e.field)).toEqual([
      "since",
      "until",
    ]);
    expect(errorsOf(() => reportRange({ since: "10", until: "10" }, NOW))).toEqual([
      { field: "since", message: "must be before until", code: "invalid" },
    ]);
    expect(errorsOf(() => reportRange({ since: String(NOW + 1) }, NOW))).toEqual([
      { field: "since", message: "must be before until", code: "invalid" },
    ]);
  });

  test("previousRange is the period of equal length just before", () => {
    expect(previousRange({ since: 100, until: 130 })).toEqual({ since: 70, until: 100 });
  });
});

describe("businessHoursFlag (Rails boolean cast)", () => {
  test.each([
    [undefined, false],
    ["", false],
    ["0", false],
    ["f", false],
    ["false", false],
    ["FALSE", false],
    ["off", false],
    [false, false],
    [0, false],
    ["true", true],
    ["1", true],
    ["t", true],
    ["yes", true],
    ["on", true],
    [true, true],
    ["anything", true],
  ] as [unknown, boolean][])("%p → %p", (raw, expected) => {
    expect(businessHoursFlag(raw)).toBe(expected);
  });
});
