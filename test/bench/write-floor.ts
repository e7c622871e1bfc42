// The floor of message create: what the database alone costs when it runs exactly the statements
// Parley runs for a message, with no HTTP, routing, validation, presenting or JSON around them.
//
// 1. Record: the real app (in process, group commit on) creates messages on a copy of the bench's
//    database, spread over its conversations as the bench's scenario does, one request at a time,
//    each followed by the event listeners' own work; every statement it executes is recorded with
//    its arguments (transaction control left out).
// 2. Replay: on a fresh copy, opened as Parley opens it, the recorded statements run again through
//    bun:sqlite, G messages to a transaction: G = 1 is a commit a message; the server under the
//    bench's 32 connections commits ~1.4 messages a group (test/bench/README.md).
//
// What the replay reaches is the most any server could do on this disk with these statements and
// these indexes; the gap to `npm run bench`'s message create is Parley's own work a request. (The
// recording drains the listeners after each message; the server drains them once a batch, which
// reads the cursors and the events once for several messages.)
//
//   npm run bench            (once: seeds the database)
//   taskset -c 0 bun test/bench/write-floor.ts [messages] [groups, e.g. 1,2,8,32]
//   FLOOR_TOP=20 …           also the replay's costliest statements, µs a message
//   FLOOR_PRAGMAS="PRAGMA wal_autocheckpoint = 10000" …    a setting (or DDL) tried on the replay alone
import { Database } from "bun:sqlite";
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { inProcessApp } from "./in-process-app.ts";
import { SCENARIOS, type SeedInfo, seededDatabase } from "./scenarios.ts";

const source = process.env.BENCH_DB ?? seededDatabase();
const messages = Number(process.argv[2] ?? 8000);
const groupSizes = (process.argv[3] ?? "1,2,8,32").split(",").map(Number);
const work = join(tmpdir(), `parley-write-floor-${process.pid}`);
const top = Number(process.env.FLOOR_TOP ?? 0);
/** Replay time by statement (µs summed over every replay), when FLOOR_TOP asks for it. */
const costs = new Map<string, number>();

interface Call {
  sql: string;
  method: string;
  args: unknown[];
}

/** A copy of the bench database beside its key and files, so the app opens it as the server would. */
function copyOf(name: string): string {
  const target = join(work, name);
  copyFileSync(source, target);
  for (const suffix of [".json", ".key"])
    if (existsSync(source + suffix)) copyFileSync(source + suffix, target + suffix);
  // Written back before the run: otherwise the first checkpoint's fsync waits for the whole copy.
  const fd = openSync(target, "r+");
  fsyncSync(fd);
  closeSync(fd);
  return target;
}

// Transaction control is the replay's to decide; bun:sqlite's savepoints are the app's grouping.
const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/** Wraps every statement bun:sqlite prepares so that its executions append to `log` while `on()`. */
function recordInto(log: Call[], on: () => boolean): void {
  const proto = Database.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const wrap = (statement: Record<string, (...a: unknown[]) => unknown>, sql: string) => {
    if (CONTROL.test(sql)) return statement;
    for (const method of ["run", "get", "all", "values"]) {
      const original = statement[method]!;
      statement[method] = function (this: unknown, ...args: unknown[]) {
        if (on()) log.push({ sql, method, args: structuredClone(args) });
        return original.apply(this, args);
      };
    }
    return statement;
  };
  for (const name of ["prepare", "query"]) {
    const original = proto[name]!;
    proto[name] = function (this: unknown, sql: unknown, ...rest: unknown[]) {
      return wrap(original.call(this, sql, ...rest) as Record<string, (...a: unknown[]) => unknown>, String(sql));
    };
  }
  const run = proto.run!;
  proto.run = function (this: unknown, sql: unknown, ...rest: unknown[]) {
    if (on() && !CONTROL.test(String(sql))) log.push({ sql: String(sql), method: "run", args: rest });
    return run.call(this, sql, ...rest);
  };
}

async function record(): Promise<Call[][]> {
  const file = copyOf("record.db");
  const info = JSON.parse(await Bun.file(`${source}.json`).text()) as SeedInfo;
  const log: Call[] = [];
  let recording = false;
  recordInto(log, () => recording);
  // After the wrapping: the repositories prepare their statements as the app is made.
  const { db, deps, app } = inProcessApp(file);
  const scenario = SCENARIOS.find((s) => s.name === "message-create (account API)")!;
  const requests = scenario.requests(info);
  const send = async (i: number) => {
    const r = requests[i % requests.length]!;
    const res = await app.handle(
      new Request(`http://localhost${r.path}`, { method: r.method, headers: r.headers, body: r.body }),
    );
    if (res.status !== 200) throw new Error(`message create answered ${res.status}: ${await res.text()}`);
    await res.text();
    await deps.bus.drain(); // the listeners' work on its events belongs to the message
  };
  // A first message to each conversation, not recorded: the seed leaves some resolved, and a message
  // reopens those (two saves, seven events). The bench's scenario is past that within seconds.
  for (let i = 0; i < requests.length; i++) await send(i);
  const perMessage: Call[][] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < messages; i++) {
    recording = true;
    await send(requests.length + i);
    recording = false;
    perMessage.push(log.splice(0));
  }
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `the app itself, recording (one request at a time, a commit each): ${Math.round(messages / seconds)} messages/s, ${Math.round((used.user + used.system) / messages)} µs of CPU a message (${Math.round(used.system / messages)} in the kernel)`,
  );
  db.close();
  return perMessage;
}

function replay(perMessage: Call[][], group: number): string {
  const file = copyOf(`replay-${group}.db`);
  const db = openDatabase(file);
  if (process.env.FLOOR_PRAGMAS) db.exec(process.env.FLOOR_PRAGMAS);
  const statements = new Map<string, Record<string, (...a: unknown[]) => unknown>>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare(sql) as unknown as Record<string, (...a: unknown[]) => unknown>));
    return s;
  };
  const commits: number[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < perMessage.length; i += group) {
    db.run("BEGIN IMMEDIATE");
    for (const message of perMessage.slice(i, i + group))
      for (const call of message) {
        if (!top) {
          prepared(call.sql)[call.method]!(...call.args);
          continue;
        }
        const t = performance.now();
        prepared(call.sql)[call.method]!(...call.args);
        const key = `${call.method} ${call.sql.replace(/\s+/g, " ").slice(0, 110)}`;
        costs.set(key, (costs.get(key) ?? 0) + (performance.now() - t) * 1000);
      }
    const t = performance.now();
    db.run("COMMIT");
    commits.push(performance.now() - t);
  }
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  db.close();
  rmSync(file, { force: true });
  const slow = commits.filter((ms) => ms > 3);
  const rate = Math.round(perMessage.length / seconds);
  const cpuUs = Math.round((used.user + used.system) / perMessage.length);
  const systemUs = Math.round(used.system / perMessage.length);
  const commitShare = ((commits.reduce((a, b) => a + b, 0) / 1000 / seconds) * 100).toFixed(0);
  const slowSeconds = (slow.reduce((a, b) => a + b, 0) / 1000).toFixed(2);
  return `| ${group} | ${rate.toLocaleString("en")} | ${cpuUs} | ${systemUs} | ${commitShare} % | ${slow.length} | ${slowSeconds} s | ${Math.max(...commits).toFixed(1)} ms |`;
}

if (!existsSync(`${source}.json`)) throw new Error(`no ${source}.json: run npm run bench once first (it seeds it)`);
mkdirSync(work, { recursive: true });
try {
  const perMessage = await record();
  const statementsPerMessage = perMessage.reduce((n, m) => n + m.length, 0) / perMessage.length;
  const writes = perMessage[0]!.filter((c) => c.method === "run").length;
  console.log(
    `${messages} messages recorded, ${statementsPerMessage.toFixed(1)} statements a message (${writes} writes)`,
  );
  console.log(
    "| messages a commit | messages/s | CPU µs a message | of which in the kernel | time in COMMIT | commits > 3 ms | their time | longest |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const group of groupSizes) console.log(replay(perMessage, group));
  const replayed = messages * groupSizes.length;
  for (const [sql, us] of [...costs].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(us / replayed).toFixed(1).padStart(7)} µs  ${sql}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
