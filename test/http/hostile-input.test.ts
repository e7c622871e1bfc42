// Every route of the app (read from its own OpenAPI document), fed ids that name nothing and bodies
// no client should send: nothing may answer 500, every 4xx must be the error envelope, and a
// refused request must leave the database as it found it. A NUL character is always refused.
import { describe, expect, test } from "bun:test";
import { changeLog, envelopeProblem } from "../helpers/hostile.ts";
import { hostileWorld } from "../helpers/hostile-world.ts";
import { type Probe, probesOf } from "../helpers/hostile-probes.ts";

describe("hostile input, every route", () => {
  test("no 500, the envelope on every 4xx, nothing changed by a refusal", async () => {
    const w = await hostileWorld();
    const log = await changeLog(w.h.deps.db);
    const probes = probesOf(w);
    const failures: string[] = [];
    // A sweep that never got past authentication would prove nothing: each route must answer something else.
    const unreached = new Set(w.routes.map((r) => `${r.method} ${r.path}`));
    unreached.delete("GET /files/{id}/{name}"); // its link's signature is checked first: 403 without one
    const fail = (p: Probe, status: number, why: string, text: string) =>
      failures.push(`${p.route.method} ${p.route.path} [${p.variant}] ${status} ${why}: ${text.slice(0, 200)}`);
    // The listeners' writes after a 2xx (and what their own events set off) are done before the next probe.
    const settle = async () => {
      for (let n = -1; n !== log.size(); ) {
        n = log.size();
        await w.h.deps.commits.settled();
        await w.h.deps.bus.drain();
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    // Settled after any probe that was let through or wrote something; a refusal that wrote nothing
    // recorded no event either, so it leaves no work behind (and settling after each of the ~6,500
    // probes cost the PostgreSQL pass half a minute).
    await settle();
    for (const p of probes) {
      const before = log.size();
      let r: Awaited<ReturnType<typeof w.h.request>>;
      try {
        r = await w.h.request(p.route.method, p.path, p.opts);
      } catch (error) {
        fail(p, 0, "threw", String(error));
        await settle();
        continue;
      }
      const wrote = log.size() > before;
      if (r.status !== 401 && r.status !== 403) unreached.delete(`${p.route.method} ${p.route.path}`);
      // A NUL is refused before any route sees it: PostgreSQL could not hold it (src/http/body.ts).
      if (p.variant.endsWith("= NUL") && r.status < 400) fail(p, r.status, "took a NUL character", r.text);
      if (r.status >= 500) fail(p, r.status, "server error", r.text);
      else if (r.status >= 400) {
        const problem = envelopeProblem(r.body);
        if (problem) fail(p, r.status, problem, r.text);
        // No refusal is exempt: even a failed sign-in is counted in memory (src/domain/sign-in-throttle.ts).
        if (wrote) fail(p, r.status, `refused but wrote ${log.tablesSince(before).join(", ")}`, r.text);
      }
      if (r.status < 400 || wrote) await settle();
    }
    console.log(`hostile input: ${probes.length} requests over ${w.routes.length} routes`);
    expect(failures).toEqual([]);
    expect([...unreached]).toEqual([]);
  }, 120_000);
});
