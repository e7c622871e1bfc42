// The contact list's sorts by email, phone number and last activity (docs/compatibility.md #10):
// Chatwoot's NULL placement, and ties by id the sort's way, which is the order migration 033's
// indexes hold (test/db/planner-statistics.test.ts checks that each page is a walk of its index).
import { expect, test } from "bun:test";
import { makeAccount } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

test("email, phone_number and last_activity_at both ways: NULLs placed as Chatwoot does, ties by id the sort's way", async () => {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const base = `/api/v1/accounts/${a.accountId}/contacts`;
  const make = async (body: Record<string, unknown>) => {
    const r = await h.request("POST", base, { token: a.adminToken, body });
    expect(r.status).toBe(200);
    return r.body.payload.contact.id as number;
  };
  const ana = await make({ name: "Ana", email: "ana@alpha.io" });
  const bob = await make({ name: "Bob", phone_number: "+4930123456" });
  const cid = await make({ name: "Cid", identifier: "CRM-9" });
  const dee = await make({ name: "Dee", email: "dee@beta.io" });
  const eve = await make({ name: "Eve", email: "eve@gamma.io", phone_number: "+15550100" });
  await make({ name: "Anonymous" }); // unresolved: never listed
  const active = (id: number, at: number | null) =>
    h.deps.db.query("UPDATE contacts SET last_activity_at = ? WHERE id = ?").run(at, id);
  active(ana, 100);
  active(bob, 100);
  active(dee, 50);
  active(cid, null);
  active(eve, null);
  const list = async (sort: string) => {
    const r = await h.request("GET", `${base}?sort=${sort}`, { token: a.adminToken });
    expect(r.status).toBe(200);
    expect(r.body.meta.count).toBe(5);
    return r.body.payload.map((c: { id: number }) => c.id);
  };
  // Contacts without an email (or phone) come last ascending and first descending, as in PostgreSQL.
  expect(await list("email")).toEqual([ana, dee, eve, bob, cid]);
  expect(await list("-email")).toEqual([cid, bob, eve, dee, ana]);
  expect(await list("phone_number")).toEqual([eve, bob, ana, cid, dee]);
  expect(await list("-phone_number")).toEqual([dee, cid, ana, bob, eve]);
  // Never active comes last both ways; ana and bob were active in the same second.
  expect(await list("last_activity_at")).toEqual([dee, ana, bob, cid, eve]);
  expect(await list("-last_activity_at")).toEqual([bob, ana, dee, eve, cid]);
});
