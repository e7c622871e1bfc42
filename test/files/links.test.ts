// Signed attachment links: stable within a day, a new expiry (and signature) the next day, and every
// link handed out verifies — including after the signatures kept for reuse were emptied or replaced.
import { describe, expect, test } from "bun:test";
import { FileLinks } from "../../src/files/links.ts";
import { ManualClock } from "../../src/lib/clock.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

function parts(url: string): { id: number; expires: number; signature: string } {
  const u = new URL(url);
  return {
    id: Number(u.pathname.split("/")[2]),
    expires: Number(u.searchParams.get("expires")),
    signature: u.searchParams.get("signature")!,
  };
}

describe("FileLinks", () => {
  test("a link is the same all day and expires at the end of the eighth day", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 0, 0));
    const links = new FileLinks("https://desk.example/", "key-1", clock);
    const first = links.url({ id: 7, filename: "photo.png" });
    clock.advance(14 * 60 * 60 * 1000); // 23:00 the same day
    expect(links.url({ id: 7, filename: "photo.png" })).toBe(first);
    expect(first.startsWith("https://desk.example/files/7/photo.png?expires=")).toBe(true);
    expect(parts(first).expires).toBe(Date.UTC(2026, 0, 13) / 1000);
  });

  test("the next day gives a new expiry whose signature verifies, and the old link still does", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 0, 0));
    const links = new FileLinks("https://desk.example", "key-1", clock);
    const before = parts(links.url({ id: 7, filename: "a.txt" }));
    clock.advance(DAY_MS);
    const after = parts(links.url({ id: 7, filename: "a.txt" }));
    expect(after.expires).toBe(before.expires + DAY_MS / 1000);
    expect(after.signature).not.toBe(before.signature);
    expect(links.verify(7, after.expires, after.signature)).toBe(true);
    expect(links.verify(7, before.expires, before.signature)).toBe(true);
    expect(links.verify(8, after.expires, after.signature)).toBe(false);
    expect(links.verify(7, after.expires + 1, after.signature)).toBe(false);
  });

  test("signatures match another instance's with the same key after the kept ones were emptied", () => {
    const clock = new ManualClock();
    const links = new FileLinks("https://desk.example", "key-1", clock);
    const fresh = new FileLinks("https://desk.example", "key-1", clock);
    const other = new FileLinks("https://desk.example", "key-2", clock);
    for (let id = 1; id <= 5000; id++) links.url({ id, filename: "f" }); // more than are kept
    for (const id of [1, 4096, 4097, 5000]) {
      const url = links.url({ id, filename: "f" });
      expect(url).toBe(fresh.url({ id, filename: "f" }));
      const p = parts(url);
      expect(fresh.verify(id, p.expires, p.signature)).toBe(true);
      expect(other.verify(id, p.expires, p.signature)).toBe(false);
    }
  });
});
