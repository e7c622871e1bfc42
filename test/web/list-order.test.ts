// The list's four orders (the API's sort_by) and the merges keeping to them: a conversation that
// arrives or changes between two loads goes where the chosen order puts it, not on top.
import { describe, expect, test } from "bun:test";
import {
  appendPage,
  DEFAULT_FILTERS,
  mergeFirstPage,
  PAGE_SIZE,
  replaceConversation,
} from "../../src/web/lib/list-merge.ts";
import { compareIn, sortConversations, type ListSort } from "../../src/web/lib/list-order.ts";
import type { Conversation, Priority } from "../../src/web/lib/types.ts";

/** A conversation with what the orders read: id (= creation order), last activity, priority, waiting since (0: not waiting). */
const conv = (id: number, activity: number, priority: Priority | null = null, waiting = 0) =>
  ({ id, last_activity_at: activity, priority, waiting_since: waiting, status: "open" }) as Conversation;
const ids = (list: readonly Conversation[]) => list.map((c) => c.id);
const filters = (sort: ListSort) => ({ ...DEFAULT_FILTERS, sort });

// 3 and 4 share their last activity; 2 and 4 are not waiting; 4 and 5 are both high.
const FIVE = [
  conv(1, 100, "low", 10),
  conv(2, 500, null, 0),
  conv(3, 300, "urgent", 30),
  conv(4, 300, "high", 0),
  conv(5, 200, "high", 20),
];
const shuffled = [FIVE[3]!, FIVE[0]!, FIVE[4]!, FIVE[2]!, FIVE[1]!];

describe("the orders", () => {
  test("latest: newest activity first, the newer conversation first on a tie", () => {
    expect(ids(sortConversations(shuffled, "latest"))).toEqual([2, 4, 3, 5, 1]);
  });
  test("created: oldest conversation first", () => {
    expect(ids(sortConversations(shuffled, "created"))).toEqual([1, 2, 3, 4, 5]);
  });
  test("priority: urgent, high, medium, low, none; newest activity first within one", () => {
    expect(ids(sortConversations(shuffled, "priority"))).toEqual([3, 4, 5, 1, 2]);
    expect(ids(sortConversations([conv(7, 1, "medium"), conv(8, 1, "low"), conv(9, 1, "high")], "priority"))).toEqual([
      9, 7, 8,
    ]);
  });
  test("waiting: longest waiting first, then those nobody waits on, oldest first", () => {
    expect(ids(sortConversations(shuffled, "waiting"))).toEqual([1, 5, 3, 2, 4]);
    expect(ids(sortConversations([conv(9, 1, null, 50), conv(8, 1, null, 50)], "waiting"))).toEqual([8, 9]);
  });
  test("no two conversations tie (the id decides last, as on the server)", () => {
    for (const sort of ["latest", "created", "priority", "waiting"] as const)
      for (const a of FIVE) for (const b of FIVE) if (a !== b) expect(compareIn(sort)(a, b)).not.toBe(0);
  });
});

describe("mergeFirstPage keeps the chosen order", () => {
  test("waiting: a conversation arriving by realtime goes after those waiting longer, not on top", () => {
    const shown = sortConversations(FIVE, "waiting");
    const arrived = conv(6, 900, null, 40); // the newest activity, waiting since 40
    const fresh = sortConversations([...FIVE, arrived], "waiting"); // page 1 as the server answers it
    expect(ids(mergeFirstPage(shown, fresh, "waiting"))).toEqual([1, 5, 3, 6, 2, 4]);
  });
  test("priority: an arrival set to high goes below urgent, among the high ones by activity", () => {
    const fresh = [...FIVE, conv(6, 400, "high")];
    expect(ids(mergeFirstPage(sortConversations(FIVE, "priority"), fresh, "priority"))).toEqual([3, 6, 4, 5, 1, 2]);
  });
  test("created: page 2's rows stay below a full page 1 even with newer activity than its last row", () => {
    const page1 = Array.from({ length: PAGE_SIZE }, (_, i) => conv(i + 1, 1000 - i));
    const page2 = [conv(26, 5000), conv(27, 10)];
    const merged = mergeFirstPage([...page1, ...page2], page1, "created");
    expect(ids(merged).slice(-3)).toEqual([25, 26, 27]);
    // By activity, 26 would rank above 25 and be taken for a conversation that left the list.
    expect(ids(mergeFirstPage([...page1, ...page2], page1, "latest"))).not.toContain(26);
  });
  test("priority: a page-2 row now on page 1 shows once, at its place; one missing from page 1 has left", () => {
    const page1 = Array.from({ length: PAGE_SIZE }, (_, i) => conv(i + 1, 1000 - i, "high"));
    const shown = [...page1, conv(30, 50, "low"), conv(31, 40, "low"), conv(32, 30)];
    // 31 became urgent (elsewhere); 2 was resolved. Page 1 still ends on 25.
    const fresh = [conv(31, 900, "urgent"), ...page1.filter((c) => c.id !== 2)];
    const merged = mergeFirstPage(shown, sortConversations(fresh, "priority"), "priority");
    expect(ids(merged).slice(0, 3)).toEqual([31, 1, 3]);
    expect(ids(merged)).not.toContain(2);
    expect(ids(merged).slice(-3)).toEqual([25, 30, 32]);
  });
});

describe("replaceConversation moves a changed conversation to its place", () => {
  test("latest: a reply here lifts it to the top", () => {
    const shown = sortConversations(FIVE, "latest");
    expect(ids(replaceConversation(shown, conv(1, 600, "low", 10), filters("latest")))).toEqual([1, 2, 4, 3, 5]);
  });
  test("priority: made urgent it goes on top; its priority removed, among those with none", () => {
    const shown = sortConversations(FIVE, "priority");
    expect(ids(replaceConversation(shown, conv(1, 600, "urgent", 10), filters("priority")))).toEqual([1, 3, 4, 5, 2]);
    expect(ids(replaceConversation(shown, conv(3, 700, null, 30), filters("priority")))).toEqual([4, 5, 1, 3, 2]);
  });
  test("waiting: answered here (no longer waiting) it goes among those nobody waits on", () => {
    const shown = sortConversations(FIVE, "waiting");
    expect(ids(replaceConversation(shown, conv(1, 600, "low", 0), filters("waiting")))).toEqual([5, 3, 1, 2, 4]);
  });
  test("created: nothing a change does moves it", () => {
    const shown = sortConversations(FIVE, "created");
    expect(ids(replaceConversation(shown, conv(3, 9999, "urgent", 1), filters("created")))).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("appendPage", () => {
  test("a further page's rows go above a shown row that, changed here, now belongs after them", () => {
    const shown = [conv(1, 100, "urgent"), conv(2, 90, null)]; // 2 was high, lowered here
    const next = [conv(3, 80, "high"), conv(4, 70, "medium")];
    expect(ids(appendPage(shown, next, "priority"))).toEqual([1, 3, 4, 2]);
  });
  test("waiting: page 2 continues page 1, repeated rows once", () => {
    const shown = [conv(1, 1, null, 10), conv(2, 1, null, 20)];
    expect(ids(appendPage(shown, [conv(2, 1, null, 20), conv(3, 1, null, 30), conv(4, 1)], "waiting"))).toEqual([
      1, 2, 3, 4,
    ]);
  });
});
