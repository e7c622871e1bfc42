import { describe, expect, test } from "bun:test";
import { Scheduler } from "../../src/jobs/scheduler.ts";
import { createLogger } from "../../src/lib/logger.ts";

describe("scheduler", () => {
  test("runs a job every second, survives a throwing run, and stop() waits for the run under way", async () => {
    const lines: string[] = [];
    const s = new Scheduler(createLogger("error", (l) => lines.push(l)));
    let runs = 0;
    let finished = 0;
    s.add({
      name: "tick",
      pattern: "* * * * * *",
      async run() {
        runs++;
        if (runs === 1) throw new Error("first run fails");
        await Bun.sleep(300);
        finished++;
      },
    });
    s.start();
    while (runs < 2) await Bun.sleep(50);
    await s.stop();
    expect(finished).toBe(1); // the second run was allowed to finish
    expect(lines.some((l) => JSON.parse(l).msg === "job failed" && JSON.parse(l).job === "tick")).toBe(true);
    const after = runs;
    await Bun.sleep(1100);
    expect(runs).toBe(after); // nothing runs after stop
  });
});

describe("scheduler stop hooks", () => {
  test("stop() calls each job's stop and waits for the work it reports, even when no run is under way", async () => {
    const s = new Scheduler(createLogger("silent"));
    let drained = false;
    s.add({
      name: "worker",
      pattern: "0 0 0 1 1 *", // never runs during the test
      run() {},
      async stop() {
        await Bun.sleep(200); // e.g. an HTTP attempt still in flight
        drained = true;
      },
    });
    s.start();
    const started = Date.now();
    await s.stop();
    expect(drained).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  test("a throwing stop hook is logged and does not stop the others", async () => {
    const lines: string[] = [];
    const s = new Scheduler(createLogger("error", (l) => lines.push(l)));
    let second = false;
    s.add({
      name: "bad",
      pattern: "0 0 0 1 1 *",
      run() {},
      stop: () => {
        throw new Error("nope");
      },
    });
    s.add({ name: "good", pattern: "0 0 0 1 1 *", run() {}, stop: () => void (second = true) });
    await s.stop();
    expect(second).toBe(true);
    expect(lines.map((l) => JSON.parse(l)).find((l) => l.msg === "job stop failed")).toMatchObject({
      job: "bad",
      error: "nope",
    });
  });
});
