// Copies a whole SQLite installation into an empty PostgreSQL database that has Parley's schema:
// every table, ids kept, identities advanced past them, then row counts and per-table checksums
// compared. Tables go parents first (foreign keys stay checked), and the trigger-kept tables
// (tallies, label rows' copies, list columns) are copied as they are, with the tables' own triggers
// off while rows go in, so nothing is counted twice. Its test also shows that the PostgreSQL schema
// takes what an installation made through the API holds (test/db/copy-to-postgres.test.ts); the
// server started on the copy serves it (test/e2e/serve-postgres.test.ts).
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { withoutNul } from "../lib/nul.ts";
import { migratePostgres } from "./migrate-postgres.ts";

/** SQLite's own and its contact-search tables (PostgreSQL searches with indexes instead). */
const NOT_COPIED = /^(sqlite_|contacts(_identifier)?_search)/;
/** Rows per read and per INSERT (500 × ~30 columns stays under PostgreSQL's 65,535 parameters). */
export const COPY_BATCH = 500;
/** Tables a fresh schema already has a row in (migration 012): the source's rows replace it. */
const SEEDED_BY_MIGRATIONS = new Set(["contact_search_version"]);

export class CopyRefusedError extends Error {}

export interface CopyReport {
  /** The PostgreSQL migrations the copy applied to the target first (none when it was up to date). */
  migrationsApplied: number[];
  /** Rows per table, in copy order. */
  tables: { name: string; rows: number }[];
  /** Values that lost NUL characters on the way, per "table.column" (none: empty). */
  nulsRemoved: Record<string, number>;
}

type Row = Record<string, unknown>;

/** Tables with their foreign-key parents before them. */
function tablesInOrder(source: Database): string[] {
  const names = (
    source.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  )
    .map((t) => t.name)
    .filter((n) => !NOT_COPIED.test(n));
  const parents = new Map(
    names.map((n) => [
      n,
      (source.query(`PRAGMA foreign_key_list("${n}")`).all() as { table: string }[])
        .map((f) => f.table)
        .filter((p) => p !== n),
    ]),
  );
  const ordered: string[] = [];
  const visit = (n: string, path: Set<string>) => {
    if (ordered.includes(n)) return;
    if (path.has(n)) throw new Error(`foreign keys form a cycle through ${n}`);
    path.add(n);
    for (const p of parents.get(n) ?? []) visit(p, path);
    path.delete(n);
    ordered.push(n);
  };
  for (const n of names) visit(n, new Set());
  return ordered;
}

/** What copying and checking a table need to know of it, read once. */
interface TableShape {
  name: string;
  columns: string[];
  /** The primary key's columns (all columns when it has none): the order rows are read in. */
  order: string[];
  /** The single INTEGER primary key (every table with an id), read in key ranges; else null. */
  key: string | null;
}

function shapeOf(source: Database, name: string): TableShape {
  const cols = source.query(`PRAGMA table_info("${name}")`).all() as { name: string; pk: number; type: string }[];
  const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  return {
    name,
    columns: cols.map((c) => c.name),
    order: pk.length ? pk.map((c) => c.name) : cols.map((c) => c.name),
    key: pk.length === 1 && pk[0]!.type.toUpperCase() === "INTEGER" ? pk[0]!.name : null,
  };
}

/**
 * PostgreSQL's text cannot hold U+0000, which SQLite keeps: text written before the API refused it
 * (or arriving by mail) would stop the copy half-way. A NUL carries nothing in a helpdesk's text, so
 * the copy leaves it out and reports where; the check compares the source without it.
 */
function nulFreeValue(value: unknown): unknown {
  return typeof value === "string" ? withoutNul(value) : value;
}

/** The rows with NUL characters left out of their text, counting the values changed per "table.column". */
function nulFree(table: string, rows: Row[], removed: Record<string, number>): Row[] {
  return rows.map((row) => {
    let out: Row | null = null;
    for (const [column, value] of Object.entries(row)) {
      const clean = nulFreeValue(value);
      if (clean === value) continue;
      out ??= { ...row };
      out[column] = clean;
      const key = `${table}.${column}`;
      removed[key] = (removed[key] ?? 0) + 1;
    }
    return out ?? row;
  });
}

/** Values as text the same way on both engines (PostgreSQL returns BIGINT as strings); NUL marks a SQL NULL. */
function rowText(row: Row, columns: string[]): string {
  return columns
    .map((c) => (row[c] === null || row[c] === undefined ? "\u0000" : String(nulFreeValue(row[c]))))
    .join("\u0001");
}

/**
 * Rows' SHA-256 digests XORed together, with the count: independent of the order rows come in (the
 * engines' text collations may order a text key differently) and of the table's size in memory.
 */
async function checksum(rows: AsyncIterable<Row[]> | Iterable<Row[]>, columns: string[]): Promise<string> {
  const sum = new Uint8Array(32);
  let count = 0;
  for await (const batch of rows)
    for (const r of batch) {
      const digest = new Bun.CryptoHasher("sha256").update(rowText(r, columns)).digest();
      for (let i = 0; i < 32; i++) sum[i]! ^= digest[i]!;
      count++;
    }
  return `${count}:${Buffer.from(sum).toString("hex")}`;
}

/**
 * A table's rows in batches, in key order: by key ranges (`key > last`) where the key is one
 * integer, so a million-row table is read in linear time; by OFFSET for the few small tables keyed
 * otherwise.
 */
function* sqliteBatches(source: Database, { name: table, order, key }: TableShape, batch: number): Generator<Row[]> {
  if (key) {
    const stmt = source.query(`SELECT * FROM "${table}" WHERE "${key}" > ? ORDER BY "${key}" LIMIT ?`);
    for (let last = Number.MIN_SAFE_INTEGER; ; ) {
      const rows = stmt.all(last, batch) as Row[];
      if (rows.length) yield rows;
      if (rows.length < batch) return;
      last = rows[rows.length - 1]![key] as number;
    }
  }
  const stmt = source.query(
    `SELECT * FROM "${table}" ORDER BY ${order.map((c) => `"${c}"`).join(", ")} LIMIT ? OFFSET ?`,
  );
  for (let offset = 0; ; offset += batch) {
    const rows = stmt.all(batch, offset) as Row[];
    if (rows.length) yield rows;
    if (rows.length < batch) return;
  }
}

async function* postgresBatches(
  target: SQL,
  { name: table, order, key }: TableShape,
  batch: number,
): AsyncGenerator<Row[]> {
  const page = async (sql: string, params: unknown[]) => [...((await target.unsafe(sql, params)) as Row[])];
  if (key) {
    for (let last: unknown = Number.MIN_SAFE_INTEGER; ; ) {
      const rows = await page(`SELECT * FROM "${table}" WHERE "${key}" > $1 ORDER BY "${key}" LIMIT ${batch}`, [last]);
      if (rows.length) yield rows;
      if (rows.length < batch) return;
      last = rows[rows.length - 1]![key];
    }
  }
  const by = order.map((c) => `"${c}"`).join(", ");
  for (let offset = 0; ; offset += batch) {
    const rows = await page(`SELECT * FROM "${table}" ORDER BY ${by} LIMIT ${batch} OFFSET ${offset}`, []);
    if (rows.length) yield rows;
    if (rows.length < batch) return;
  }
}

export async function copyToPostgres(source: Database, target: SQL, batch = COPY_BATCH): Promise<CopyReport> {
  const migrationsApplied = await migratePostgres(target);
  const tables = tablesInOrder(source);
  for (const t of tables) {
    if (SEEDED_BY_MIGRATIONS.has(t)) continue;
    const n = ((await target.unsafe(`SELECT count(*)::int AS n FROM "${t}"`)) as { n: number }[])[0]?.n ?? 0;
    if (n > 0)
      throw new CopyRefusedError(`the target is not empty: ${t} has ${n} rows (copy only into a new database)`);
  }
  const report: CopyReport = { migrationsApplied, tables: [], nulsRemoved: {} };
  await target.begin(async (tx) => {
    for (const t of tables) {
      await tx.unsafe(`ALTER TABLE "${t}" DISABLE TRIGGER USER`);
      if (SEEDED_BY_MIGRATIONS.has(t)) await tx.unsafe(`DELETE FROM "${t}"`);
      let rows = 0;
      for (const part of sqliteBatches(source, shapeOf(source, t), batch)) {
        await tx`INSERT INTO ${tx(t)} ${tx(nulFree(t, part, report.nulsRemoved))}`;
        rows += part.length;
      }
      await tx.unsafe(`ALTER TABLE "${t}" ENABLE TRIGGER USER`);
      report.tables.push({ name: t, rows });
    }
    // Identities continue after the copied ids (a copy inserts ids explicitly, which identities do not see).
    const identities = (await tx.unsafe(
      "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'",
    )) as { table_name: string }[];
    for (const { table_name } of identities)
      await tx.unsafe(
        `SELECT setval(pg_get_serial_sequence('"${table_name}"', 'id'), coalesce((SELECT max(id) FROM "${table_name}"), 0) + 1, false)`,
      );
  });
  await verifyCopy(source, target, batch);
  // Statistics for the planner now, not at autovacuum's next pass: a server started on the copy at
  // once would otherwise plan its first minutes blind (contact search read 10x slower in the bench).
  await target.unsafe("ANALYZE");
  return report;
}

/** Every copied table has the same rows on both sides (count and checksum), or an error naming the first that differs. */
export async function verifyCopy(source: Database, target: SQL, batch = COPY_BATCH): Promise<void> {
  for (const t of tablesInOrder(source)) {
    const shape = shapeOf(source, t);
    const [a, b] = [
      await checksum(sqliteBatches(source, shape, batch), shape.columns),
      await checksum(postgresBatches(target, shape, batch), shape.columns),
    ];
    if (a !== b) throw new Error(`copy check failed: ${t} differs between the source and the copy`);
  }
}
