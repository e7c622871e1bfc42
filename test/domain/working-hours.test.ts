import { describe, expect, test } from "bun:test";
import {
  DEFAULT_WORKING_HOURS,
  normaliseEntries,
  parseWorkingHours,
  scheduleFromEntries,
  validateTimeZone,
} from "../../src/domain/working-hours.ts";
import { errorsOf } from "../helpers/errors.ts";

/** field:code pairs, the part of an error clients branch on. */
function codes(fn: () => unknown): string[] {
  return errorsOf(fn).map((e) => `${e.field}:${e.code}`);
}

const H = 60; // minutes per hour
const D = 1440; // minutes per day
const open = (day: number, oh: number, ch: number, om = 0, cm = 0) => ({
  day_of_week: day,
  open_hour: oh,
  open_minutes: om,
  close_hour: ch,
  close_minutes: cm,
});

describe("DEFAULT_WORKING_HOURS", () => {
  test("is Chatwoot's default: Mon-Fri 09:00-17:00, weekend closed", () => {
    expect(DEFAULT_WORKING_HOURS).toHaveLength(7);
    expect(DEFAULT_WORKING_HOURS[0]).toEqual({
      day_of_week: 0,
      closed_all_day: true,
      open_all_day: false,
      open_hour: null,
      open_minutes: null,
      close_hour: null,
      close_minutes: null,
    });
    expect(DEFAULT_WORKING_HOURS[1]).toEqual({
      day_of_week: 1,
      closed_all_day: false,
      open_all_day: false,
      open_hour: 9,
      open_minutes: 0,
      close_hour: 17,
      close_minutes: 0,
    });
    expect(DEFAULT_WORKING_HOURS[6]?.closed_all_day).toBe(true);
    expect(Object.isFrozen(DEFAULT_WORKING_HOURS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_WORKING_HOURS[1])).toBe(true);
  });

  test("its schedule is five 8-hour intervals", () => {
    expect(scheduleFromEntries(DEFAULT_WORKING_HOURS)).toEqual(
      [1, 2, 3, 4, 5].map((d) => [d * D + 9 * H, d * D + 17 * H]),
    );
  });

  test("round-trips through normaliseEntries unchanged", () => {
    expect(normaliseEntries(DEFAULT_WORKING_HOURS)).toEqual(DEFAULT_WORKING_HOURS.map((e) => ({ ...e })));
  });
});

describe("normaliseEntries", () => {
  test("cleans numbers and booleans, keeps input order", () => {
    const out = normaliseEntries([
      { day_of_week: "3", open_hour: "9", open_minutes: "30", close_hour: "17", closed_all_day: "false" },
      { day_of_week: 1, closed_all_day: true, open_hour: 9, close_hour: 17 },
      { day_of_week: 2, open_all_day: "true", open_hour: 3 },
      { day_of_week: 4, open_hour: 9, close_hour: 17, open_minutes: null, close_minutes: "" },
    ]);
    expect(out).toEqual([
      {
        day_of_week: 3,
        closed_all_day: false,
        open_all_day: false,
        open_hour: 9,
        open_minutes: 30,
        close_hour: 17,
        close_minutes: 0,
      },
      {
        day_of_week: 1,
        closed_all_day: true,
        open_all_day: false,
        open_hour: null,
        open_minutes: null,
        close_hour: null,
        close_minutes: null,
      },
      {
        day_of_week: 2,
        closed_all_day: false,
        open_all_day: true,
        open_hour: 0,
        open_minutes: 0,
        close_hour: 24,
        close_minutes: 0,
      },
      {
        day_of_week: 4,
        closed_all_day: false,
        open_all_day: false,
        open_hour: 9,
        open_minutes: 0,
        close_hour: 17,
        close_minutes: 0,
      },
    ]);
  });

  test("accepts 1/0 and '1'/'0' as booleans and an empty array", () => {
    expect(normaliseEntries([{ day_of_week: 0, closed_all_day: 1 }])[0]?.closed_all_day).toBe(true);
    expect(normaliseEntries([{ day_of_week: 0, open_all_day: "1", closed_all_day: "0" }])[0]?.open_all_day).toBe(true);
    expect(normaliseEntries([])).toEqual([]);
  });

  test("ignores time fields on closed and all-day entries", () => {
    expect(() => normaliseEntries([{ day_of_week: 0, closed_all_day: true, open_hour: "junk" }])).not.toThrow();
    expect(() => normaliseEntries([{ day_of_week: 0, open_all_day: true, close_hour: 99 }])).not.toThrow();
  });
});

describe("parseWorkingHours: schedule", () => {
  test("several intervals a day (lunch break)", () => {
    expect(parseWorkingHours([open(1, 9, 12), open(1, 13, 17)])).toEqual([
      [D + 9 * H, D + 12 * H],
      [D + 13 * H, D + 17 * H],
    ]);
  });

  test("touching intervals merge; order of entries does not matter", () => {
    expect(parseWorkingHours([open(1, 12, 17), open(1, 9, 12)])).toEqual([[D + 9 * H, D + 17 * H]]);
  });

  test("overnight interval Fri 22:00-02:00 runs into Saturday", () => {
    expect(parseWorkingHours([open(5, 22, 2)])).toEqual([[5 * D + 22 * H, 6 * D + 2 * H]]);
  });

  test("Sat 22:00-02:00 wraps into Sunday and is split at the end of the week", () => {
    expect(parseWorkingHours([open(6, 22, 2)])).toEqual([
      [0, 2 * H],
      [6 * D + 22 * H, 7 * D],
    ]);
  });

  test("close 00:00 ends at midnight; close 24:00 ends the day", () => {
    expect(parseWorkingHours([open(2, 22, 0)])).toEqual([[2 * D + 22 * H, 3 * D]]);
    expect(parseWorkingHours([open(2, 22, 24)])).toEqual([[2 * D + 22 * H, 3 * D]]);
    expect(parseWorkingHours([open(2, 0, 24)])).toEqual([[2 * D, 3 * D]]);
  });

  test("open_all_day is 00:00-24:00; closed days and missing days contribute nothing", () => {
    expect(
      parseWorkingHours([
        { day_of_week: 3, open_all_day: true },
        { day_of_week: 4, closed_all_day: true },
      ]),
    ).toEqual([[3 * D, 4 * D]]);
    expect(parseWorkingHours([])).toEqual([]);
  });

  test("all days open all day merge into the whole week", () => {
    const all = [0, 1, 2, 3, 4, 5, 6].map((d) => ({ day_of_week: d, open_all_day: true }));
    expect(parseWorkingHours(all)).toEqual([[0, 7 * D]]);
  });

  test("minutes are honoured", () => {
    expect(parseWorkingHours([open(0, 8, 16, 45, 15)])).toEqual([[8 * H + 45, 16 * H + 15]]);
  });
});

describe("parseWorkingHours: validation errors", () => {
  test("not an array", () => {
    for (const bad of [null, undefined, {}, "mon 9-5", 3])
      expect(codes(() => parseWorkingHours(bad))).toEqual(["working_hours:invalid"]);
    expect(codes(() => parseWorkingHours({}, "inbox.working_hours"))).toEqual(["inbox.working_hours:invalid"]);
  });

  test("entry not an object", () => {
    expect(codes(() => parseWorkingHours([open(1, 9, 17), 5, null, [1]]))).toEqual([
      "working_hours[1]:invalid",
      "working_hours[2]:invalid",
      "working_hours[3]:invalid",
    ]);
  });

  test("day_of_week missing or out of range", () => {
    expect(codes(() => parseWorkingHours([{ open_hour: 9, close_hour: 17 }]))).toEqual([
      "working_hours[0].day_of_week:required",
    ]);
    for (const day of [7, -1, 1.5, "x", "7", true]) {
      expect(codes(() => parseWorkingHours([{ ...open(1, 9, 17), day_of_week: day }]))).toEqual([
        "working_hours[0].day_of_week:invalid",
      ]);
    }
  });

  test("hours and minutes missing, out of range or not integers", () => {
    expect(codes(() => parseWorkingHours([{ day_of_week: 1 }]))).toEqual([
      "working_hours[0].open_hour:required",
      "working_hours[0].close_hour:required",
    ]);
    const cases: [Record<string, unknown>, string][] = [
      [{ open_hour: 24 }, "open_hour"],
      [{ open_hour: -1 }, "open_hour"],
      [{ open_hour: 9.5 }, "open_hour"],
      [{ open_hour: "nine" }, "open_hour"],
      [{ open_minutes: 60 }, "open_minutes"],
      [{ close_hour: 25 }, "close_hour"],
      [{ close_minutes: -1 }, "close_minutes"],
      [{ close_minutes: "5.5" }, "close_minutes"],
      [{ close_hour: 24, close_minutes: 30 }, "close_minutes"],
    ];
    for (const [patch, field] of cases) {
      const errors = errorsOf(() => parseWorkingHours([open(1, 9, 17), { ...open(2, 9, 17), ...patch }]));
      expect(errors.map((e) => `${e.field}:${e.code}`)).toEqual([`working_hours[1].${field}:invalid`]);
    }
  });

  test("error messages say what is allowed", () => {
    const [e] = errorsOf(() => parseWorkingHours([open(1, 30, 17)]));
    expect(e).toEqual({
      field: "working_hours[0].open_hour",
      message: "must be an integer from 0 to 23",
      code: "invalid",
    });
  });

  test("open equals close without open_all_day", () => {
    expect(codes(() => parseWorkingHours([open(1, 9, 9)]))).toEqual(["working_hours[0].close_hour:invalid"]);
    expect(codes(() => parseWorkingHours([open(1, 0, 0)]))).toEqual(["working_hours[0].close_hour:invalid"]);
  });

  test("bad booleans and closed together with open_all_day", () => {
    expect(codes(() => parseWorkingHours([{ day_of_week: 1, closed_all_day: "yes" }]))).toEqual([
      "working_hours[0].closed_all_day:invalid",
    ]);
    expect(codes(() => parseWorkingHours([{ day_of_week: 1, open_all_day: 2 }]))).toEqual([
      "working_hours[0].open_all_day:invalid",
    ]);
    expect(codes(() => parseWorkingHours([{ day_of_week: 1, open_all_day: true, closed_all_day: true }]))).toEqual([
      "working_hours[0].open_all_day:invalid",
    ]);
  });

  test("overlapping intervals on one day", () => {
    const errors = errorsOf(() => parseWorkingHours([open(1, 9, 13), open(1, 12, 17)]));
    expect(errors).toEqual([{ field: "working_hours[1]", message: "overlaps working_hours[0]", code: "overlap" }]);
    // Same interval twice, and an interval inside another.
    expect(codes(() => parseWorkingHours([open(1, 9, 17), open(1, 9, 17)]))).toEqual(["working_hours[1]:overlap"]);
    expect(codes(() => parseWorkingHours([open(1, 10, 11), open(1, 9, 17)]))).toEqual(["working_hours[1]:overlap"]);
  });

  test("overlap created by a wrap past midnight into the next day", () => {
    // Mon 22:00-02:00 reaches Tue 02:00; Tue 01:00-05:00 collides.
    const errors = errorsOf(() => parseWorkingHours([open(2, 1, 5), open(1, 22, 2)]));
    expect(errors).toEqual([{ field: "working_hours[1]", message: "overlaps working_hours[0]", code: "overlap" }]);
    // Touching is fine: Mon 22:00-02:00 then Tue 02:00-05:00.
    expect(parseWorkingHours([open(1, 22, 2), open(2, 2, 5)])).toEqual([[D + 22 * H, 2 * D + 5 * H]]);
  });

  test("overlap from Saturday wrapping into Sunday", () => {
    expect(codes(() => parseWorkingHours([open(0, 1, 3), open(6, 23, 2)]))).toEqual(["working_hours[1]:overlap"]);
    expect(codes(() => parseWorkingHours([{ day_of_week: 0, open_all_day: true }, open(6, 22, 0, 0, 30)]))).toEqual([
      "working_hours[1]:overlap",
    ]);
    // Saturday 22:00-24:00 next to Sunday 00:00 is fine.
    expect(parseWorkingHours([open(6, 22, 24), open(0, 0, 2)])).toEqual([
      [0, 2 * H],
      [6 * D + 22 * H, 7 * D],
    ]);
  });

  test("overlap with an open_all_day entry, one item per offending entry", () => {
    expect(
      codes(() =>
        parseWorkingHours([{ day_of_week: 3, open_all_day: true }, open(3, 9, 10), open(3, 11, 12), open(4, 9, 17)]),
      ),
    ).toEqual(["working_hours[1]:overlap", "working_hours[2]:overlap"]);
  });

  test("closed_all_day never overlaps, even next to an open entry for the same day", () => {
    expect(parseWorkingHours([{ day_of_week: 1, closed_all_day: true }, open(1, 9, 17)])).toEqual([
      [D + 9 * H, D + 17 * H],
    ]);
  });

  test("collects every problem in one error, field errors first, then overlaps", () => {
    const errors = errorsOf(() =>
      parseWorkingHours([open(1, 9, 17), "x", { day_of_week: 9, open_hour: 9, close_hour: 99 }, open(1, 16, 18)]),
    );
    expect(errors.map((e) => `${e.field}:${e.code}`)).toEqual([
      "working_hours[1]:invalid",
      "working_hours[2].day_of_week:invalid",
      "working_hours[2].close_hour:invalid",
      "working_hours[3]:overlap",
    ]);
  });
});

describe("validateTimeZone", () => {
  test("accepts IANA names and returns the canonical spelling", () => {
    expect(validateTimeZone("UTC")).toBe("UTC");
    expect(validateTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(validateTimeZone("America/New_York")).toBe("America/New_York");
    expect(validateTimeZone("america/new_york")).toBe("America/New_York");
    expect(validateTimeZone("Etc/GMT+5")).toBe("Etc/GMT+5");
  });

  test("rejects Rails names, offsets, unknown zones and non-strings", () => {
    for (const bad of [
      "Eastern Time (US & Canada)",
      "+01:00",
      "Mars/Olympus_Mons",
      "",
      " UTC",
      5,
      null,
      undefined,
      {},
    ]) {
      expect(codes(() => validateTimeZone(bad))).toEqual(["timezone:invalid"]);
    }
    expect(codes(() => validateTimeZone("Nowhere/Town", "inbox.timezone"))).toEqual(["inbox.timezone:invalid"]);
  });
});
