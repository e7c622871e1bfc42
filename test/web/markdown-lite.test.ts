// The chat markdown: each inline form, links limited to http(s) and mailto, lists, code blocks,
// and text that only looks like markup (or like HTML) staying plain text.
import { describe, expect, test } from "bun:test";
import { parseBlocks, parseInline, type Inline } from "../../src/shared/markdown-lite.ts";

const text = (t: string): Inline => ({ t: "text", text: t });

describe("parseInline", () => {
  test("bold, italic both ways, code, links and bare links", () => {
    expect(parseInline("**Hi** _there_, *see* `x < y` at [our site](https://ex.com/a) or https://ex.com/b.")).toEqual([
      { t: "strong", children: [text("Hi")] },
      text(" "),
      { t: "em", children: [text("there")] },
      text(", "),
      { t: "em", children: [text("see")] },
      text(" "),
      { t: "code", text: "x < y" },
      text(" at "),
      { t: "link", href: "https://ex.com/a", children: [text("our site")] },
      text(" or "),
      { t: "link", href: "https://ex.com/b", children: [text("https://ex.com/b")] },
      text("."),
    ]);
  });

  test("a javascript: link and HTML stay text; snake_case and 2*3*4 are not italic", () => {
    expect(parseInline("[click](javascript:alert(1)) <b>x</b>")).toEqual([
      text("[click](javascript:alert(1)) <b>x</b>"),
    ]);
    expect(parseInline("my_file_name and 2*3*4")).toEqual([text("my_file_name and 2*3*4")]);
  });
});

describe("parseBlocks", () => {
  test("paragraphs, bullet and numbered lists, a code block", () => {
    expect(parseBlocks("Steps:\n1. open\n2. **save**\n\n- a\n- b\n```\nlet x = 1;\n```\nbye")).toEqual([
      { t: "p", lines: [[text("Steps:")]] },
      { t: "ol", items: [[text("open")], [{ t: "strong", children: [text("save")] }]] },
      { t: "ul", items: [[text("a")], [text("b")]] },
      { t: "pre", text: "let x = 1;" },
      { t: "p", lines: [[text("bye")]] },
    ]);
  });

  test("lines of one paragraph stay together; a blank line starts another", () => {
    expect(parseBlocks("one\ntwo\n\nthree")).toEqual([
      { t: "p", lines: [[text("one")], [text("two")]] },
      { t: "p", lines: [[text("three")]] },
    ]);
  });
});
