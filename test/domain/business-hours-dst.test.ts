// businessSeconds across daylight-saving transitions (America/New_York, Europe/Berlin), and checked
// against an independent minute-by-minute reference around transitions in many zones.
import { describe, expect, test } from "bun:test";
import { businessSeconds } from "../../src/domain/business-hours.ts";
import { type WeeklySchedule, parseWorkingHours } from "../../src/domain/working-hours.ts";
import { HOUR, allDaySunday, at, nineToFive, open, sunday } from "../helpers/working-hours-fixtures.ts";

describe("businessSeconds: DST in America/New_York", () => {
  const NY = "America/New_York";
  // Spring: Sun 2024-03-10, 02:00 EST (07:00Z) jumps to 03:00 EDT. Local day = 05:00Z .. 2024-03-11T04:00Z.
  const springDay: [number, number] = [at("2024-03-10T05:00:00Z"), at("2024-03-11T04:00:00Z")];
  // Fall: Sun 2024-11-03, 02:00 EDT (06:00Z) falls back to 01:00 EST. Local day = 04:00Z .. 2024-11-04T05:00Z.
  const fallDay: [number, number] = [at("2024-11-03T04:00:00Z"), at("2024-11-04T05:00:00Z")];

  test("spring forward: 01:00-04:00 is only 2 real hours", () => {
    expect(businessSeconds(...springDay, sunday(1, 0, 4, 0), NY)).toBe(2 * HOUR);
    expect(businessSeconds(...springDay, allDaySunday, NY)).toBe(23 * HOUR);
  });

  test("spring forward: a boundary in the gap maps to the jump instant", () => {
    expect(businessSeconds(...springDay, sunday(2, 30, 4, 0), NY)).toBe(1 * HOUR); // 07:00Z-08:00Z
    expect(businessSeconds(...springDay, sunday(1, 0, 2, 30), NY)).toBe(1 * HOUR); // 06:00Z-07:00Z
    expect(businessSeconds(...springDay, sunday(2, 15, 2, 45), NY)).toBe(0); // entirely in the gap
  });

  test("spring forward: a reply clipped inside the day", () => {
    // 01:30 EST (06:30Z) -> 03:30 EDT (07:30Z) with 01:00-04:00 open: 1 real hour.
    expect(businessSeconds(at("2024-03-10T06:30:00Z"), at("2024-03-10T07:30:00Z"), sunday(1, 0, 4, 0), NY)).toBe(HOUR);
  });

  test("fall back: 00:00-03:00 covering the repeated hour is 4 real hours", () => {
    expect(businessSeconds(...fallDay, sunday(0, 0, 3, 0), NY)).toBe(4 * HOUR);
    expect(businessSeconds(...fallDay, allDaySunday, NY)).toBe(25 * HOUR);
  });

  test("fall back: an ambiguous boundary maps to its first occurrence", () => {
    expect(businessSeconds(...fallDay, sunday(1, 30, 3, 0), NY)).toBe(2.5 * HOUR); // 05:30Z-08:00Z
    expect(businessSeconds(...fallDay, sunday(0, 0, 1, 30), NY)).toBe(1.5 * HOUR); // 04:00Z-05:30Z
    expect(businessSeconds(...fallDay, sunday(1, 0, 1, 30), NY)).toBe(0.5 * HOUR); // 05:00Z-05:30Z
    expect(businessSeconds(...fallDay, sunday(1, 0, 2, 0), NY)).toBe(2 * HOUR); // 05:00Z-07:00Z
  });

  test("fall back: a reply starting inside the repeated hour", () => {
    // 06:30Z is the second 01:30 (EST). 00:00-03:00 open: 06:30Z-08:00Z all count = 1.5 h.
    expect(businessSeconds(at("2024-11-03T06:30:00Z"), at("2024-11-03T08:00:00Z"), sunday(0, 0, 3, 0), NY)).toBe(
      1.5 * HOUR,
    );
    // With 00:00-01:30 open the second 01:30 is after closing: nothing counts.
    expect(businessSeconds(at("2024-11-03T06:30:00Z"), at("2024-11-03T08:00:00Z"), sunday(0, 0, 1, 30), NY)).toBe(0);
  });

  test("weekday 09-17 hours are untouched by weekend transitions", () => {
    // Fri 2024-03-08 16:00 EST (21:00Z) -> Mon 2024-03-11 10:00 EDT (14:00Z) = 2 h.
    expect(businessSeconds(at("2024-03-08T21:00:00Z"), at("2024-03-11T14:00:00Z"), nineToFive, NY)).toBe(2 * HOUR);
  });
});

describe("businessSeconds: DST in Europe/Berlin", () => {
  const BER = "Europe/Berlin";
  // Spring: Sun 2024-03-31, 02:00 CET (01:00Z) jumps to 03:00 CEST. Local day = 2024-03-30T23:00Z .. 22:00Z.
  const springDay: [number, number] = [at("2024-03-30T23:00:00Z"), at("2024-03-31T22:00:00Z")];
  // Fall: Sun 2024-10-27, 03:00 CEST (01:00Z) falls back to 02:00 CET. Local day = 2024-10-26T22:00Z .. 23:00Z.
  const fallDay: [number, number] = [at("2024-10-26T22:00:00Z"), at("2024-10-27T23:00:00Z")];

  test("spring forward: 01:00-04:00 is 2 real hours, the day 23 h", () => {
    expect(businessSeconds(...springDay, sunday(1, 0, 4, 0), BER)).toBe(2 * HOUR);
    expect(businessSeconds(...springDay, allDaySunday, BER)).toBe(23 * HOUR);
  });

  test("fall back: 01:00-04:00 is 4 real hours, the day 25 h", () => {
    expect(businessSeconds(...fallDay, sunday(1, 0, 4, 0), BER)).toBe(4 * HOUR);
    expect(businessSeconds(...fallDay, allDaySunday, BER)).toBe(25 * HOUR);
  });

  test("fall back: 02:00-03:00 runs from the first 02:00 to the only 03:00", () => {
    expect(businessSeconds(...fallDay, sunday(2, 0, 3, 0), BER)).toBe(2 * HOUR); // 00:00Z-02:00Z
    expect(businessSeconds(...fallDay, sunday(2, 30, 3, 0), BER)).toBe(1.5 * HOUR); // 00:30Z-02:00Z
  });
});

// ---- reference check -------------------------------------------------------------------------------
// Independent restatement of the semantics: a real minute counts when the highest wall-clock time shown so
// far is inside the schedule (boundaries map to the jump instant in a gap and to the first occurrence in a
// repeat, which is the same thing). Computed minute by minute with a separate Intl formatter.

function runningMaxWallMinutes(tz: string, fromUnix: number, minutes: number): number[] {
  const fmt = new Intl.DateTimeFormat("en-GB", {
    timeZone: tz,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  });
  const out: number[] = [];
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < minutes; i++) {
    const p = Object.fromEntries(fmt.formatToParts((fromUnix + i * 60) * 1000).map((x) => [x.type, x.value]));
    max = Math.max(max, Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!) / 60_000);
    out.push(max);
  }
  return out;
}

function inSchedule(localMinute: number, schedule: WeeklySchedule): boolean {
  const mow = (((localMinute + 4 * 1440) % 10_080) + 10_080) % 10_080; // 1970-01-01 was a Thursday
  return schedule.some(([a, b]) => mow >= a && mow < b);
}

describe("agrees with a minute-by-minute reference around transitions", () => {
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((seed / 2_147_483_648) * n);
  };
  const randomSchedule = (): WeeklySchedule => {
    const points = [...new Set(Array.from({ length: 2 + rand(10) }, () => rand(672) * 15))].sort((a, b) => a - b);
    const out: [number, number][] = [];
    for (let i = 0; i + 1 < points.length; i += 2) out.push([points[i]!, points[i + 1]!]);
    return out;
  };
  const fixed: WeeklySchedule[] = [
    nineToFive,
    parseWorkingHours([0, 1, 2, 3, 4, 5, 6].map((d) => open(d, 22, 2))),
    parseWorkingHours([0, 1, 2, 3, 4, 5, 6].map((d) => open(d, 1, 3, 30, 0))),
    parseWorkingHours([0, 6].map((d) => ({ day_of_week: d, open_all_day: true }))),
  ];
  const cases: [string, string][] = [
    ["America/New_York", "2024-03-10"],
    ["America/New_York", "2024-11-03"],
    ["Europe/Berlin", "2024-03-31"],
    ["Europe/Berlin", "2024-10-27"],
    ["Australia/Lord_Howe", "2024-04-07"],
    ["Australia/Lord_Howe", "2024-10-06"], // 30-minute DST
    ["America/Santiago", "2024-04-07"],
    ["America/Sao_Paulo", "2018-11-04"], // transitions at midnight
    ["Antarctica/Troll", "2024-10-27"], // 2-hour fall back
    ["Pacific/Apia", "2011-12-30"], // skipped a whole day
  ];
  for (const [tz, day] of cases) {
    test(`${tz} around ${day}`, () => {
      const from = at(`${day}T12:00:00Z`) - 2 * 86_400;
      const minutes = 4 * 1440;
      const wall = runningMaxWallMinutes(tz, from, minutes);
      for (const schedule of [...fixed, randomSchedule(), randomSchedule(), randomSchedule()]) {
        for (let k = 0; k < 12; k++) {
          const s = 1440 + rand(minutes - 1440); // the first day only warms up the running maximum
          const e = k === 0 ? minutes : s + rand(minutes - s + 1);
          let expected = 0;
          for (let i = s; i < e; i++) if (inSchedule(wall[i]!, schedule)) expected += 60;
          expect({ s, e, got: businessSeconds(from + s * 60, from + e * 60, schedule, tz) }).toEqual({
            s,
            e,
            got: expected,
          });
        }
      }
    });
  }
});
