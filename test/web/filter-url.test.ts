// The inbox's filters in the address: written without defaults, read back the same, and a link
// someone edited or cut short reads as the defaults instead of failing.
import { describe, expect, test } from "bun:test";
import { filtersFromSearch, searchFromFilters } from "../../src/web/lib/filter-url.ts";
import { DEFAULT_FILTERS } from "../../src/web/lib/list-merge.ts";

describe("filters in the address", () => {
  test("the defaults make no query string, and an empty one reads as the defaults", () => {
    expect(searchFromFilters(DEFAULT_FILTERS)).toBe("");
    expect(filtersFromSearch("")).toEqual(DEFAULT_FILTERS);
  });

  test("every filter is written and read back", () => {
    const f = {
      assignee: "all",
      status: "resolved",
      inboxId: 3,
      teamId: 12,
      label: "vip gold",
      q: "refund & return",
      sort: "priority",
    } as const;
    const search = searchFromFilters(f);
    expect(search).toBe("?tab=all&status=resolved&inbox=3&team=12&label=vip+gold&q=refund+%26+return&sort=priority");
    expect(filtersFromSearch(search)).toEqual(f);
  });

  test("each order is written under its own name, the default (latest activity) not at all", () => {
    for (const sort of ["created", "priority", "waiting"] as const) {
      expect(searchFromFilters({ ...DEFAULT_FILTERS, sort })).toBe(`?sort=${sort}`);
      expect(filtersFromSearch(`?sort=${sort}`)).toEqual({ ...DEFAULT_FILTERS, sort });
    }
    expect(searchFromFilters({ ...DEFAULT_FILTERS, sort: "latest" })).toBe("");
    expect(filtersFromSearch("?sort=latest")).toEqual(DEFAULT_FILTERS);
    // The API's own names are not the address's: one pasted from an API call reads as the default.
    expect(filtersFromSearch("?sort=sort_on_priority").sort).toBe("latest");
  });

  test("nonsense values read as the defaults", () => {
    expect(filtersFromSearch("?tab=everyone&status=closed&inbox=abc&team=-1&label=&q=&sort=newest")).toEqual(
      DEFAULT_FILTERS,
    );
    expect(filtersFromSearch("?inbox=0&team=99999999999999999999").inboxId).toBeNull();
    expect(filtersFromSearch("?status=all&tab=unassigned")).toEqual({
      ...DEFAULT_FILTERS,
      status: "all",
      assignee: "unassigned",
    });
  });
});
