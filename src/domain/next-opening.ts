// When an inbox next opens: the website chat's "we are away, back at …". Found by bisecting
// businessSeconds (business-hours.ts) rather than walking the calendar, so time-zone transitions
// are handled the one way the reports already handle them.
import { businessSeconds } from "./business-hours.ts";
import type { WeeklySchedule } from "./working-hours.ts";

const HORIZON = 8 * 86_400; // a weekly schedule opens within a week, or never

/** The first second at or after `now` inside business hours, or null when the schedule never opens. */
export function nextOpening(now: number, schedule: WeeklySchedule, timeZone: string): number | null {
  const start = Math.floor(now);
  if (businessSeconds(start, start + HORIZON, schedule, timeZone) === 0) return null;
  let lo = start; // [start, lo) holds no business second
  let hi = start + HORIZON; // [start, hi) holds one
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (businessSeconds(start, mid, schedule, timeZone) > 0) hi = mid;
    else lo = mid;
  }
  return lo;
}
