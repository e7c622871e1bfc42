// Shared by the business-hours tests: instants written as ISO strings, working-hours entries in
// Chatwoot's shape, and the schedules the tests reuse (Mon-Fri 09:00-17:00; Sunday only).
import { DEFAULT_WORKING_HOURS, parseWorkingHours, scheduleFromEntries } from "../../src/domain/working-hours.ts";

export const HOUR = 3600;
/** Unix seconds of an ISO instant; every expectation is written with its local reading alongside. */
export const at = (iso: string): number => Date.parse(iso) / 1000;
export const open = (day: number, oh: number, ch: number, om = 0, cm = 0) => ({
  day_of_week: day,
  open_hour: oh,
  open_minutes: om,
  close_hour: ch,
  close_minutes: cm,
});
export const sunday = (oh: number, om: number, ch: number, cm: number) => parseWorkingHours([open(0, oh, ch, om, cm)]);
export const allDaySunday = parseWorkingHours([{ day_of_week: 0, open_all_day: true }]);

export const nineToFive = scheduleFromEntries(DEFAULT_WORKING_HOURS); // Mon-Fri 09:00-17:00
// 2024-01-01 is a Monday.
