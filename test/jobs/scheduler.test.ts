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
