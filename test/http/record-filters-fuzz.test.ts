// Random payloads to POST contacts/filter and conversations/filter: each a 200 or a 422 in the
// error envelope, never a 500, and nothing written.
import { describe, expect, test } from "bun:test";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";

describe("fuzzed payloads", () => {
  test("300 random payloads: each is a 200 or a 422 in the error envelope, never a 500, and nothing is written", async () => {
    const w = await world();
    await newConversation(w);
    // A small deterministic generator (mulberry32), so a failure replays.
    let seed = 20261124;
    const rnd = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const scalars = [
      null,
      0,
      -1,
      1.5,
      "",
      "open",
      "2026-01-01",
      "x".repeat(300),
      true,
      "%",
      "_",
      "'; DROP TABLE contacts; --",
      "+5511",
      [],
      {},
      ["a"],
      [1, "b"],
      [{ a: 1 }],
      [null],
    ];
    const keys = [
      "name",
      "email",
      "phone_number",
      "status",
      "labels",
      "created_at",
      "display_id",
      "assignee_id",
      "blocked",
      "plan",
      "",
      7,
      null,
    ];
    const ops = [
      "equal_to",
      "not_equal_to",
      "contains",
      "does_not_contain",
      "is_present",
      "is_not_present",
      "is_greater_than",
      "is_less_than",
      "days_before",
      "nope",
      3,
      null,
    ];
    const item = () =>
      rnd() < 0.1
        ? pick(scalars)
        : {
            attribute_key: pick(keys),
            filter_operator: pick(ops),
            values: pick(scalars),
            query_operator: pick(["AND", "or", "XOR", null, 1]),
            ...(rnd() < 0.3
              ? { custom_attribute_type: pick(["contact_attribute", "conversation_attribute", "", 5]) }
              : {}),
          };
    const before = w.h.lastEventId();
    for (let i = 0; i < 300; i++) {
      const payload = rnd() < 0.1 ? pick(scalars) : Array.from({ length: 1 + Math.floor(rnd() * 4) }, item);
      const path = pick(["/contacts/filter", "/conversations/filter"]);
      const r = await w.h.request("POST", `${w.base}${path}`, { token: w.a.adminToken, body: { payload } });
      if (r.status !== 200) {
        expect({ i, status: r.status }).toEqual({ i, status: 422 });
        expect(r.body.errors.length).toBeGreaterThan(0);
        expect(typeof r.body.errors[0].field).toBe("string");
      } else {
        expect(typeof r.body.meta.count).toBe("number");
      }
    }
    expect(w.h.lastEventId()).toBe(before);
    expect((w.h.deps.db.query("SELECT COUNT(*) AS n FROM contacts").get() as { n: number }).n).toBe(1);
  });
});
