// Pure helpers of the web app: routes, time and badge formats, snooze times, shortcut keys.
import { describe, expect, test } from "bun:test";
import { duration, initials, localInputValue, shortAge, unreadBadge, longAge } from "../../src/web/lib/format.ts";
import { parseRoute, paths } from "../../src/web/lib/routes.ts";
import { shortcutOf, SHORTCUTS, type KeyLike } from "../../src/web/lib/shortcuts.ts";
import { snoozeChoices } from "../../src/web/lib/snooze.ts";

describe("routes", () => {
  test("the user's own profile settings, at Chatwoot's path", () => {
    expect(parseRoute("/app/accounts/3/profile/settings")).toEqual({ name: "profile", accountId: 3 });
    expect(paths.profile(3)).toBe("/app/accounts/3/profile/settings");
    expect(parseRoute("/app/accounts/3/profile")).toEqual({ name: "not-found" });
    expect(parseRoute("/app/accounts/3/profile/settings/4")).toEqual({ name: "not-found" });
  });

  test("the conversations screen, with and without an open conversation", () => {
    expect(parseRoute("/app/accounts/3/dashboard")).toEqual({
      name: "conversations",
      accountId: 3,
      conversationId: null,
    });
    expect(parseRoute("/app/accounts/3")).toEqual({ name: "conversations", accountId: 3, conversationId: null });
    expect(parseRoute("/app/accounts/3/conversations/42/")).toEqual({
      name: "conversations",
      accountId: 3,
      conversationId: 42,
    });
    expect(parseRoute(paths.conversation(3, 42))).toEqual(parseRoute("/app/accounts/3/conversations/42"));
  });
  test("settings sections and their records", () => {
    expect(parseRoute("/app/accounts/3/settings/inboxes/7")).toEqual({
      name: "settings",
      accountId: 3,
      section: "inboxes",
      itemId: 7,
    });
    expect(parseRoute(paths.settings(3, "webhooks"))).toEqual({
      name: "settings",
      accountId: 3,
      section: "webhooks",
      itemId: null,
    });
    expect(parseRoute("/app/settings")).toEqual({ name: "settings", accountId: null, section: null, itemId: null });
  });
  test("the contacts list and one contact's page", () => {
    expect(parseRoute("/app/accounts/3/contacts")).toEqual({ name: "contacts", accountId: 3, contactId: null });
    expect(parseRoute(paths.contacts(3, 17))).toEqual({ name: "contacts", accountId: 3, contactId: 17 });
  });
  test("anything else is not found", () => {
    for (const p of [
      "/app/accounts/3/contacts/x",
      "/app/accounts/3/contacts/1/2",
      "/app/accounts/x",
      "/app/accounts/3/conversations",
      "/app/accounts/3/conversations/abc",
      "/app/accounts/3/settings/inboxes/x",
      "/app/accounts/3/dashboard/1",
    ]) {
      expect(parseRoute(p)).toEqual({ name: "not-found" });
    }
  });
});

describe("format", () => {
  const now = 1_700_000_000_000;
  const ago = (s: number) => now / 1000 - s;
  test("compact and spoken ages", () => {
    expect([0, 59, 60, 3599, 3600, 86399, 86400, 6 * 86400].map((s) => shortAge(ago(s), now))).toEqual([
      "now",
      "now",
      "1m",
      "59m",
      "1h",
      "23h",
      "1d",
      "6d",
    ]);
    expect([0, 60, 120, 3600, 2 * 86400].map((s) => longAge(ago(s), now))).toEqual([
      "just now",
      "1 minute ago",
      "2 minutes ago",
      "1 hour ago",
      "2 days ago",
    ]);
  });
  test("report durations", () => {
    expect([null, 45, 95, 3600, 5400, 86400 + 7200, Number.NaN].map(duration)).toEqual([
      "—",
      "45s",
      "2m",
      "1h 0m",
      "1h 30m",
      "1d 2h",
      "—",
    ]);
  });
  test("badges, initials, datetime-local values", () => {
    expect([unreadBadge(1), unreadBadge(9), unreadBadge(10)]).toEqual(["1", "9", "9+"]);
    expect([initials("Dana Q Customer"), initials("  "), initials("bea")]).toEqual(["DC", "?", "B"]);
    expect(localInputValue(new Date(2026, 0, 5, 7, 3))).toBe("2026-01-05T07:03");
  });
});

describe("snooze choices", () => {
  test("until a reply, an hour, tomorrow 9:00, next Monday 9:00 (a week on from a Monday)", () => {
    const wednesday = new Date(2026, 2, 4, 15, 30); // Wed 4 March 2026
    const choices = snoozeChoices(wednesday).map((c) =>
      c.until === null ? null : new Date(c.until * 1000).toString(),
    );
    expect(choices).toEqual([
      null,
      new Date(2026, 2, 4, 16, 30).toString(),
      new Date(2026, 2, 5, 9).toString(),
      new Date(2026, 2, 9, 9).toString(),
    ]);
    const monday = new Date(2026, 2, 9, 8);
    expect(new Date(snoozeChoices(monday)[3]!.until! * 1000).toString()).toBe(new Date(2026, 2, 16, 9).toString());
  });
});

describe("shortcuts", () => {
  const field = { matches: (s: string) => s.includes("input"), closest: () => null };
  const key = (k: string, more: Partial<KeyLike> = {}): KeyLike => ({
    key: k,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    target: null,
    ...more,
  });
  test("each key of the list", () => {
    expect(["j", "k", "r", "p", "e", "?", "x"].map((k) => shortcutOf(key(k)))).toEqual([
      "next",
      "previous",
      "reply",
      "note",
      "resolve",
      "help",
      null,
    ]);
    expect([
      shortcutOf(key("ArrowDown", { altKey: true })),
      shortcutOf(key("ArrowUp", { altKey: true })),
      shortcutOf(key("j", { altKey: true })),
    ]).toEqual(["next", "previous", null]);
    expect(SHORTCUTS.map((s) => s.action)).toEqual(["next", "previous", "reply", "note", "resolve", "help"]);
  });
  test("never while typing in a field, nor with Ctrl or Meta", () => {
    expect(shortcutOf(key("j", { target: field as unknown as EventTarget }))).toBeNull();
    expect(shortcutOf(key("ArrowDown", { altKey: true, target: field as unknown as EventTarget }))).toBeNull();
    expect([shortcutOf(key("r", { ctrlKey: true })), shortcutOf(key("e", { metaKey: true }))]).toEqual([null, null]);
  });
});
