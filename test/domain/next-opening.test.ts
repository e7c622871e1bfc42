// When an inbox next opens (the website chat's away notice): exact to the second, in the
// inbox's time zone, across a weekend and a daylight-saving change; never for a closed week.
import { describe, expect, test } from "bun:test";
import { nextOpening } from "../../src/domain/next-opening.ts";
import { DEFAULT_WORKING_HOURS, parseWorkingHours, scheduleFromEntries } from "../../src/domain/working-hours.ts";

const at = (iso: string) => Date.parse(iso) / 1000;
const nineToFive = scheduleFromEntries(DEFAULT_WORKING_HOURS); // Mon-Fri 09:00-17:00; 2024-01-01 is a Monday

describe("nextOpening", () => {
  test("inside hours it is now; after hours the next morning; on Friday evening Monday morning", () => {
    expect(nextOpening(at("2024-01-01T10:00:00Z"), nineToFive, "UTC")).toBe(at("2024-01-01T10:00:00Z"));
    expect(nextOpening(at("2024-01-01T17:00:00Z"), nineToFive, "UTC")).toBe(at("2024-01-02T09:00:00Z"));
    expect(nextOpening(at("2024-01-05T18:30:00Z"), nineToFive, "UTC")).toBe(at("2024-01-08T09:00:00Z"));
  });

  test("in the inbox's time zone, across the spring-forward night", () => {
    // Lisbon: 09:00 local is 09:00Z in winter, 08:00Z from Sunday 2024-03-31.
    expect(nextOpening(at("2024-03-29T18:00:00Z"), nineToFive, "Europe/Lisbon")).toBe(at("2024-04-01T08:00:00Z"));
    expect(nextOpening(at("2024-01-01T20:00:00Z"), nineToFive, "America/Sao_Paulo")).toBe(at("2024-01-02T12:00:00Z"));
  });

  test("a week with no hours never opens", () => {
    const closed = parseWorkingHours([0, 1, 2, 3, 4, 5, 6].map((d) => ({ day_of_week: d, closed_all_day: true })));
    expect(nextOpening(at("2024-01-01T10:00:00Z"), closed, "UTC")).toBeNull();
  });
});
