// Contact create and update as awaited bodies (writeTx.steps, src/db/awaited-writes.ts), on the
// account API, the public API and the website chat. On both engines: the uniqueness checks and the
// public API's search for an existing contact run inside the body's own transaction, so two creates
// with one email sent together make one contact. On PostgreSQL: none of these requests sends
// anything through the synchronous bridge in place.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { world } from "../helpers/conversation-fixtures.ts";
import { publicWorld } from "../helpers/public-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { Visitor, widgetWorld } from "../helpers/widget-fixtures.ts";

describe("contact writes, awaited", () => {
  test("two creates with one email sent together: one contact, one 422 naming the email", async () => {
    const w = await world();
    const create = (name: string) =>
      w.h.request("POST", `${w.base}/contacts`, {
        token: w.a.adminToken,
        body: { name, email: "twin@example.com" },
      });
    const answers = await Promise.all([create("First"), create("Second")]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = answers.find((r) => r.status === 422)!;
    expect(refused.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    const rows = w.h.deps.db.prepare("SELECT name FROM contacts WHERE email = 'twin@example.com'").all();
    expect(rows).toHaveLength(1);
  });
});

describe("public contact writes, awaited", () => {
  test("two public creates with one email sent together find one contact", async () => {
    const w = await publicWorld();
    const create = () => w.h.request("POST", `${w.base}/contacts`, { body: { email: "pat@example.com" } });
    const answers = await Promise.all([create(), create()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(answers[1]!.body.source_id).not.toBe(answers[0]!.body.source_id);
    const rows = w.h.deps.db.prepare("SELECT id FROM contacts WHERE email = 'pat@example.com'").all();
    expect(rows).toHaveLength(1);
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: contact writes wait on nothing in place", () => {
  test("a create with its inbox and source id, then an update", async () => {
    const w = await world({ deps: { wakeListeners: false } });
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const created = await w.h.request("POST", `${w.base}/contacts`, {
        token: w.a.adminToken,
        body: { name: "Wanda", phone_number: "+15550100", inbox_id: w.inboxId, source_id: "wa-15550100" },
      });
      const c = created.body.payload;
      answers.push([created.status, c.contact.name, c.contact_inbox.source_id, c.contact.contact_inboxes.length]);
      const updated = await w.h.request("PATCH", `${w.base}/contacts/${c.contact.id}`, {
        token: w.a.adminToken,
        body: { name: "Wanda Maximoff", custom_attributes: { plan: "pro" } },
      });
      answers.push([updated.status, updated.body.payload.name, updated.body.payload.custom_attributes]);
    });
    expect(blocking).toEqual([]);
    expect(answers).toEqual([
      [200, "Wanda", "wa-15550100", 1],
      [200, "Wanda Maximoff", { plan: "pro" }],
    ]);
  });

  test("the public API's contact create, and the website chat's visitors and setUser", async () => {
    const p = await publicWorld({}, { deps: { wakeListeners: false } });
    const w = await widgetWorld({}, {}, { deps: { wakeListeners: false } });
    const visitor = new Visitor(w);
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const created = await p.h.request("POST", `${p.base}/contacts`, {
        body: { name: "Pat", email: "pat@example.com" },
      });
      answers.push([created.status, created.body.name]);
      const first = await visitor.start(); // a new visitor
      const again = await visitor.start(); // the same one, by its token
      answers.push([first.contact.name === again.contact.name, visitor.token !== null]);
      const set = await visitor.call("PATCH", "/contact/set_user", { identifier: "user-7", name: "Sam" });
      answers.push([set.status, set.body.name]);
    });
    expect(blocking).toEqual([]);
    expect(answers).toEqual([
      [200, "Pat"],
      [true, true],
      [200, "Sam"],
    ]);
  });
});
