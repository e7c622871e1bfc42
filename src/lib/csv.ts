// CSV as spreadsheets write and read it (RFC 4180): fields separated by commas, quoted when they
// hold a comma, a quote or a line break, quotes doubled inside quotes, CRLF or LF between records.

export class CsvError extends Error {}

/** Records of fields. A byte-order mark is skipped; blank lines are dropped; an open quote at the end is an error. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(field);
    if (record.length > 1 || record[0] !== "") records.push(record);
    record = [];
    field = "";
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') (field += '"'), i++;
      else quoted = false;
    } else if (ch === '"' && field === "") quoted = true;
    else if (ch === ",") record.push(field), (field = "");
    else if (ch === "\n") endRecord();
    else if (ch === "\r") {
      if (text[i + 1] === "\n") i++;
      endRecord();
    } else field += ch;
  }
  if (quoted) throw new CsvError("a quoted field is not closed");
  if (field !== "" || record.length > 0) endRecord();
  return records;
}

// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): such a
// value is written with a leading apostrophe, which spreadsheets show as text. A plain signed
// number (a phone number such as +14155550100) is no formula and stays as it is.
const FORMULA_START = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-][\d .]*$/;

/** Whether a text cell gets the apostrophe: parseCsv's callers may strip it back with `unguarded`. */
function looksLikeFormula(s: string): boolean {
  return FORMULA_START.test(s) && !SIGNED_NUMBER.test(s);
}

/** A field read back from an export: the apostrophe put before formula-looking text comes off. */
export function unguarded(field: string): string {
  return field.startsWith("'") && looksLikeFormula(field.slice(1)) ? field.slice(1) : field;
}

function cell(value: string | number | boolean | null): string {
  if (value === null) return "";
  let s = String(value);
  if (typeof value === "string" && looksLikeFormula(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Records as CSV text, CRLF-separated, ending with a line break. */
export function formatCsv(records: readonly (readonly (string | number | boolean | null)[])[]): string {
  return `${records.map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}
