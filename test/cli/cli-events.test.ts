// A command's writes record events like the server's do, but a command closes the database right
// after its write: listeners or a realtime fan-out woken for a later turn found it closed ("Cannot
// use a closed database" warnings after `parley seed`). Commands leave their events to the server,
// which picks them up with its drain.
import { afterAll, describe, expect, spyOn, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli.ts";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { EventBus } from "../../src/events/bus.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { RealtimeHub } from "../../src/realtime/hub.ts";
import { capture } from "../helpers/cli.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-cli-events-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("events written by a command", () => {
  test("wake nothing in the command's process, and the server's drain handles them", async () => {
    const path = join(dir, "seeded.db");
    const busWakes = spyOn(EventBus.prototype, "wake");
    const hubWakes = spyOn(RealtimeHub.prototype, "wake");
    try {
      const c = capture();
      const argv = ["seed", "--db", path, "--contacts", "20", "--conversations", "10"];
      const code = await runCli([...argv, "--messages-per-conversation", "2", "--json"], c.io);
      expect(code).toBe(0); // (progress goes to stderr with --json)
      expect(busWakes).toHaveBeenCalledTimes(0);
      expect(hubWakes).toHaveBeenCalledTimes(0);
    } finally {
      busWakes.mockRestore();
      hubWakes.mockRestore();
    }
    // The server opening the file runs the listeners over what the command wrote.
    const db = openDatabase(path);
    const newest = (db.query("SELECT max(id) AS id FROM events").get() as { id: number }).id;
    expect(newest).toBeGreaterThan(0);
    const server = createDeps({ db, config: loadConfig({ db: path }, {}), logger: createLogger("silent") });
    await server.bus.drain();
    expect(server.bus.cursorOf("automation")).toBe(newest);
    expect(server.bus.cursorOf("notifications")).toBe(newest);
    db.close();
  });
});
