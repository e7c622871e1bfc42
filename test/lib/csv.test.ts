// CSV in both directions: quoting, doubled quotes, line breaks inside fields, CRLF and LF, a
// byte-order mark, an unclosed quote refused, and formula-looking values made harmless on export.
import { describe, expect, test } from "bun:test";
import { CsvError, formatCsv, parseCsv, unguarded } from "../../src/lib/csv.ts";

describe("parseCsv", () => {
  test("plain, quoted and empty fields; CRLF and LF; blank lines dropped", () => {
    expect(parseCsv('\uFEFFname,email\r\nAnn,ann@x.test\n\n"Lee, Jr.","say ""hi"""\r\n,\n')).toEqual([
      ["name", "email"],
      ["Ann", "ann@x.test"],
      ["Lee, Jr.", 'say "hi"'],
      ["", ""],
    ]);
  });

  test("a line break inside quotes belongs to the field; the last record needs no line break", () => {
    expect(parseCsv('a,b\n"two\nlines",x')).toEqual([
      ["a", "b"],
      ["two\nlines", "x"],
    ]);
  });

  test("an unclosed quote is an error", () => {
    expect(() => parseCsv('a\n"open')).toThrow(CsvError);
  });
});

describe("formatCsv", () => {
  test("quotes what needs it and round-trips through parseCsv", () => {
    const rows = [
      ["id", "name", "note"],
      [1, "Lee, Jr.", 'line one\nsaid "hi"'],
      [2, null, true],
    ] as const;
    const text = formatCsv(rows);
    expect(text).toBe('id,name,note\r\n1,"Lee, Jr.","line one\nsaid ""hi"""\r\n2,,true\r\n');
    expect(parseCsv(text)).toEqual([
      ["id", "name", "note"],
      ["1", "Lee, Jr.", 'line one\nsaid "hi"'],
      ["2", "", "true"],
    ]);
  });

  test("text a spreadsheet would run as a formula starts with an apostrophe; signed numbers stay as they are", () => {
    const risky = ['=HYPERLINK("x")', "+A1*2", "-2+cmd", "@SUM(A1)"];
    const text = formatCsv([[...risky, "+14155550100", "-2", -2]]);
    expect(text).toBe(`"'=HYPERLINK(""x"")",'+A1*2,'-2+cmd,'@SUM(A1),+14155550100,-2,-2\r\n`);
    expect(parseCsv(text)[0]!.map(unguarded)).toEqual([...risky, "+14155550100", "-2", "-2"]);
    expect(unguarded("'quoted on purpose")).toBe("'quoted on purpose");
  });
});
