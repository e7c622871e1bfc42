// Seconds of business time between two instants, for reporting events' value_in_business_hours and for
// out-of-office checks. The schedule is wall-clock time in the inbox's zone, so DST matters.
//
// Semantics (what "exact" means here): every occurrence of a local interval [Ls, Le) is turned into real
// instants [f(Ls), f(Le)), where f maps a wall-clock time to the instant it is shown:
//   - a wall time that does not exist (spring-forward gap) maps to the instant the clock jumps;
//   - an ambiguous wall time (fall-back repeat) maps to its first occurrence.
// The answer is the length of the union of those real spans intersected with [start, end).
// Consequence on a fall-back night: the repeated real hour counts, as a whole, exactly when some interval
// runs across the end of the repeated wall-clock block (00:00-03:00 covers it: 4 real hours), and not at
// all when an interval ends inside the block (00:00-01:30 is 1.5 real hours, ending at the first 01:30).
//
// How it stays cheap: between two UTC-offset transitions f is just "local - offset", so the business time
// of a real range is a difference of a weekly prefix sum (O(intervals), no loop over days or weeks). Only
// the transitions themselves need Intl; they are found once per zone and 64-day bucket and cached, so a
// year-long call touches Intl ~450 times on first use and never afterwards. Pure module.

import type { WeeklySchedule } from "./working-hours.ts";

const DAY = 86_400;
const WEEK = 7 * DAY;
/** 1969-12-28 00:00 (a Sunday) in "local seconds": wall-clock time read as if it were UTC. */
const SUNDAY_ORIGIN = -4 * DAY;
/** Transitions are searched in year 1..9999 only; outside, the offset at the edge is assumed. */
const MIN_INSTANT = -62_135_596_800;
const MAX_INSTANT = 253_402_300_799;
/** Transition cache granularity; sampling step inside a bucket is one day. */
const BUCKET = 64 * DAY;
/** Longest fall-back repeat we look back for (real ones are 30 min to 2 h). */
const MARGIN = DAY;
const MAX_BUCKETS_PER_ZONE = 4096;

interface Transition {
  /** First instant (Unix seconds) showing the new offset. */
  at: number;
  /** UTC offsets in seconds (local = utc + offset) just before and from `at`. */
  before: number;
  after: number;
}

interface Bucket {
  /** Offset at the instant before the bucket starts. */
  offsetBefore: number;
  /** Transitions with `at` inside [bucket start, bucket end), ascending. */
  transitions: Transition[];
}

const CLOCK = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/;

/** Days since 1970-01-01 of a proleptic Gregorian date (civil-from-days inverted; avoids Date's 0..99 quirk). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Zones whose offset never changes (UTC is the inbox default): no transition search at all. */
const FIXED_ZONE = /^(Etc\/)?(UTC|UCT|GMT|GMT0|GMT[+-]\d{1,2}|Universal|Zulu|Greenwich)$/i;

class Zone {
  private readonly fmt: Intl.DateTimeFormat;
  private readonly buckets = new Map<number, Bucket>();
  private readonly fixed: number | null;

  constructor(timeZone: string) {
    // One formatter per zone: constructing one costs far more than formatting with it.
    this.fmt = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    this.fixed = FIXED_ZONE.test(timeZone) ? this.probe(0) : null;
  }

  /** UTC offset in seconds at a whole-second instant, straight from Intl. */
  private probe(unix: number): number {
    const t = Math.min(MAX_INSTANT, Math.max(MIN_INSTANT, unix));
    const m = CLOCK.exec(this.fmt.format(t * 1000));
    if (!m) throw new Error(`unexpected clock format for ${this.fmt.resolvedOptions().timeZone}`);
    const local = daysFromCivil(+m[3]!, +m[1]!, +m[2]!) * DAY + +m[4]! * 3600 + +m[5]! * 60 + +m[6]!;
    return local - t;
  }

  private bucket(index: number): Bucket {
    const cached = this.buckets.get(index);
    if (cached) return cached;
    const start = index * BUCKET;
    const last = start + BUCKET - 1;
    const transitions: Transition[] = [];
    const offsetBefore = this.probe(start - 1);
    let lo = start - 1;
    let loOffset = offsetBefore;
    // Sample daily; where the offset differs, bisect to the exact second (repeat in case of two changes).
    for (let t = Math.min(start - 1 + DAY, last); ; t = Math.min(t + DAY, last)) {
      const tOffset = this.probe(t);
      while (tOffset !== loOffset) {
        let a = lo;
        let b = t;
        while (b - a > 1) {
          const mid = Math.floor((a + b) / 2);
          if (this.probe(mid) === loOffset) a = mid;
          else b = mid;
        }
        const after = this.probe(b);
        transitions.push({ at: b, before: loOffset, after });
        lo = b;
        loOffset = after;
      }
      lo = t;
      if (t >= last) break;
    }
    if (this.buckets.size >= MAX_BUCKETS_PER_ZONE) this.buckets.clear();
    const made = { offsetBefore, transitions };
    this.buckets.set(index, made);
    return made;
  }

  /** Offset in effect at `unix`, from the cache. */
  offsetAt(unix: number): number {
    if (this.fixed !== null) return this.fixed;
    const b = this.bucket(Math.floor(clampInstant(unix) / BUCKET));
    let offset = b.offsetBefore;
    for (const tr of b.transitions) {
      if (tr.at > unix) break;
      offset = tr.after;
    }
    return offset;
  }

  /** Calls `visit` for each transition with from < at < to, ascending. */
  eachTransition(from: number, to: number, visit: (tr: Transition) => void): void {
    if (this.fixed !== null) return;
    const first = Math.floor(clampInstant(from) / BUCKET);
    const lastIndex = Math.floor(clampInstant(to) / BUCKET);
    for (let i = first; i <= lastIndex; i++) {
      for (const tr of this.bucket(i).transitions) if (tr.at > from && tr.at < to) visit(tr);
    }
  }
}

function clampInstant(unix: number): number {
  return Math.min(MAX_INSTANT, Math.max(MIN_INSTANT, unix));
}

const zones = new Map<string, Zone>();

function zone(timeZone: string): Zone {
  let z = zones.get(timeZone);
  if (!z) {
    if (zones.size >= 1024) zones.clear(); // zone names are validated, so this only guards misuse
    z = new Zone(timeZone);
    zones.set(timeZone, z);
  }
  return z;
}

/** Business seconds in local [SUNDAY_ORIGIN, local): whole weeks times the weekly total, plus a prefix. */
function cumulative(local: number, schedule: WeeklySchedule, weekTotal: number): number {
  const x = local - SUNDAY_ORIGIN;
  const weeks = Math.floor(x / WEEK);
  const r = x - weeks * WEEK;
  let acc = weeks * weekTotal;
  for (const [s, e] of schedule) {
    const start = s * 60;
    if (r <= start) break;
    acc += Math.min(r, e * 60) - start;
  }
  return acc;
}

/** Whether the local wall-clock second starting at `local` lies inside an interval. */
function covers(local: number, schedule: WeeklySchedule): boolean {
  const x = local - SUNDAY_ORIGIN;
  const r = x - Math.floor(x / WEEK) * WEEK;
  for (const [s, e] of schedule) {
    if (r < s * 60) return false;
    if (r < e * 60) return true;
  }
  return false;
}

/**
 * Seconds in the real range [startUnix, endUnix) that fall inside the schedule's intervals, read as wall
 * clock in `timeZone` (an IANA name; see validateTimeZone). 0 for empty or reversed ranges and for an
 * empty schedule. Exact for whole-second inputs (fractions are handled proportionally).
 */
export function businessSeconds(
  startUnix: number,
  endUnix: number,
  schedule: WeeklySchedule,
  timeZone: string,
): number {
  if (!Number.isFinite(startUnix) || !Number.isFinite(endUnix) || !(endUnix > startUnix)) return 0;
  let weekTotal = 0;
  for (const [s, e] of schedule) weekTotal += (e - s) * 60;
  if (weekTotal === 0) return 0;

  const z = zone(timeZone);
  // Real [a, b) at a constant offset: f is linear there, so it is a prefix-sum difference in local time.
  const linear = (a: number, b: number, offset: number): number =>
    cumulative(b + offset, schedule, weekTotal) - cumulative(a + offset, schedule, weekTotal);

  let total = 0;
  let cursor = startUnix;
  // Start one margin early so a fall-back repeat already running at startUnix is seen.
  let offset = z.offsetAt(startUnix - MARGIN);
  z.eachTransition(startUnix - MARGIN, endUnix, (tr) => {
    if (tr.at > cursor) {
      total += linear(cursor, tr.at, offset);
      cursor = tr.at;
    }
    offset = tr.after;
    const repeat = tr.before - tr.after;
    if (repeat > 0) {
      // Real [at, at + repeat) shows wall times already shown once. By first-occurrence mapping it is
      // inside an interval iff the wall-clock second just before the repeat ends (at + before - 1, as
      // first shown) is: then that interval's end maps past the repeat, its start before it.
      const blockEnd = Math.min(tr.at + repeat, endUnix);
      if (blockEnd > cursor) {
        if (covers(tr.at + tr.before - 1, schedule)) total += blockEnd - cursor;
        cursor = blockEnd;
      }
    }
  });
  if (endUnix > cursor) total += linear(cursor, endUnix, offset);
  return total;
}

/**
 * Whether the instant is inside business hours, consistent with businessSeconds (it asks for the second
 * containing `unix`; schedule boundaries are whole minutes, so that second is either all in or all out).
 */
export function isWithinBusinessHours(unix: number, schedule: WeeklySchedule, timeZone: string): boolean {
  if (!Number.isFinite(unix)) return false;
  const second = Math.floor(unix);
  return businessSeconds(second, second + 1, schedule, timeZone) > 0;
}
