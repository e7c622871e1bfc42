// The inbox list's pure rules: query strings, merging a fresh first page, further pages, local changes.
import { describe, expect, test } from "bun:test";
import {
  appendPage,
  DEFAULT_FILTERS,
  mergeFirstPage,
  firstPage,
  mergeMessages,
  neighbour,
  pinnedConversation,
  queryString,
  replaceConversation,
  tabTotal,
} from "../../src/web/lib/list-merge.ts";
import type { Conversation, Message } from "../../src/web/lib/types.ts";

/** A conversation with what the rules read: id, last activity, status. */
const conv = (id: number, at: number, status: Conversation["status"] = "open") =>
  ({ id, last_activity_at: at, status }) as Conversation;
const ids = (list: Conversation[]) => list.map((c) => c.id);
/** n conversations, newest first, ids from..from-n+1, activity = id. */
const page = (from: number, n: number) => Array.from({ length: n }, (_, i) => conv(from - i, from - i));

describe("queryString", () => {
  test("the defaults: my open conversations", () => {
    expect(queryString(DEFAULT_FILTERS)).toBe("assignee_type=me&status=open");
  });
  test("every filter, with labels[], a trimmed search and the API's sort_by, and a page", () => {
    const q = queryString(
      { assignee: "all", status: "snoozed", inboxId: 3, teamId: 4, label: "vip", q: "  refund ", sort: "waiting" },
      2,
    );
    expect(q).toBe(
      "assignee_type=all&status=snoozed&inbox_id=3&team_id=4&labels%5B%5D=vip&q=refund&sort_by=sort_on_waiting_since&page=2",
    );
  });
});

describe("tabTotal", () => {
  const counts = { mine_count: 1, assigned_count: 5, unassigned_count: 2, all_count: 7 };
  test("each tab reads its own count", () => {
    expect([
      tabTotal(counts, "me"),
      tabTotal(counts, "unassigned"),
      tabTotal(counts, "all"),
      tabTotal(null, "all"),
    ]).toEqual([1, 2, 7, null]);
  });
});

describe("mergeFirstPage", () => {
  test("a short first page is the whole list: what is not on it has left", () => {
    expect(ids(mergeFirstPage([conv(1, 10), conv(2, 5)], [conv(3, 20), conv(1, 10)], "latest"))).toEqual([3, 1]);
  });
  test("a full first page replaces the top; later pages' rows stay below it", () => {
    const shown = [...page(100, 25), ...page(75, 25)];
    const fresh = [conv(200, 500), ...page(100, 24)]; // a new one on top pushed 76 down to page 2
    const merged = mergeFirstPage(shown, fresh, "latest");
    expect(merged.length).toBe(51);
    expect(ids(merged).slice(0, 3)).toEqual([200, 100, 99]);
    expect(ids(merged).slice(25, 27)).toEqual([76, 75]);
  });
  test("a row ranking above the fresh page's last one but missing from it has left the filters", () => {
    const shown = [...page(100, 25), ...page(75, 5)];
    const fresh = page(100, 26).filter((c) => c.id !== 90); // 90 was resolved; 75 moved up to page 1
    expect(ids(mergeFirstPage(shown, fresh, "latest"))).not.toContain(90);
    expect(ids(mergeFirstPage(shown, fresh, "latest")).filter((id) => id === 75)).toEqual([75]);
  });
  test("a row that moved up appears once, at its new place", () => {
    const shown = [...page(100, 25), conv(50, 50)];
    const fresh = [conv(50, 999), ...page(100, 24)];
    const merged = mergeFirstPage(shown, fresh, "latest");
    expect(ids(merged).filter((id) => id === 50)).toEqual([50]);
    expect(merged[0]!.last_activity_at).toBe(999);
  });
});

describe("appendPage", () => {
  test("rows repeated by offset paging are kept once", () => {
    expect(ids(appendPage([conv(3, 3), conv(2, 2)], [conv(2, 2), conv(1, 1)], "latest"))).toEqual([3, 2, 1]);
  });
});

describe("replaceConversation", () => {
  const shown = [conv(2, 2), conv(1, 1)];
  test("a changed conversation is updated in place", () => {
    const changed = { ...conv(1, 1), labels: ["vip"] } as Conversation;
    expect(replaceConversation(shown, changed, DEFAULT_FILTERS)[1]).toBe(changed);
  });
  test("one whose status left the filter goes; with status all or a search it stays", () => {
    expect(ids(replaceConversation(shown, conv(1, 1, "resolved"), DEFAULT_FILTERS))).toEqual([2]);
    expect(ids(replaceConversation(shown, conv(1, 1, "resolved"), { ...DEFAULT_FILTERS, status: "all" }))).toEqual([
      2, 1,
    ]);
    expect(ids(replaceConversation(shown, conv(1, 1, "resolved"), { ...DEFAULT_FILTERS, q: "refund" }))).toEqual([
      2, 1,
    ]);
  });
  test("one not in the list is not added (the server decides what the list holds)", () => {
    expect(replaceConversation(shown, conv(9, 9), DEFAULT_FILTERS)).toBe(shown);
  });
});

describe("neighbour", () => {
  const list = [conv(3, 3), conv(2, 2), conv(1, 1)];
  test("next and previous, none past the ends, the first when none is open or the open one is not listed", () => {
    expect([
      neighbour(list, 2, 1)?.id,
      neighbour(list, 2, -1)?.id,
      neighbour(list, 1, 1),
      neighbour(list, 3, -1),
    ]).toEqual([1, 3, null, null]);
    expect([neighbour(list, null, 1)?.id, neighbour(list, 42, -1)?.id, neighbour([], null, 1)]).toEqual([3, 3, null]);
  });
});

describe("mergeMessages", () => {
  const m = (id: number, content = `m${id}`) => ({ id, content }) as Message;
  test("in id order, each once, the later copy winning", () => {
    const merged = mergeMessages([m(2), m(3)], [m(1), m(3, "edited"), m(4)]);
    expect(merged.map((x) => [x.id, x.content])).toEqual([
      [1, "m1"],
      [2, "m2"],
      [3, "edited"],
      [4, "m4"],
    ]);
  });
});

describe("firstPage", () => {
  const m = (id: number) => ({ id, content: `m${id}` }) as Message;
  const ids = (list: Message[]) => list.map((x) => x.id);
  test("a full page keeps the live messages from its oldest on, not a replay's older ones", () => {
    // While the page loaded, a replay after a reconnect told of 3 and 5 (older than the page) and 9.
    expect(ids(firstPage([m(3), m(5), m(9)], [m(6), m(7), m(8)], 3))).toEqual([6, 7, 8, 9]);
  });
  test("a short page is the whole thread: the live messages stay, each once", () => {
    expect(ids(firstPage([m(7), m(9)], [m(6), m(7)], 3))).toEqual([6, 7, 9]);
  });
});

describe("pinnedConversation", () => {
  test("the open conversation beyond the loaded pages heads the list; one already shown is not repeated", () => {
    const items = page(30, 25);
    expect(pinnedConversation(items, conv(2, 2), DEFAULT_FILTERS)?.id).toBe(2);
    expect(pinnedConversation(items, conv(30, 30), DEFAULT_FILTERS)).toBeNull();
    expect(pinnedConversation(items, null, DEFAULT_FILTERS)).toBeNull();
  });

  test("one whose status left the filter is not pinned; with every status it is", () => {
    expect(pinnedConversation(page(30, 25), conv(2, 2, "resolved"), DEFAULT_FILTERS)).toBeNull();
    expect(pinnedConversation(page(30, 25), conv(2, 2, "resolved"), { ...DEFAULT_FILTERS, status: "all" })?.id).toBe(2);
  });
});
