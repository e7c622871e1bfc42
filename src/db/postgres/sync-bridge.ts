// Runs PostgreSQL statements synchronously. Parley's repositories and services are synchronous (one
// bun:sqlite connection, a writeTx body that must not await: src/db/tx.ts), and Bun.SQL only answers
// with promises. The bridge hands each statement to a worker thread that owns the connection
// (bridge-worker.ts) and blocks this thread on a shared counter until the worker has answered; the
// answer itself comes back as a message read without returning to the event loop
// (receiveMessageOnPort). The price is a round trip during which this process does nothing else
// (~60 µs a read, ~130 µs a write on a local server): docs/architecture.md "Two engines" says what
// that means for throughput, and why the repositories should still move to Bun.SQL's promises.
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { BridgeNotice, BridgeReply, BridgeRequest, Numbered, ReadRequest } from "./bridge-protocol.ts";

/**
 * A statement PostgreSQL refused; `code` is its SQLSTATE (23505: a unique key taken).
 * `databaseUnavailable`: the connection was lost, not the statement refused (the HTTP layer
 * answers 503 and Retry-After; src/http/errors.ts).
 */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly sql: string,
    readonly databaseUnavailable = false,
  ) {
    // The statement named, so a log line says which one (its parameters are not: they carry data).
    super(`${message} (in: ${sql.replace(/\s+/g, " ").slice(0, 300)})`);
    this.name = "PostgresError";
  }
}

// Run from source the worker sits beside this file. In the compiled binary (package.json's build
// names it as a second entrypoint) it is found by its path from src/: import.meta.url there is the
// bundle chunk's, which a relative URL cannot lead from.
const WORKER = import.meta.url.startsWith("file:///$bunfs/")
  ? "./db/postgres/bridge-worker.ts"
  : new URL("./bridge-worker.ts", import.meta.url);

// A statement that has not answered in this long is not coming back (the worker or the server died,
// or it waits on a lock nobody lets go); the server sets its own (PARLEY_DB_TIMEOUT_MS).
const TIMEOUT_MS = 60_000;

export class SyncBridge {
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly worker: Worker;

  private readonly noticeHandlers = new Map<string, ((payload: string) => void)[]>();
  private readonly readsPort: MessagePort;
  private readonly pendingReads = new Map<number, PendingRead>();

  constructor() {
    const { port1, port2 } = new MessageChannel();
    const notices = new MessageChannel();
    const reads = new MessageChannel();
    this.port = port1 as unknown as MessagePort;
    this.readsPort = reads.port1 as unknown as MessagePort;
    this.worker = new Worker(WORKER, {
      workerData: { port: port2, notices: notices.port2, reads: reads.port2, signal: this.signal },
      transferList: [port2, notices.port2, reads.port2],
    });
    reads.port1.on("message", (reply: Numbered<BridgeReply>) => this.settleRead(reply));
    // Notifications arrive as ordinary messages, handled when this thread's event loop gets to them.
    notices.port1.on("message", (n: BridgeNotice) => {
      for (const fn of this.noticeHandlers.get(`${n.url}\n${n.channel}`) ?? []) fn(n.payload);
    });
    // The bridge never keeps a process alive on its own; closing the databases ends the worker's work.
    this.worker.unref();
    (port1 as unknown as { unref?: () => void }).unref?.();
    notices.port1.unref();
    reads.port1.unref();
  }

  /** Calls `fn` whenever a NOTIFY on `channel` reaches the database at `url` (from any session). */
  listen(url: string, channel: string, fn: (payload: string) => void): void {
    const key = `${url}\n${channel}`;
    const handlers = this.noticeHandlers.get(key);
    if (handlers) return void handlers.push(fn);
    this.noticeHandlers.set(key, [fn]);
    this.call({ kind: "listen", url, channel });
  }

  /** Per database URL, how many connections were lost (session-level state lives as long as one). */
  private readonly sessions = new Map<string, number>();

  /** Changes when the connection to `url` was lost: advisory locks taken before are gone. */
  session(url: string): number {
    return this.sessions.get(url) ?? 0;
  }

  /** Set once a statement went unanswered: the process cannot know what became of it. */
  private stalled: string | null = null;
  private timeoutMs = TIMEOUT_MS;
  private onStall: ((reason: string) => void) | null = null;

  /**
   * The server's choice: how long a statement may take, and what happens once one went unanswered
   * (the bridge is of no more use: the server exits, and its supervisor starts it again).
   */
  configure(o: { timeoutMs: number; onStall: (reason: string) => void }): void {
    this.timeoutMs = o.timeoutMs;
    this.onStall = o.onStall;
  }

  /** How long a statement may take: the awaited bodies' connection keeps the same (held-connection.ts). */
  get deadlineMs(): number {
    return this.timeoutMs;
  }
  private seq = 0;

  call(req: BridgeRequest): Rows {
    if (this.stalled) throw new Error(this.stalled);
    const seq = ++this.seq;
    this.port.postMessage({ ...req, seq });
    const deadline = performance.now() + this.timeoutMs;
    for (;;) {
      // The worker counts its replies in the shared word; read it before looking for the reply, so a
      // reply that lands in between moves it and the wait below returns at once.
      const seen = Atomics.load(this.signal, 0);
      for (let m = receiveMessageOnPort(this.port as never); m; m = receiveMessageOnPort(this.port as never)) {
        const reply = m.message as Numbered<BridgeReply>;
        // Each reply carries its request's number: nothing is ever read as another statement's answer.
        if (reply.seq !== seq) continue;
        if (reply.error) {
          if (reply.error.lost) this.sessions.set(req.url, this.session(req.url) + 1);
          throw new PostgresError(
            reply.error.message,
            reply.error.code,
            "text" in req ? req.text : "",
            reply.error.lost,
          );
        }
        if (reply.reconnected) this.sessions.set(req.url, this.session(req.url) + 1);
        return reply;
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        this.stalled = `PostgreSQL did not answer within ${this.timeoutMs / 1000} s; this process must be restarted`;
        this.onStall?.(this.stalled);
        throw new Error(this.stalled);
      }
      // A reply can be counted a moment before its message is readable here: look again soon.
      Atomics.wait(this.signal, 0, seen, Math.min(left, 5));
    }
  }

  /**
   * Runs a read without blocking this thread: the answer comes as a message the event loop delivers,
   * and other requests are served meanwhile. It runs on a connection of the read pool, not the
   * reserved one: committed rows only, never the open transaction's (async-reads.ts says when to use it).
   */
  read(req: ReadRequest): Promise<Rows> {
    if (this.stalled) return Promise.reject(new Error(this.stalled));
    const seq = ++this.seq;
    return new Promise<Rows>((resolve, reject) => {
      // An awaited read keeps the process alive, as any pending I/O does; an idle port does not.
      if (this.pendingReads.size === 0) (this.readsPort as unknown as { ref(): void }).ref();
      // Unanswered past the statements' limit: the request fails as when the database is away (503);
      // the bridge stays usable, since nothing waits on this thread.
      const timer = setTimeout(() => {
        const message = `PostgreSQL did not answer a read within ${this.timeoutMs / 1000} s`;
        this.settleRead({ seq, error: { message, code: null, lost: true } });
      }, this.timeoutMs);
      timer.unref();
      this.pendingReads.set(seq, { resolve, reject, sql: req.text, timer });
      this.readsPort.postMessage({ ...req, seq });
    });
  }

  private settleRead(reply: Numbered<BridgeReply>): void {
    const pending = this.pendingReads.get(reply.seq);
    if (!pending) return; // answered after its time ran out
    this.pendingReads.delete(reply.seq);
    clearTimeout(pending.timer);
    if (this.pendingReads.size === 0) (this.readsPort as unknown as { unref(): void }).unref();
    if (reply.error)
      pending.reject(new PostgresError(reply.error.message, reply.error.code, pending.sql, reply.error.lost));
    else pending.resolve(reply);
  }

  terminate(): void {
    void this.worker.terminate();
  }
}

type Rows = { rows: unknown[]; count: number };

interface PendingRead {
  resolve: (rows: Rows) => void;
  reject: (error: Error) => void;
  sql: string;
  timer: ReturnType<typeof setTimeout>;
}

let shared: SyncBridge | null = null;

/** One worker serves every PostgreSQL database this process opens. */
export function sharedBridge(): SyncBridge {
  shared ??= new SyncBridge();
  return shared;
}
