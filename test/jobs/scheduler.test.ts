// The job loop, with signals instead of sleeps: each run and each stop hook is held by a promise the
// test releases, so "stop() waits" is checked by order of events, not by elapsed time.
import { describe, expect, test } from "bun:test";
import { everySeconds, Scheduler } from "../../src/jobs/scheduler.ts";
import { createLogger } from "../../src/lib/logger.ts";

/** A promise and its resolver. */
function gate<T = void>() {
  let open!: (v: T) => void;
  const done = new Promise<T>((resolve) => (open = resolve));
  return { done, open };
}

describe("scheduler", () => {
  test("runs a job every second, survives a throwing run, and stop() waits for the run under way", async () => {
    const lines: string[] = [];
    const s = new Scheduler(createLogger("error", (l) => lines.push(l)));
    let runs = 0;
    let finished = 0;
    const secondStarted = gate();
    const release = gate();
    s.add({
      name: "tick",
      pattern: "* * * * * *",
      async run() {
        runs++;
        if (runs === 1) throw new Error("first run fails");
        secondStarted.open();
        await release.done;
        finished++;
      },
    });
    s.start();
    await secondStarted.done; // the first run threw, and the loop went on
    let stopped = false;
    const stopping = s.stop().then(() => void (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false); // still waiting for the run under way
    release.open();
    await stopping;
    expect(finished).toBe(1); // the second run was allowed to finish
    expect(lines.some((l) => JSON.parse(l).msg === "job failed" && JSON.parse(l).job === "tick")).toBe(true);
    expect(s.isStopped()).toBe(true); // nothing is scheduled after stop
  });
});

describe("scheduler stop hooks", () => {
  test("stop() calls each job's stop and waits for the work it reports, even when no run is under way", async () => {
    const s = new Scheduler(createLogger("silent"));
    const inFlight = gate();
    let drained = false;
    s.add({
      name: "worker",
      pattern: "0 0 0 1 1 *", // never runs during the test
      run() {},
      async stop() {
        await inFlight.done; // e.g. an HTTP attempt still in flight
        drained = true;
      },
    });
    s.start();
    let stopped = false;
    const stopping = s.stop().then(() => void (stopped = true));
    await Promise.resolve();
    expect([stopped, drained]).toEqual([false, false]);
    inFlight.open();
    await stopping;
    expect([stopped, drained]).toEqual([true, true]);
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

describe("everySeconds", () => {
  test("plain second intervals get a timer; anything else stays a cron pattern", () => {
    expect(["* * * * * *", "*/5 * * * * *", "*/10 * * * * *"].map(everySeconds)).toEqual([1, 5, 10]);
    expect(["0 * * * * *", "30 7 * * * *", "*/0 * * * * *", "* * * * *", "*/5 * * * * 1"].map(everySeconds)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
