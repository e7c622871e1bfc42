// The job loop: periodic work (draining the event bus, retrying deliveries, reopening snoozed
// conversations, WAL checkpoints). The only file that imports croner.
import { Cron } from "croner";
import { errorFields, type Logger } from "../lib/logger.ts";

export interface Job {
  name: string;
  /** A croner pattern; six fields means seconds are included ("* * * * * *" = every second). */
  pattern: string;
  run(): void | Promise<void>;
  /** Work a job started outside run() (e.g. webhook attempts still in flight): stop() waits for it. */
  stop?(): void | Promise<void>;
}

export class Scheduler {
  private readonly crons: Cron[] = [];
  private readonly jobs: Job[] = [];
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  /** Registers a job; its schedule is worked out by start() (croner's first next-run costs ~0.7 ms a job). */
  add(job: Job): void {
    this.jobs.push(job);
  }

  private async runOnce(job: Job): Promise<void> {
    try {
      await job.run();
    } catch (error) {
      this.logger.error("job failed", { job: job.name, ...errorFields(error) });
    }
  }

  start(): void {
    if (this.stopped || this.crons.length > 0) return;
    for (const job of this.jobs) {
      const cron = new Cron(job.pattern, { protect: true, name: job.name }, () => {
        if (this.stopped) return;
        const p = this.runOnce(job);
        this.running.add(p);
        return p.finally(() => this.running.delete(p));
      });
      this.crons.push(cron);
    }
  }

  /** Whether every job's schedule has stopped (after stop()). */
  isStopped(): boolean {
    return this.stopped && this.crons.every((c) => c.isStopped());
  }

  /** Stops scheduling new runs and waits for the runs under way (SIGTERM drains). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const c of this.crons) c.stop();
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
