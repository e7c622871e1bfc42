// SQLite's SQL, as the repositories write it, in PostgreSQL's dialect. Most statements are plain
// SQL both engines read alike; what differs mechanically is rewritten here, once, so that a
// repository carries its own PostgreSQL text (src/db/dialect.ts) only where the meaning differs:
//
//   $name, ?, ?NNN          → $1, $2 … (the names kept, to bind an object's fields in order)
//   INSERT OR IGNORE        → INSERT … ON CONFLICT DO NOTHING
//   INDEXED BY x, NOT INDEXED → nothing (PostgreSQL's planner takes no orders; the plans are its own)
//   COLLATE NOCASE          → nothing (those columns are CITEXT: migrations/postgres/001)
//   CROSS JOIN t ON          → JOIN t ON
//   IFNULL, instr           → COALESCE, strpos
//   max(a, b), min(a, b)    → GREATEST, LEAST (the two-argument forms only; one argument aggregates)
//   LIKE                    → ILIKE (SQLite's LIKE ignores ASCII case)
//   CAST(… AS REAL)         → DOUBLE PRECISION (PostgreSQL's REAL is 4 bytes)
//   sum(a = b)              → sum((a = b)::int)
//   json_extract(x, '$.k')  → ((x)::jsonb ->> 'k')
//   id IN (SELECT value FROM json_each($ids)) → … json_array_elements_text, cast to BIGINT for ids
//   INSERT INTO t …         → … RETURNING id, where t has an id (bun:sqlite's lastInsertRowid)

export interface Translated {
  text: string;
  /** The parameter names in $1, $2 … order when the statement binds by name; null when by position. */
  names: string[] | null;
  /** How many positional parameters it takes. */
  positional: number;
}

const STRING_OR_IDENT = /('(?:[^']|'')*'|"(?:[^"]|"")*")/;

/** Applies `fn` to the parts of `sql` outside string literals and quoted identifiers. */
function outsideQuotes(sql: string, fn: (code: string) => string): string {
  return sql
    .split(STRING_OR_IDENT)
    .map((part, i) => (i % 2 === 1 ? part : fn(part)))
    .join("");
}

/** Index of the parenthesis closing the one opened just before `from`, or -1. */
function closingParen(sql: string, from: number): number {
  let depth = 1;
  for (let i = from; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'") {
      i = sql.indexOf("'", i + 1);
      if (i < 0) return -1;
    } else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Whether the argument list has a comma at its own depth (max(a, b), not max(f(a, b))). */
function hasTopLevelComma(args: string): boolean {
  let depth = 0;
  for (const ch of args) {
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "," && depth === 0) return true;
  }
  return false;
}

/**
 * Rewrites each call of the function `name` matches: `rewrite` gets the function's name as written
 * and its argument text, and answers the replacement of the whole call, or null to leave it.
 */
function rewriteCalls(sql: string, name: RegExp, rewrite: (fn: string, args: string) => string | null): string {
  const re = new RegExp(`\\b(${name.source})\\s*\\(`, "gi");
  let out = "";
  let last = 0;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    const open = m.index + m[0].length;
    const close = closingParen(sql, open);
    const replacement = close < 0 ? null : rewrite(m[1] ?? "", sql.slice(open, close));
    if (replacement === null) continue;
    out += sql.slice(last, m.index) + replacement;
    last = close + 1;
    re.lastIndex = last;
  }
  return out + sql.slice(last);
}

/** max(a, b), min(a, b) → GREATEST, LEAST; one argument is the aggregate and stays. */
const scalarMinMax = (sql: string): string =>
  rewriteCalls(sql, /max|min/, (fn, args) =>
    hasTopLevelComma(args) ? `${fn.toLowerCase() === "max" ? "GREATEST" : "LEAST"}(${scalarMinMax(args)})` : null,
  );

/** json_extract(x, '$.key') → ((x)::jsonb ->> 'key'): the text, as the expression indexes store it. */
const jsonExtract = (sql: string) =>
  rewriteCalls(sql, /json_extract/, (_, args) => {
    const path = /^([\s\S]*),\s*'\$\.([A-Za-z_][A-Za-z0-9_]*)'\s*$/.exec(args);
    return path ? `((${path[1]})::jsonb ->> '${path[2]}')` : null;
  });

/**
 * sum(a = b), sum(x IS NULL): SQLite sums truth as 0/1, PostgreSQL has no sum(boolean), so a sum
 * over a comparison sums it cast to an integer (NULL staying NULL).
 */
const sumOfTruth = (sql: string) =>
  rewriteCalls(sql, /sum/, (fn, args) =>
    /(=|<|>|\bIS\b|\bIN\b|\bLIKE\b|\bNOT\b)/i.test(args.replace(/\([^()]*\)/g, "")) ? `${fn}((${args})::int)` : null,
  );

/**
 * `x IN (SELECT value FROM json_each($list))`: PostgreSQL's elements are text, so an id column's
 * list is cast to BIGINT (ids are named *id); titles stay text.
 */
function jsonEachIn(sql: string): string {
  return sql.replace(
    /([A-Za-z_][A-Za-z0-9_.]*)(\s+IN\s+\(\s*SELECT\s+value)(\s+FROM\s+)json_each\s*\(([^()]+)\)/gi,
    (_, left: string, select: string, from: string, list: string) =>
      `${left}${select}${/id$/i.test(left) ? "::bigint" : ""}${from}json_array_elements_text((${list})::text::json)`,
  );
}

function insertOrIgnore(sql: string): string {
  if (!/^\s*INSERT\s+OR\s+IGNORE\b/i.test(sql)) return sql;
  const plain = sql.replace(/^(\s*INSERT)\s+OR\s+IGNORE\b/i, "$1");
  const returning = plain.search(/\bRETURNING\b/i);
  return returning < 0
    ? `${plain.trimEnd()} ON CONFLICT DO NOTHING`
    : `${plain.slice(0, returning)}ON CONFLICT DO NOTHING ${plain.slice(returning)}`;
}

function withReturningId(sql: string, tablesWithId: ReadonlySet<string>): string {
  const m = /^\s*INSERT\s+INTO\s+([a-z_][a-z0-9_]*)/i.exec(sql);
  if (!m || !tablesWithId.has((m[1] ?? "").toLowerCase()) || /\bRETURNING\b/i.test(sql)) return sql;
  return `${sql.trimEnd().replace(/;$/, "")} RETURNING id`;
}

function placeholders(sql: string): Translated {
  const names: string[] = [];
  let positional = 0;
  const text = outsideQuotes(sql, (code) =>
    code.replace(
      /\?(\d+)?|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_, numbered: string | undefined, name: string | undefined) => {
        if (name !== undefined) {
          let at = names.indexOf(name);
          if (at < 0) at = names.push(name) - 1;
          return `$${at + 1}`;
        }
        if (numbered !== undefined) {
          positional = Math.max(positional, Number(numbered));
          return `$${numbered}`;
        }
        return `$${++positional}`;
      },
    ),
  );
  if (names.length > 0 && positional > 0) throw new Error(`a statement binds both by name and by position: ${sql}`);
  return { text, names: names.length > 0 ? names : null, positional };
}

export function toPostgres(sql: string, tablesWithId: ReadonlySet<string> = new Set()): Translated {
  let text = outsideQuotes(sql, (code) =>
    code
      .replace(/\s+INDEXED\s+BY\s+[a-z_][a-z0-9_]*/gi, "")
      .replace(/\s+NOT\s+INDEXED\b/gi, "")
      .replace(/\s+COLLATE\s+NOCASE\b/gi, "")
      .replace(/\bIFNULL\s*\(/gi, "COALESCE(")
      .replace(/\binstr\s*\(/gi, "strpos(")
      .replace(/\bLIKE\b/gi, "ILIKE")
      // SQLite's CROSS JOIN is a plain join the planner may not reorder; PostgreSQL takes no ON with it.
      .replace(/\bCROSS\s+JOIN(\s+[a-z_]+(?:\s+(?:AS\s+)?[a-z_]+)?\s+ON)\b/gi, "JOIN$1")
      .replace(/\bAS\s+REAL\s*\)/gi, "AS DOUBLE PRECISION)"),
  );
  text = scalarMinMax(text);
  text = jsonExtract(text);
  text = jsonEachIn(text);
  text = sumOfTruth(text);
  text = insertOrIgnore(text);
  text = withReturningId(text, tablesWithId);
  return placeholders(text);
}
