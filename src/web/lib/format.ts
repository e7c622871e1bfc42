// Times and names as the screens show them, in the current language. Pure functions apart from that
// (tested in test/web/inbox-helpers.test.ts).
import { mentionsAsText } from "../../shared/mentions.ts";
import { dateLocale, t, tn } from "./i18n.ts";

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** "now", "5m", "3h", "2d", then a short date: the list's compact age of a conversation. */
export function shortAge(unixSeconds: number, nowMs = Date.now()): string {
  const age = Math.max(0, Math.floor(nowMs / 1000) - unixSeconds);
  if (age < MINUTE) return t("time.now");
  if (age < HOUR) return `${Math.floor(age / MINUTE)}m`;
  if (age < DAY) return `${Math.floor(age / HOUR)}h`;
  if (age < 7 * DAY) return `${Math.floor(age / DAY)}d`;
  return new Date(unixSeconds * 1000).toLocaleDateString(dateLocale(), { month: "short", day: "numeric" });
}

/** "5 minutes ago" style, for screen readers next to shortAge. */
export function longAge(unixSeconds: number, nowMs = Date.now()): string {
  const age = Math.max(0, Math.floor(nowMs / 1000) - unixSeconds);
  if (age < MINUTE) return t("time.just_now");
  if (age < HOUR) return tn("time.minutes_ago", Math.floor(age / MINUTE));
  if (age < DAY) return tn("time.hours_ago", Math.floor(age / HOUR));
  if (age < 7 * DAY) return tn("time.days_ago", Math.floor(age / DAY));
  return t("time.on", { date: dateTime(unixSeconds) });
}

export function dateTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleString(dateLocale(), { dateStyle: "medium", timeStyle: "short" });
}

export function time(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleTimeString(dateLocale(), { hour: "2-digit", minute: "2-digit" });
}

export function initials(name: string): string {
  const letters = name
    .trim()
    .split(/\s+/)
    .map((w) => w[0] ?? "");
  return ((letters[0] ?? "") + (letters.length > 1 ? letters[letters.length - 1] : "")).toUpperCase() || "?";
}

/** The unread badge: Chatwoot's list caps the count at 10. */
export function unreadBadge(count: number): string {
  return count >= 10 ? "9+" : String(count);
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A <input type="datetime-local"> value (local time, minutes) for a moment. */
export function localInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A report's average time: "45s", "12m", "3h 5m", "2d 4h"; "—" when there is none. */
export function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "—";
  const s = Math.round(seconds);
  if (s < MINUTE) return `${s}s`;
  if (s < HOUR) return `${Math.round(s / MINUTE)}m`;
  if (s < DAY) return `${Math.floor(s / HOUR)}h ${Math.round((s % HOUR) / MINUTE)}m`;
  return `${Math.floor(s / DAY)}d ${Math.round((s % DAY) / HOUR)}h`;
}

/** A message's text on one line, mentions as "@Name": what a list row or a quote shows of it. */
export function oneLine(content: string | null): string {
  return mentionsAsText(content ?? "")
    .replace(/\s+/g, " ")
    .trim();
}
