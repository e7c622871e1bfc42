// An inbox's weekly working hours: validation of the Chatwoot-style wire entries, the cleaned entries we
// store (and show back), and the minute-of-week schedule that business-hours arithmetic runs on.
//
// Wire entry (Chatwoot-compatible, extended):
//   { day_of_week: 0..6 (0 = Sunday), closed_all_day?, open_all_day?,
//     open_hour?: 0..23, open_minutes?: 0..59, close_hour?: 0..24, close_minutes?: 0..59 }
// Chatwoot keeps exactly one entry per day. We also accept several entries per day (a lunch break is two
// intervals) and intervals whose close time is at or before their open time: those run past midnight into
// the next day (Fri 22:00-02:00 = Fri 22:00-24:00 + Sat 00:00-02:00; Sat wraps into Sunday).
// `close_hour: 24` (with minutes 0) means "until the end of the day".
// Pure module: no web or database imports.

import { FieldErrors } from "./errors.ts";

export const MINUTES_PER_DAY = 1440;
export const MINUTES_PER_WEEK = 10_080;

/** One entry as stored on the inbox and rendered back by the API (numbers cleaned, booleans explicit). */
export interface WorkingHoursEntry {
  day_of_week: number;
  closed_all_day: boolean;
  open_all_day: boolean;
  /** null on closed days; 0/0-24/0 on open_all_day days so the entry reads back unambiguously. */
  open_hour: number | null;
  open_minutes: number | null;
  close_hour: number | null;
  close_minutes: number | null;
}

/** Half-open interval [start, end) in minutes since Sunday 00:00 local time, 0 <= start < end <= 10080. */
export type WorkingInterval = readonly [start: number, end: number];

/**
 * Sorted, non-overlapping, non-touching intervals (touching ones are merged). A wrap past Saturday 24:00
 * is split into an end-of-week part and a Sunday part, so every interval fits inside one week.
 */
export type WeeklySchedule = readonly WorkingInterval[];

function closedDay(day: number): WorkingHoursEntry {
  return {
    day_of_week: day,
    closed_all_day: true,
    open_all_day: false,
    open_hour: null,
    open_minutes: null,
    close_hour: null,
    close_minutes: null,
  };
}

function openDay(day: number, openHour: number, closeHour: number): WorkingHoursEntry {
  return {
    day_of_week: day,
    closed_all_day: false,
    open_all_day: false,
    open_hour: openHour,
    open_minutes: 0,
    close_hour: closeHour,
    close_minutes: 0,
  };
}

/** Chatwoot's default for a new inbox: Monday-Friday 09:00-17:00, Saturday and Sunday closed. */
export const DEFAULT_WORKING_HOURS: readonly Readonly<WorkingHoursEntry>[] = Object.freeze(
  [0, 1, 2, 3, 4, 5, 6].map((d) => Object.freeze(d === 0 || d === 6 ? closedDay(d) : openDay(d, 9, 17))),
);

// ---- reading loosely typed input ----------------------------------------------------------------------

const ABSENT = Symbol("absent");
const BAD = Symbol("bad");

/** Integers, or strings of digits (form bodies send "9"); "" and null count as absent. */
function readInt(value: unknown): number | typeof ABSENT | typeof BAD {
  if (value === undefined || value === null || value === "") return ABSENT;
  if (typeof value === "number") return Number.isInteger(value) ? value : BAD;
  if (typeof value === "string" && /^\s*[+-]?\d{1,6}\s*$/.test(value)) return Number.parseInt(value, 10);
  return BAD;
}

/** true/false, and the spellings form bodies and Rails clients use ("true", "1", 0 ...). Absent = false. */
function readBool(value: unknown): boolean | typeof BAD {
  if (value === undefined || value === null || value === "") return false;
  if (value === true || value === 1 || value === "true" || value === "1") return true;
  if (value === false || value === 0 || value === "false" || value === "0") return false;
  return BAD;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The entry's own span in minutes of the week; end may exceed 10080 when Saturday wraps into Sunday. */
function entrySpan(e: WorkingHoursEntry): [number, number] | null {
  if (e.closed_all_day) return null;
  const dayStart = e.day_of_week * MINUTES_PER_DAY;
  if (e.open_all_day) return [dayStart, dayStart + MINUTES_PER_DAY];
  if (e.open_hour === null || e.close_hour === null) return null;
  const open = e.open_hour * 60 + (e.open_minutes ?? 0);
  let close = e.close_hour * 60 + (e.close_minutes ?? 0);
  // Close at or before open: the interval runs past midnight into the next day.
  if (close <= open) close += MINUTES_PER_DAY;
  return [dayStart + open, dayStart + close];
}

/** Splits a span at the end of the week so both parts lie inside [0, 10080). */
function weekSegments(span: [number, number]): [number, number][] {
  const [start, end] = span;
  if (end <= MINUTES_PER_WEEK) return [[start, end]];
  return [
    [start, MINUTES_PER_WEEK],
    [0, end - MINUTES_PER_WEEK],
  ];
}

// ---- validation ----------------------------------------------------------------------------------------

/**
 * Validates wire entries and returns the cleaned entries to store, in the order given (the API shows
 * them back as sent). Throws ValidationError with one item per bad field, e.g. `working_hours[2].open_hour`.
 * On closed_all_day / open_all_day entries the time fields are ignored (Chatwoot's UI sends stale ones).
 */
export function normaliseEntries(input: unknown, field = "working_hours"): WorkingHoursEntry[] {
  const errors = new FieldErrors();
  if (!Array.isArray(input)) {
    errors.add(field, "must be an array of working hours entries", "invalid").throwIfAny();
    return [];
  }
  const entries: WorkingHoursEntry[] = [];
  const indexOf: number[] = []; // entries[k] came from input[indexOf[k]]
  input.forEach((raw: unknown, i: number) => {
    const at = `${field}[${i}]`;
    if (!isPlainObject(raw)) {
      errors.add(at, "must be an object", "invalid");
      return;
    }
    const before = errors.items.length;
    const day = readInt(raw.day_of_week);
    if (day === ABSENT) errors.add(`${at}.day_of_week`, "is required", "required");
    else if (day === BAD || day < 0 || day > 6)
      errors.add(`${at}.day_of_week`, "must be an integer from 0 (Sunday) to 6 (Saturday)", "invalid");
    const closed = readBool(raw.closed_all_day);
    if (closed === BAD) errors.add(`${at}.closed_all_day`, "must be true or false", "invalid");
    const allDay = readBool(raw.open_all_day);
    if (allDay === BAD) errors.add(`${at}.open_all_day`, "must be true or false", "invalid");
    if (closed === true && allDay === true)
      errors.add(`${at}.open_all_day`, "cannot be combined with closed_all_day", "invalid");

    let times: [number, number, number, number] | null = null;
    // Times matter only on a plain open day; with an unreadable flag we can't tell, so say only that.
    if (closed === false && allDay === false) {
      const part = (name: string, max: number, required: boolean): number | null => {
        const v = readInt(raw[name]);
        if (v === ABSENT) {
          if (!required) return 0; // minutes default to 0, as in Chatwoot's UI
          errors.add(`${at}.${name}`, "is required", "required");
          return null;
        }
        if (v === BAD || v < 0 || v > max) {
          errors.add(`${at}.${name}`, `must be an integer from 0 to ${max}`, "invalid");
          return null;
        }
        return v;
      };
      const oh = part("open_hour", 23, true);
      const om = part("open_minutes", 59, false);
      const ch = part("close_hour", 24, true);
      const cm = part("close_minutes", 59, false);
      if (ch === 24 && cm !== null && cm !== 0)
        errors.add(`${at}.close_minutes`, "must be 0 when close_hour is 24", "invalid");
      else if (oh !== null && om !== null && ch !== null && cm !== null) {
        // Equal times would be either empty or a full 24 h; make the caller say which.
        if (oh * 60 + om === ch * 60 + cm)
          errors.add(`${at}.close_hour`, "must differ from the opening time (use open_all_day for 24 h)", "invalid");
        else times = [oh, om, ch, cm];
      }
    }
    if (errors.items.length > before || typeof day !== "number" || closed === BAD || allDay === BAD) return;
    if (closed) entries.push(closedDay(day));
    else if (allDay) entries.push({ ...openDay(day, 0, 24), open_all_day: true });
    else if (times) {
      const [oh, om, ch, cm] = times;
      entries.push({ ...openDay(day, oh, ch), open_minutes: om, close_minutes: cm });
    } else return;
    indexOf.push(i);
  });

  reportOverlaps(entries, indexOf, field, errors);
  errors.throwIfAny();
  return entries;
}

/**
 * Two valid entries overlap when their week segments (after expanding past midnight and splitting at the
 * end of the week) share a minute; touching ends are fine. One `overlap` item per offending entry, on the
 * later one in input order, naming the earlier one it collides with.
 */
function reportOverlaps(entries: WorkingHoursEntry[], indexOf: number[], field: string, errors: FieldErrors): void {
  const segs: { start: number; end: number; input: number }[] = [];
  entries.forEach((e, k) => {
    const span = entrySpan(e);
    if (span) for (const [start, end] of weekSegments(span)) segs.push({ start, end, input: indexOf[k] ?? k });
  });
  segs.sort((a, b) => a.start - b.start || a.end - b.end);
  const reported = new Set<number>();
  let reach: (typeof segs)[number] | undefined; // the earlier segment that ends latest
  for (const seg of segs) {
    if (reach && seg.start < reach.end) {
      const later = Math.max(seg.input, reach.input);
      const earlier = Math.min(seg.input, reach.input);
      if (!reported.has(later)) {
        reported.add(later);
        errors.add(`${field}[${later}]`, `overlaps ${field}[${earlier}]`, "overlap");
      }
    }
    if (!reach || seg.end > reach.end) reach = seg;
  }
}

/** Builds the minute-of-week schedule from stored (already validated) entries; merges touching intervals. */
export function scheduleFromEntries(entries: readonly WorkingHoursEntry[]): WeeklySchedule {
  const segs: [number, number][] = [];
  for (const e of entries) {
    const span = entrySpan(e);
    if (span) segs.push(...weekSegments(span));
  }
  segs.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of segs) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Validates wire entries and returns the schedule they describe (see normaliseEntries for the errors). */
export function parseWorkingHours(input: unknown, field = "working_hours"): WeeklySchedule {
  return scheduleFromEntries(normaliseEntries(input, field));
}

/**
 * IANA zone names only ("UTC", "Europe/Berlin", "America/New_York"). Rails-style names Chatwoot's UI may
 * show ("Eastern Time (US & Canada)") are deliberately rejected: the engine can't resolve them without a
 * mapping table we'd have to keep in sync, and clients of the API send IANA names. Offset strings such as
 * "+01:00", which newer engines accept, are rejected too: they carry no DST rules. Returns the name in the
 * engine's canonical spelling ("europe/berlin" -> "Europe/Berlin"); aliases are kept as given.
 */
export function validateTimeZone(tz: unknown, field = "timezone"): string {
  const errors = new FieldErrors();
  if (typeof tz !== "string" || !/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(tz)) {
    errors.add(field, "must be an IANA time zone name such as Europe/Berlin", "invalid").throwIfAny();
    return "";
  }
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    errors.add(field, `is not a known IANA time zone: ${tz}`, "invalid").throwIfAny();
    return "";
  }
}
