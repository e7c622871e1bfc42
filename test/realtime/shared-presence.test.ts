// Presence shared between processes (src/realtime/shared-presence.ts): processes wired to each
// other by a function standing for NOTIFY (every process hears every line, its own included), on a
// manual clock. Someone online through one process is online in the others; a process started later
// learns the state by asking; a process gone silent is forgotten with whoever was online through it.
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/lib/clock.ts";
import { Presence } from "../../src/realtime/presence.ts";
import { EXPIRY_MS, HEARTBEAT_MS, SharedPresence } from "../../src/realtime/shared-presence.ts";

function network() {
  const clock = new ManualClock();
  const lines: string[] = [];
  const processes: { name: string; presence: Presence; shared: SharedPresence; changed: number[] }[] = [];
  const send = (line: string) => {
    lines.push(line);
    for (const p of processes) p.shared.hear(line);
  };
  /** A process joins the network and asks what the others know, as a server does at start. */
  const start = (name: string) => {
    const changed: number[] = [];
    const presence = new Presence();
    const shared = new SharedPresence({
      processId: name,
      send,
      clock,
      changed: (id) => void changed.push(id),
      localState: () => presence.localState(),
    });
    presence.share(shared);
    const p = { name, presence, shared, changed };
    processes.push(p);
    shared.start();
    return p;
  };
  return { clock, lines, start };
}

describe("presence shared between processes", () => {
  test("online through one process is online in the other, in its presence.update too; offline when gone", () => {
    const net = network();
    const a = net.start("a");
    const b = net.start("b");
    expect(a.presence.join("user", 1, 5)).toBe(true);
    expect(b.presence.isOnline(1, 5)).toBe(true);
    expect(b.presence.isOnline(2, 5)).toBe(false); // another account
    expect(b.changed).toContain(1);
    a.presence.join("contact", 1, 9);
    const members = new Map([[5, { user_id: 5, availability: "online", auto_offline: 1 }]]) as never;
    expect(b.presence.snapshot(1, members, true)).toEqual({
      account_id: 1,
      users: { 5: "online" },
      contacts: { 9: "online" },
    });

    // A second socket of the same user on a: no change to tell; the last one closing: offline.
    const told = net.lines.length;
    expect(a.presence.join("user", 1, 5)).toBe(false);
    expect(net.lines.length).toBe(told);
    a.presence.leave("user", 1, 5);
    expect(b.presence.isOnline(1, 5)).toBe(true);
    a.presence.leave("user", 1, 5);
    expect(b.presence.isOnline(1, 5)).toBe(false);
  });

  test("a process started later asks, and learns everyone online, in lines under NOTIFY's limit", () => {
    const net = network();
    const a = net.start("a");
    for (let id = 1; id <= 3000; id++) a.presence.join("user", 1, 100_000 + id);
    a.presence.join("contact", 2, 7);
    const before = net.lines.length;
    const b = net.start("b");
    const answer = net.lines.slice(before).filter((l) => l.startsWith("a = "));
    expect(answer.length).toBeGreaterThan(1); // the state was split
    for (const line of answer) expect(Buffer.byteLength(line)).toBeLessThan(8000);
    for (let id = 1; id <= 3000; id++) expect(b.presence.isOnline(1, 100_000 + id)).toBe(true);
    expect(b.presence.snapshot(2, new Map(), true).contacts).toEqual({ 7: "online" });
  });

  test("a process gone silent is forgotten after EXPIRY_MS; one that keeps ticking is kept", () => {
    const net = network();
    const a = net.start("a");
    const b = net.start("b");
    const c = net.start("c");
    a.presence.join("user", 1, 5);
    c.presence.join("user", 1, 6);
    // a and b keep ticking; c has died (it says nothing more).
    for (let t = 0; t <= EXPIRY_MS; t += HEARTBEAT_MS) {
      net.clock.advance(HEARTBEAT_MS);
      a.shared.tick();
      b.shared.tick();
    }
    expect(b.presence.isOnline(1, 5)).toBe(true);
    expect(b.presence.isOnline(1, 6)).toBe(false);
    expect(a.presence.isOnline(1, 6)).toBe(false);
    expect(b.changed.at(-1)).toBe(1); // its subscribers hear the change
  });

  test("lines that are not presence lines change nothing", () => {
    const net = network();
    const b = net.start("b");
    for (const line of ["", "x", "x + u", "x + u 1", "x * u 1 5", "x + q 1 5", "x + u one 5", "x + u 1 five"])
      b.shared.hear(line);
    expect(b.presence.isOnline(1, 5)).toBe(false);
    expect(b.presence.isOnline(1, 0)).toBe(false);
    expect(b.changed).toEqual([]);
  });
});
