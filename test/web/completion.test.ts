// The reply box's completions: where an "@" or "/" completion is being typed, what replacing it
// gives, which items match, and how chosen mentions become Chatwoot's mention links.
import { describe, expect, test } from "bun:test";
import { activeQuery, applyChoice, encodeMentions, matching } from "../../src/web/lib/completion.ts";

describe("activeQuery", () => {
  test("a trigger at the start or after a space, up to the caret", () => {
    expect(activeQuery("@an", 3, "@")).toEqual({ start: 0, query: "an" });
    expect(activeQuery("hi @", 4, "@")).toEqual({ start: 3, query: "" });
    expect(activeQuery("hi @ann and", 7, "@")).toEqual({ start: 3, query: "ann" });
  });

  test("not inside a word, not once a space follows, not a / in the middle of a line", () => {
    expect(activeQuery("mail@example", 12, "@")).toBeNull();
    expect(activeQuery("@ann lee", 8, "@")).toBeNull();
    expect(activeQuery("see a/b", 7, "/", true)).toBeNull();
    expect(activeQuery("first\n/ship", 11, "/", true)).toEqual({ start: 6, query: "ship" });
  });
});

describe("applyChoice and matching", () => {
  test("the completion is replaced and the caret goes after it", () => {
    expect(applyChoice("hi @an, ok", { start: 3, query: "an" }, 6, "@Ann Lee ")).toEqual({
      text: "hi @Ann Lee , ok",
      caret: 12,
    });
  });

  test("items with a word starting with the query, any case, at most the limit", () => {
    const names = ["Ann Lee", "Bea Annis", "Carl", "anna"];
    expect(matching(names, (n) => n, "an")).toEqual(["Ann Lee", "Bea Annis", "anna"]);
    expect(matching(names, (n) => n, "", 2)).toEqual(["Ann Lee", "Bea Annis"]);
  });
});

describe("encodeMentions", () => {
  test("chosen names become mention links, the longer name first", () => {
    const chosen = new Map([
      ["Ann", "[@Ann](mention://user/1/Ann)"],
      ["Ann Lee", "[@Ann Lee](mention://user/2/Ann%20Lee)"],
    ]);
    expect(encodeMentions("@Ann Lee and @Ann, and @Bob", chosen)).toBe(
      "[@Ann Lee](mention://user/2/Ann%20Lee) and [@Ann](mention://user/1/Ann), and @Bob",
    );
    expect(encodeMentions("@Annabel is not @Ann.", chosen)).toBe("@Annabel is not [@Ann](mention://user/1/Ann).");
  });
});
