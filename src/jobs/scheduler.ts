// The job loop: periodic work (draining the event bus, retrying deliveries, reopening snoozed
// conversations, WAL checkpoints). The only file that imports croner.
import { type Lease, SOLE_LEASE } from "../lib/lease.ts";
import { Cron } from "croner";
import { errorFields, type Logger } from "../lib/logger.ts";

export interface Job {
  name: string;
  /** A croner pattern; six fields means seconds are included ("* * * * * *" = every second). */
  pattern: string;
  run(): void | Promise<void>;
  /** Work a job started outside run() (e.g. webhook attempts still in flight): stop() waits for it. */
  stop?(): void | Promise<void>;
  /** Runs in every process, not only in the lease's holder (src/lib/lease.ts): a process's own sockets. */
  everywhere?: boolean;
}

/** Seconds between runs for the patterns "every second" and "every N seconds" (`*\/N` in the seconds field); null for any other. */
export function everySeconds(pattern: string): number | null {
  const m = /^\*(?:\/(\d{1,4}))? \* \* \* \* \*$/.exec(pattern.trim());
  if (!m) return null;
  const n = m[1] === undefined ? 1 : Number(m[1]);
  return n >= 1 ? n : null;
}

export class Scheduler {
  private readonly crons: Cron[] = [];
  /**
   * Jobs that run every N seconds get a plain interval, not a Cron: croner works out each next run
   * with time-zone-aware date arithmetic, and the every-second jobs made that ~10 % of the server's
   * CPU under load (bun test/bench/profile.ts "attachment upload (16 KB multipart)").
   */
  private readonly intervals: ReturnType<typeof setInterval>[] = [];
  private readonly jobs: Job[] = [];
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  private started = false;

  constructor(
    private readonly logger: Logger,
    /** Jobs other than `everywhere` ones run only while this process holds it. */
    private readonly lease: Lease = SOLE_LEASE,
  ) {}

  /** Registers a job; its schedule is worked out by start() (croner's first next-run costs ~0.7 ms a job). */
  add(job: Job): void {
    this.jobs.push(job);
  }

  private async runOnce(job: Job): Promise<void> {
    if (!job.everywhere && !this.lease.held) return;
    try {
      await job.run();
    } catch (error) {
      this.logger.error("job failed", { job: job.name, ...errorFields(error) });
    }
  }

  start(): void {
    if (this.stopped || this.started) return;
    this.started = true;
    for (const job of this.jobs) {
      const seconds = everySeconds(job.pattern);
      if (seconds !== null) {
        // As croner's `protect`: a run still under way makes the next tick skip, never overlap.
        let busy = false;
        const tick = () => {
          const run = busy ? undefined : this.track(job);
          if (!run) return;
          busy = true;
          void run.finally(() => {
            busy = false;
          });
        };
        this.intervals.push(setInterval(tick, seconds * 1000));
        continue;
      }
      this.crons.push(new Cron(job.pattern, { protect: true, name: job.name }, () => this.track(job)));
    }
  }

  /** One run, remembered until it ends (stop() waits for it); none once stopped. */
  private track(job: Job): Promise<void> | undefined {
    if (this.stopped) return undefined;
    const p = this.runOnce(job);
    this.running.add(p);
    return p.finally(() => this.running.delete(p));
  }

  /** Whether every job's schedule has stopped (after stop()). */
  isStopped(): boolean {
    return this.stopped && this.intervals.length === 0 && this.crons.every((c) => c.isStopped());
  }

  /** Stops scheduling new runs and waits for the runs under way (SIGTERM drains). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const c of this.crons) c.stop();
    for (const i of this.intervals.splice(0)) clearInterval(i);
    await Promise.all([...this.running, ...this.jobs.map((j) => this.stopJob(j))]);
  }

  private async stopJob(job: Job): Promise<void> {
    try {
      await job.stop?.();
    } catch (error) {
      this.logger.error("job stop failed", { job: job.name, ...errorFields(error) });
    }
  }
}
