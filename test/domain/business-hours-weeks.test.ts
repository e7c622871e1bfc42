// businessSeconds over ordinary weeks (UTC) and in other time zones, isWithinBusinessHours, and ranges
// of years. 2024-01-01 is a Monday.
import { describe, expect, test } from "bun:test";
import { businessSeconds, isWithinBusinessHours } from "../../src/domain/business-hours.ts";
import { type WeeklySchedule, parseWorkingHours } from "../../src/domain/working-hours.ts";
import { HOUR, at, nineToFive, open, sunday } from "../helpers/working-hours-fixtures.ts";

describe("businessSeconds: ordinary weeks (UTC)", () => {
  const bs = (from: string, to: string, s: WeeklySchedule = nineToFive) => businessSeconds(at(from), at(to), s, "UTC");

  test("reply across an overnight break: Mon 16:00 -> Tue 10:00 = 2 h", () => {
    expect(bs("2024-01-01T16:00:00Z", "2024-01-02T10:00:00Z")).toBe(2 * HOUR);
  });

  test("reply across a weekend: Fri 16:00 -> Mon 10:00 = 2 h", () => {
    expect(bs("2024-01-05T16:00:00Z", "2024-01-08T10:00:00Z")).toBe(2 * HOUR);
  });

  test("start inside hours vs outside hours", () => {
    expect(bs("2024-01-01T10:30:00Z", "2024-01-01T12:00:00Z")).toBe(1.5 * HOUR);
    expect(bs("2024-01-01T07:00:00Z", "2024-01-01T10:00:00Z")).toBe(1 * HOUR);
    expect(bs("2024-01-01T16:59:30Z", "2024-01-01T18:00:00Z")).toBe(30);
    expect(bs("2024-01-01T17:30:00Z", "2024-01-01T23:00:00Z")).toBe(0);
    expect(bs("2024-01-06T08:00:00Z", "2024-01-07T20:00:00Z")).toBe(0); // Saturday -> Sunday
  });

  test("a whole week is 40 h, from any starting point", () => {
    expect(bs("2024-01-01T00:00:00Z", "2024-01-08T00:00:00Z")).toBe(40 * HOUR);
    expect(bs("2024-01-03T12:34:56Z", "2024-01-10T12:34:56Z")).toBe(40 * HOUR);
  });

  test("empty, reversed and non-finite ranges, empty schedule", () => {
    const t = at("2024-01-01T10:00:00Z");
    expect(businessSeconds(t, t, nineToFive, "UTC")).toBe(0);
    expect(businessSeconds(t + 100, t, nineToFive, "UTC")).toBe(0);
    expect(businessSeconds(Number.NaN, t, nineToFive, "UTC")).toBe(0);
    expect(businessSeconds(t, Number.POSITIVE_INFINITY, nineToFive, "UTC")).toBe(0);
    expect(businessSeconds(t, t + 7 * 24 * HOUR, [], "UTC")).toBe(0);
  });

  test("fractional seconds are counted proportionally", () => {
    const t = at("2024-01-01T10:00:00Z");
    expect(businessSeconds(t + 0.5, t + 2, nineToFive, "UTC")).toBe(1.5);
  });

  test("several intervals a day: 09-12 and 13-17 (lunch break)", () => {
    const lunch = parseWorkingHours([open(1, 9, 12), open(1, 13, 17)]);
    expect(bs("2024-01-01T08:00:00Z", "2024-01-01T18:00:00Z", lunch)).toBe(7 * HOUR);
    expect(bs("2024-01-01T11:00:00Z", "2024-01-01T14:00:00Z", lunch)).toBe(2 * HOUR);
    expect(bs("2024-01-01T12:15:00Z", "2024-01-01T12:45:00Z", lunch)).toBe(0);
  });

  test("a closed day in the middle of the week", () => {
    const noWednesday = parseWorkingHours([
      ...[1, 2, 4, 5].map((d) => open(d, 9, 17)),
      { day_of_week: 3, closed_all_day: true },
    ]);
    expect(bs("2024-01-02T16:00:00Z", "2024-01-04T10:00:00Z", noWednesday)).toBe(2 * HOUR);
    expect(bs("2024-01-01T00:00:00Z", "2024-01-08T00:00:00Z", noWednesday)).toBe(32 * HOUR);
  });

  test("an interval past midnight: Fri 22:00-02:00", () => {
    const lateFriday = parseWorkingHours([open(5, 22, 2)]);
    expect(bs("2024-01-05T20:00:00Z", "2024-01-06T04:00:00Z", lateFriday)).toBe(4 * HOUR);
    expect(bs("2024-01-06T01:00:00Z", "2024-01-06T03:00:00Z", lateFriday)).toBe(1 * HOUR);
    expect(bs("2024-01-05T23:00:00Z", "2024-01-05T23:30:00Z", lateFriday)).toBe(0.5 * HOUR);
  });

  test("Saturday 22:00-02:00 wraps into Sunday across the week boundary", () => {
    const lateSaturday = parseWorkingHours([open(6, 22, 2)]);
    expect(bs("2024-01-06T23:00:00Z", "2024-01-07T01:30:00Z", lateSaturday)).toBe(2.5 * HOUR);
    expect(bs("2024-01-01T00:00:00Z", "2024-01-15T00:00:00Z", lateSaturday)).toBe(8 * HOUR);
  });

  test("22:00-02:00 every night is 28 h a week", () => {
    const nights = parseWorkingHours([0, 1, 2, 3, 4, 5, 6].map((d) => open(d, 22, 2)));
    expect(nights).toEqual([
      [0, 120],
      [1320, 1560],
      [2760, 3000],
      [4200, 4440],
      [5640, 5880],
      [7080, 7320],
      [8520, 8760],
      [9960, 10_080],
    ]);
    expect(bs("2024-01-03T05:00:00Z", "2024-01-10T05:00:00Z", nights)).toBe(28 * HOUR);
  });
});

describe("businessSeconds: time zones", () => {
  test("Europe/Berlin is UTC+1 in winter and UTC+2 in summer", () => {
    // Monday 06:00Z-12:00Z: UTC reads 06-12 (3 h in 09-17); Berlin winter reads 07-13 (4 h).
    expect(businessSeconds(at("2024-01-01T06:00:00Z"), at("2024-01-01T12:00:00Z"), nineToFive, "UTC")).toBe(3 * HOUR);
    expect(businessSeconds(at("2024-01-01T06:00:00Z"), at("2024-01-01T12:00:00Z"), nineToFive, "Europe/Berlin")).toBe(
      4 * HOUR,
    );
    // Monday 2024-07-01 06:00Z-12:00Z reads 08-14 in Berlin summer: 5 h.
    expect(businessSeconds(at("2024-07-01T06:00:00Z"), at("2024-07-01T12:00:00Z"), nineToFive, "Europe/Berlin")).toBe(
      5 * HOUR,
    );
  });

  test("America/New_York is UTC-5 in winter", () => {
    // Monday 14:00Z-23:00Z reads 09:00-18:00 in New York (8 h) but 14-23 in UTC (3 h).
    expect(
      businessSeconds(at("2024-01-01T14:00:00Z"), at("2024-01-01T23:00:00Z"), nineToFive, "America/New_York"),
    ).toBe(8 * HOUR);
    expect(businessSeconds(at("2024-01-01T14:00:00Z"), at("2024-01-01T23:00:00Z"), nineToFive, "UTC")).toBe(3 * HOUR);
  });

  test("fixed-offset zones: Etc/GMT+5 is UTC-5 (POSIX sign)", () => {
    expect(businessSeconds(at("2024-01-01T14:00:00Z"), at("2024-01-01T23:00:00Z"), nineToFive, "Etc/GMT+5")).toBe(
      8 * HOUR,
    );
    expect(businessSeconds(at("2024-07-01T14:00:00Z"), at("2024-07-01T23:00:00Z"), nineToFive, "Etc/GMT+5")).toBe(
      8 * HOUR,
    );
  });

  test("a zone with a half-hour offset (Asia/Kolkata, UTC+5:30)", () => {
    // Monday 03:00Z-12:00Z reads 08:30-17:30: 8 h of 09-17.
    expect(businessSeconds(at("2024-01-01T03:00:00Z"), at("2024-01-01T12:00:00Z"), nineToFive, "Asia/Kolkata")).toBe(
      8 * HOUR,
    );
    expect(businessSeconds(at("2024-01-01T03:00:00Z"), at("2024-01-01T04:00:00Z"), nineToFive, "Asia/Kolkata")).toBe(
      0.5 * HOUR,
    );
  });
});

describe("isWithinBusinessHours", () => {
  test("agrees with the schedule at the edges", () => {
    expect(isWithinBusinessHours(at("2024-01-01T09:00:00Z"), nineToFive, "UTC")).toBe(true);
    expect(isWithinBusinessHours(at("2024-01-01T16:59:59Z"), nineToFive, "UTC")).toBe(true);
    expect(isWithinBusinessHours(at("2024-01-01T16:59:59Z") + 0.9, nineToFive, "UTC")).toBe(true);
    expect(isWithinBusinessHours(at("2024-01-01T17:00:00Z"), nineToFive, "UTC")).toBe(false);
    expect(isWithinBusinessHours(at("2024-01-01T08:59:59Z"), nineToFive, "UTC")).toBe(false);
    expect(isWithinBusinessHours(at("2024-01-06T12:00:00Z"), nineToFive, "UTC")).toBe(false);
    expect(isWithinBusinessHours(at("2024-01-01T12:00:00Z"), [], "UTC")).toBe(false);
  });

  test("reads the inbox's zone", () => {
    // 08:30Z on a Monday is 09:30 in Berlin (open) and 03:30 in New York (closed).
    expect(isWithinBusinessHours(at("2024-01-01T08:30:00Z"), nineToFive, "Europe/Berlin")).toBe(true);
    expect(isWithinBusinessHours(at("2024-01-01T08:30:00Z"), nineToFive, "America/New_York")).toBe(false);
  });

  test("in the repeated hour, follows first-occurrence mapping", () => {
    const NY = "America/New_York";
    expect(isWithinBusinessHours(at("2024-11-03T05:15:00Z"), sunday(0, 0, 1, 30), NY)).toBe(true); // first 01:15
    expect(isWithinBusinessHours(at("2024-11-03T06:15:00Z"), sunday(0, 0, 1, 30), NY)).toBe(false); // second 01:15
    expect(isWithinBusinessHours(at("2024-11-03T06:15:00Z"), sunday(0, 0, 3, 0), NY)).toBe(true);
  });
});

/** Weekdays (Mon-Fri) in [from, to), counted day by day as an independent check. */
function weekdaysBetween(fromIso: string, toIso: string): number {
  let n = 0;
  for (let d = new Date(fromIso); d < new Date(toIso); d.setUTCDate(d.getUTCDate() + 1)) {
    const w = d.getUTCDay();
    if (w >= 1 && w <= 5) n++;
  }
  return n;
}

describe("long ranges", () => {
  test("2024 in New York: 262 weekdays x 8 h", () => {
    expect(weekdaysBetween("2024-01-01", "2025-01-01")).toBe(262);
    expect(
      businessSeconds(at("2024-01-01T05:00:00Z"), at("2025-01-01T05:00:00Z"), nineToFive, "America/New_York"),
    ).toBe(262 * 8 * HOUR);
  });

  test("ten years in Berlin, and across 1900-2100 in UTC", () => {
    const tenYears = weekdaysBetween("2020-01-01", "2030-01-01");
    expect(businessSeconds(at("2019-12-31T23:00:00Z"), at("2029-12-31T23:00:00Z"), nineToFive, "Europe/Berlin")).toBe(
      tenYears * 8 * HOUR,
    );
    const twoCenturies = weekdaysBetween("1900-01-01", "2100-01-01");
    expect(businessSeconds(at("1900-01-01T00:00:00Z"), at("2100-01-01T00:00:00Z"), nineToFive, "UTC")).toBe(
      twoCenturies * 8 * HOUR,
    );
  });

  test("one year-long call, in a zone not used before and again shifted by seconds", () => {
    const [from, to] = [at("2031-01-01T06:00:00Z"), at("2032-01-01T06:00:00Z")];
    const cold = businessSeconds(from, to, nineToFive, "America/Chicago"); // zone not used elsewhere here
    // 2031 starts on a Wednesday: 365 days = 52 weeks + Wed -> 261 weekdays.
    expect(cold).toBe(weekdaysBetween("2031-01-01", "2032-01-01") * 8 * HOUR);
    // Both ends at 06:00 UTC (midnight or 01:00 in Chicago), outside working hours: seconds later, the same.
    for (const i of [1, 59, 3599]) expect(businessSeconds(from + i, to + i, nineToFive, "America/Chicago")).toBe(cold);
  });
});
