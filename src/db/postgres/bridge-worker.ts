// The PostgreSQL side of the synchronous bridge (sync-bridge.ts): a worker thread that owns the
// connections and runs each statement the main thread hands it, while the main thread waits.
// One connection per database URL, reserved, so a transaction's statements (BEGIN … COMMIT, sent as
// separate requests) all run on the connection that began it.
import { workerData } from "node:worker_threads";
import type { ReservedSQL } from "bun";
import type { BridgeNotice, BridgeReply, BridgeRequest, Numbered, ReadRequest } from "./bridge-protocol.ts";
import { describeFailure, openReserved, type Result, rowsOf } from "./results.ts";

const { port, notices, reads, signal } = workerData as {
  notices: { postMessage(notice: BridgeNotice): void };
  reads: {
    on(event: "message", fn: (req: Numbered<ReadRequest>) => void): void;
    postMessage(reply: Numbered<BridgeReply>): void;
  };
  port: {
    on(event: "message", fn: (req: Numbered<BridgeRequest>) => void): void;
    postMessage(reply: Numbered<BridgeReply>): void;
  };
  signal: Int32Array;
};

interface Connection {
  pool: InstanceType<typeof Bun.SQL>;
  reserved: ReservedSQL;
  /** A savepoint named parley_statement is open and nothing was written since (see guarded()). */
  guarded: boolean;
}

const connections = new Map<string, Promise<Connection>>();

function connect(url: string): Promise<Connection> {
  let c = connections.get(url);
  if (!c) {
    c = openReserved(url).then((open) => ({ ...open, guarded: false }));
    c.catch(() => connections.delete(url));
    connections.set(url, c);
  }
  return c;
}

// Reads the main thread awaits (async-reads.ts) share a small pool per database: several run at once
// on the server, each on a connection that is not in a transaction (committed rows only). Idle
// connections close after 30 s: a quiet server holds only its reserved and listening ones. Ten, not
// four, since the message and conversation lists read here too (reads.ts): beside eight connections
// of contact searches, a pool of four queued a message list behind them (123 req/s against 221–238
// on the bridge); ten gave 174–402. A pool that a burst of heavy reads fills still queues the light
// ones behind them (test/bench/README.md "Presenters awaited").
const READ_CONNECTIONS = 10;
const readPools = new Map<string, InstanceType<typeof Bun.SQL>>();

async function read(req: ReadRequest): Promise<BridgeReply> {
  try {
    return await readOnce(req);
  } catch (error) {
    // A pool notices a connection the server closed only when it uses it; a read changes nothing,
    // so once more on another connection (after a restart the pool's every idle one is dead).
    if (!failure(error).error.lost) throw error;
    return readOnce(req);
  }
}

async function readOnce(req: ReadRequest): Promise<BridgeReply> {
  let pool = readPools.get(req.url);
  if (!pool) {
    pool = new Bun.SQL(req.url, { max: READ_CONNECTIONS, bigint: true, idleTimeout: 30, connectionTimeout: 10 });
    readPools.set(req.url, pool);
  }
  const query = pool.unsafe(req.text, req.params);
  const result = (req.arrays ? await query.values() : await query) as Result;
  return { rows: rowsOf(result, req.arrays), count: result.count ?? 0 };
}

// Listening needs a connection of its own: the reserved one is busy with statements, and a
// notification must reach the main thread while it is idle, not at its next statement.
const listeners = new Map<string, InstanceType<typeof Bun.SQL>>();

async function listen(url: string, channel: string): Promise<BridgeReply> {
  const key = `${url}\n${channel}`;
  if (!listeners.has(key)) {
    const sql = new Bun.SQL(url, { max: 1, connectionTimeout: 10 });
    listeners.set(key, sql);
    await sql.listen(channel, (payload: string) => notices.postMessage({ url, channel, payload: payload ?? "" }));
  }
  return { rows: [], count: 0 };
}

async function handle(req: BridgeRequest): Promise<BridgeReply> {
  if (req.kind === "listen") return listen(req.url, req.channel);
  if (req.kind === "close") {
    for (const [key, sql] of listeners)
      if (key.startsWith(`${req.url}\n`)) {
        listeners.delete(key);
        await sql.close({ timeout: 1 });
      }
    const readers = readPools.get(req.url);
    readPools.delete(req.url);
    await readers?.close({ timeout: 1 });
    const c = connections.get(req.url);
    connections.delete(req.url);
    if (c) {
      const { pool, reserved } = await c;
      reserved.release();
      await pool.close({ timeout: 1 });
    }
    return { rows: [], count: 0 };
  }
  const c = await connect(req.url);
  if (req.kind === "script") {
    // The simple query protocol: several statements, no parameters (DDL, BEGIN, COMMIT, SAVEPOINT).
    // Any of these may end or outnumber the statement savepoint below: it is set again when needed.
    c.guarded = false;
    await c.reserved.unsafe(req.text).simple();
    return { rows: [], count: 0 };
  }
  if (!req.guard) return run(c.reserved, req);
  return guarded(c, req);
}

// Reads that cannot change anything: a savepoint taken before one still marks "nothing changed".
// pg_notify changes something: a rollback to an earlier savepoint would drop the notice it queued.
const READ_ONLY = /^\s*SELECT\b(?![\s\S]*\b(INSERT|UPDATE|DELETE|nextval|setval|pg_advisory|pg_notify)\b)/i;

/**
 * A failed statement aborts PostgreSQL's whole transaction, and SQLite's only undoes the statement:
 * the open group commit (src/db/tx.ts) holds other requests' writes, which one failed read must not
 * take down. So a statement the main thread marks `guard` (one in a transaction but outside every
 * transaction body: database.ts's send) runs after a savepoint and is rolled back to it when it
 * fails. The savepoint is kept while only reads follow (they change nothing to undo) and
 * moved past each write in the same round trip, so a read costs no extra round trip and a write one.
 * (One statement at a time: pipelined with a failing statement, Bun.SQL 1.4.5 never settled the
 * queries behind it.)
 */
async function guarded(c: Connection, req: Extract<BridgeRequest, { kind: "query" }>): Promise<BridgeReply> {
  if (!c.guarded) {
    await c.reserved.unsafe("SAVEPOINT parley_statement").simple();
    c.guarded = true;
  }
  let reply: BridgeReply;
  try {
    reply = await run(c.reserved, req);
  } catch (error) {
    await c.reserved.unsafe("ROLLBACK TO SAVEPOINT parley_statement").simple(); // the savepoint stays
    throw error;
  }
  if (!READ_ONLY.test(req.text)) {
    c.guarded = false;
    await c.reserved.unsafe("RELEASE SAVEPOINT parley_statement; SAVEPOINT parley_statement").simple();
    c.guarded = true;
  }
  return reply;
}

async function run(reserved: ReservedSQL, req: Extract<BridgeRequest, { kind: "query" }>): Promise<BridgeReply> {
  const query = reserved.unsafe(req.text, req.params);
  const result = (req.arrays ? await query.values() : await query) as Result;
  return { rows: rowsOf(result, req.arrays), count: result.count ?? 0 };
}

/** Forgets a lost connection: the next statement for this URL opens a new one. */
function dropConnection(url: string): void {
  const c = connections.get(url);
  connections.delete(url);
  c?.then(
    ({ pool, reserved }) => {
      reserved.release();
      pool.close({ timeout: 0 }).catch(() => {});
    },
    () => {},
  );
}

function failure(error: unknown): Extract<BridgeReply, { error: object }> {
  return { error: describeFailure(error) };
}

// A pool reconnects by itself: a lost read connection needs nothing more than the error.
reads.on("message", async (req) => {
  const reply = await read(req).catch(failure);
  reads.postMessage({ ...reply, seq: req.seq });
});

/**
 * Whether a statement that met a lost connection may run again on a new one: it can have done
 * nothing that outlives the session. A transaction's start (the old session's transaction died with
 * it) and a read outside a transaction. Anything else may have run before the connection went (a
 * write, a COMMIT whose answer was lost) and fails: its caller answers 503 (src/http/errors.ts).
 */
function retryable(req: BridgeRequest): boolean {
  if (req.kind === "script") return /^\s*BEGIN\b/i.test(req.text);
  return req.kind === "query" && !req.guard && READ_ONLY.test(req.text);
}

async function handleOrReconnect(req: BridgeRequest): Promise<BridgeReply> {
  try {
    return await handle(req);
  } catch (error) {
    if (!failure(error).error.lost || !retryable(req)) throw error;
    dropConnection(req.url);
    // The session changed all the same (advisory locks held in the old one are gone): said in the reply.
    const reply = await handle(req);
    return reply.error ? reply : { ...reply, reconnected: true };
  }
}

port.on("message", async (req) => {
  let reply: BridgeReply;
  try {
    reply = await handleOrReconnect(req);
  } catch (error) {
    reply = failure(error);
    // Its session went with it (a transaction, advisory locks): the main thread is told (database.ts).
    if (reply.error.lost) dropConnection(req.url);
  }
  port.postMessage({ ...reply, seq: req.seq });
  // A count, not a flag: the main thread waits for it to move past the value it last saw.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
