// Contact list and search (docs/compatibility.md #10): matching, resolved-only, sorting,
// paging, short terms, and the 422s.
import { describe, expect, test } from "bun:test";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { readNow } from "../../src/db/reads.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const b = await makeAccount(h, "Globex");
  const base = `/api/v1/accounts/${a.accountId}/contacts`;
  const make = async (body: Record<string, unknown>, token = a.adminToken, path = base) => {
    const r = await h.request("POST", path, { token, body });
    expect(r.status).toBe(200);
    return r.body.payload.contact.id as number;
  };
  const ids = {
    ana: await make({ name: "Ana Johnson", email: "ana@alpha.io" }),
    bob: await make({ name: "bob stone", phone_number: "+4930123456" }),
    cid: await make({ name: "Cid", identifier: "CRM-Johnson-9" }),
    dee: await make({ name: "Dee", email: "dee@beta.io", additional_attributes: { company_name: "Johnson & Co" } }),
    anon: await make({ name: "Anonymous Johnson" }), // unresolved: no email, phone or identifier
  };
  await make(
    { name: "Other Johnson", email: "x@johnson.io" },
    b.adminToken,
    `/api/v1/accounts/${b.accountId}/contacts`,
  );
  const search = (qs: string, token = a.adminToken) => h.request("GET", `${base}/search?${qs}`, { token });
  return { h, a, b, base, ids, make, search };
}

const idsOf = (r: { body: { payload: { id: number }[] } }) => r.body.payload.map((c) => c.id);

describe("GET /contacts/search", () => {
  test("matches name, email, phone and company in any case, identifier in exact case; resolved contacts of this account only", async () => {
    const { search, ids } = await setup();
    const r = await search("q=JOHNSON");
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ count: 2, current_page: "1" });
    expect(idsOf(r)).toEqual([ids.ana, ids.dee]);
    expect(idsOf(await search("q=Johnson"))).toEqual([ids.ana, ids.cid, ids.dee]);
    expect(idsOf(await search("q=beta.io"))).toEqual([ids.dee]);
    expect(idsOf(await search("q=30123"))).toEqual([ids.bob]);
    expect(idsOf(await search("q=%20%20stone%20"))).toEqual([ids.bob]);
    expect((await search("q=zzz")).body).toEqual({ meta: { count: 0, current_page: "1" }, payload: [] });
  });

  test("each item is the Contact record with contact_inboxes, unless include_contact_inboxes=false", async () => {
    const { search, ids } = await setup();
    const r = await search("q=alpha");
    expect(r.body.payload).toEqual([
      {
        additional_attributes: {},
        availability_status: "offline",
        email: "ana@alpha.io",
        id: ids.ana,
        name: "Ana Johnson",
        phone_number: null,
        blocked: false,
        identifier: null,
        thumbnail: "",
        custom_attributes: {},
        created_at: 1767603600,
        contact_inboxes: [],
      },
    ]);
    expect((await search("q=alpha&include_contact_inboxes=false")).body.payload[0]).not.toHaveProperty(
      "contact_inboxes",
    );
  });

  test("terms under 3 characters match by prefix through the indexes", async () => {
    const { search, ids } = await setup();
    expect(idsOf(await search("q=an"))).toEqual([ids.ana]);
    expect(idsOf(await search("q=BO"))).toEqual([ids.bob]);
    expect(idsOf(await search("q=de"))).toEqual([ids.dee]);
    expect(idsOf(await search("q=49"))).toEqual([ids.bob]); // "+49…" typed without the plus
    expect(idsOf(await search("q=CR"))).toEqual([ids.cid]);
    expect(idsOf(await search("q=cr"))).toEqual([]); // identifier is exact-case
    expect(idsOf(await search("q=J"))).toEqual([ids.dee]); // company "Johnson & Co"
  });

  test("sorts by created_at (Chatwoot's, the web app's newest and oldest), ties by id the same way; the list too", async () => {
    const { search, ids, h, a, base } = await setup();
    // ana and cid created in the same second, dee before them, bob after.
    const at = (id: number, t: number) => h.deps.db.query("UPDATE contacts SET created_at = ? WHERE id = ?").run(t, id);
    at(ids.ana, 200);
    at(ids.cid, 200);
    at(ids.dee, 100);
    at(ids.bob, 300);
    expect(idsOf(await search("q=Johnson&sort=created_at"))).toEqual([ids.dee, ids.ana, ids.cid]);
    expect(idsOf(await search("q=Johnson&sort=-created_at"))).toEqual([ids.cid, ids.ana, ids.dee]);
    const list = (qs: string) => h.request("GET", `${base}?${qs}`, { token: a.adminToken });
    expect(idsOf(await list("sort=-created_at"))).toEqual([ids.bob, ids.cid, ids.ana, ids.dee]);
    expect(idsOf(await list("sort=created_at"))).toEqual([ids.dee, ids.ana, ids.cid, ids.bob]);
  });

  test("sorts by name, email, phone_number, last_activity_at, each descending with '-'", async () => {
    const { search, ids, h } = await setup();
    h.deps.db.query("UPDATE contacts SET last_activity_at = id * 10 WHERE id IN (?, ?)").run(ids.ana, ids.dee);
    expect(idsOf(await search("q=Johnson&sort=name"))).toEqual([ids.ana, ids.cid, ids.dee]);
    expect(idsOf(await search("q=Johnson&sort=-name"))).toEqual([ids.dee, ids.cid, ids.ana]);
    expect(idsOf(await search("q=Johnson&sort=email"))).toEqual([ids.ana, ids.dee, ids.cid]); // NULLs last ascending
    expect(idsOf(await search("q=Johnson&sort=-email"))).toEqual([ids.cid, ids.dee, ids.ana]); // and first descending
    expect(idsOf(await search("q=Johnson&sort=last_activity_at"))).toEqual([ids.ana, ids.dee, ids.cid]);
    expect(idsOf(await search("q=Johnson&sort=-last_activity_at"))).toEqual([ids.dee, ids.ana, ids.cid]); // NULLs last both ways
    expect(idsOf(await search("q=Johnson&sort=phone_number"))).toEqual([ids.ana, ids.cid, ids.dee]);
  });

  test("bad sort, missing or blank q are 422; bad page is page 1", async () => {
    const { search } = await setup();
    const bad = await search("q=ana&sort=shoe_size");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      {
        field: "sort",
        message:
          "must be one of: name, -name, email, -email, phone_number, -phone_number, last_activity_at, -last_activity_at, created_at, -created_at",
        code: "invalid",
      },
    ]);
    for (const qs of ["", "q=", "q=%20%20"]) {
      const r = await search(qs);
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual([
        { field: "q", message: "Specify search string with parameter q", code: "required" },
      ]);
    }
    expect((await search("q=Johnson&page=abc")).body.meta).toEqual({ count: 3, current_page: "1" });
  });

  test("quotes, FTS operators and odd text are searched as plain text (200); NUL or over 500 characters is a 422", async () => {
    const { search, make, ids } = await setup();
    const quoted = await make({ name: 'Dan "The Man" O\'Neil', email: "dan@near.io" });
    expect(idsOf(await search(`q=${encodeURIComponent('"the man"')}`))).toEqual([quoted]);
    expect(idsOf(await search(`q=${encodeURIComponent("o'neil")}`))).toEqual([quoted]);
    expect(idsOf(await search("q=near"))).toEqual([quoted]); // NEAR is an FTS5 keyword, here a word
    for (const q of [
      '"',
      '"""',
      'a"b',
      "NEAR(ana johnson)",
      "ana OR bob",
      "ana AND NOT bob",
      "^ana",
      "{name}:ana",
      "name:ana",
      "(ana",
      "-ana",
      "ana*",
      "\\",
      "x".repeat(500),
      "é".repeat(400),
      "😀😀",
    ]) {
      const r = await search(`q=${encodeURIComponent(q)}`);
      expect([q.slice(0, 12), r.status]).toEqual([q.slice(0, 12), 200]);
      expect(r.body.meta.count).toBe(0);
    }
    expect(idsOf(await search(`q=${encodeURIComponent("ana@")}`))).toEqual([ids.ana]);
    for (const q of ["a%00b", "%00", "ab%00", "%00%00%00", "%22%00"]) {
      const r = await search(`q=${q}`);
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual([{ field: "q", message: "must not contain NUL characters", code: "invalid" }]);
    }
    const long = await search(`q=${"x".repeat(10_240)}`);
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual([
      { field: "q", message: "is too long (maximum is 500 characters)", code: "too_long" },
    ]);
  });

  test("a phone fragment with its plus matches phone numbers from their start, and any name, email, company or identifier containing it", async () => {
    const { search, make, ids, b } = await setup();
    const tagged = await make({ name: "Tagged", email: "ana+4930@alpha.io" });
    const named = await make({ name: "Call +49301 now", email: "call@x.io" });
    const company = await make({
      name: "Co",
      email: "co@x.io",
      additional_attributes: { company_name: "Dial +4930 Ltd" },
    });
    const identified = await make({ name: "Ident", identifier: "ID+4930" });
    await make(
      { name: "Elsewhere", phone_number: "+4930777777" },
      b.adminToken,
      `/api/v1/accounts/${b.accountId}/contacts`,
    );
    const plus = await search(`q=${encodeURIComponent("+4930")}`);
    expect(plus.body.meta.count).toBe(5);
    expect(idsOf(plus)).toEqual([ids.bob, tagged, named, company, identified]);
    expect(idsOf(await search(`q=${encodeURIComponent("+49301")}`))).toEqual([ids.bob, named]);
    expect(idsOf(await search(`q=${encodeURIComponent("+301")}`))).toEqual([]); // "+" starts a number: no match inside one
    expect(idsOf(await search("q=301"))).toEqual([ids.bob, named]); // without the plus: anywhere
    expect(idsOf(await search(`q=${encodeURIComponent("+4930")}&sort=-name`))).toEqual([
      tagged,
      identified,
      company,
      named,
      ids.bob,
    ]); // names in any case (ASCII), as the contact list sorts them
  });

  test("an account alone in the database counts hits without reading rows; a second account changes nothing it sees", async () => {
    const h = createHarness();
    const a = await makeAccount(h, "Solo");
    const path = (id: number) => `/api/v1/accounts/${id}/contacts`;
    for (const [name, email] of [
      ["Rita Moss", "rita@moss.io"],
      ["Moss Lee", "lee@x.io"],
      ["Unrelated", "u@x.io"],
    ])
      expect((await h.request("POST", path(a.accountId), { token: a.adminToken, body: { name, email } })).status).toBe(
        200,
      );
    const search = (id: number, token: string, sort = "") =>
      h.request("GET", `${path(id)}/search?q=moss${sort}`, { token });
    const names = (res: { body: { payload: { name: string }[] } }) => res.body.payload.map((c) => c.name);
    const solo = await search(a.accountId, a.adminToken);
    expect(solo.body.meta).toEqual({ count: 2, current_page: "1" });
    expect(names(solo)).toEqual(["Rita Moss", "Moss Lee"]);
    const soloSorted = await search(a.accountId, a.adminToken, "&sort=name");
    expect(soloSorted.body.meta).toEqual({ count: 2, current_page: "1" });
    expect(names(soloSorted)).toEqual(["Moss Lee", "Rita Moss"]);

    const b = await makeAccount(h, "Second");
    expect(
      (
        await h.request("POST", path(b.accountId), {
          token: b.adminToken,
          body: { name: "Mossy Other", email: "o@moss.io" },
        })
      ).status,
    ).toBe(200);
    expect((await search(a.accountId, a.adminToken)).body.meta).toEqual({ count: 2, current_page: "1" });
    const other = await search(b.accountId, b.adminToken);
    expect(other.body.meta).toEqual({ count: 1, current_page: "1" });
    expect(names(other)).toEqual(["Mossy Other"]);
    // Sorted pages check each hit's account too.
    expect(names(await search(a.accountId, a.adminToken, "&sort=-name"))).toEqual(["Rita Moss", "Moss Lee"]);
    const otherSorted = await search(b.accountId, b.adminToken, "&sort=-name");
    expect(otherSorted.body.meta).toEqual({ count: 1, current_page: "1" });
    expect(names(otherSorted)).toEqual(["Mossy Other"]);
  });

  test("counts are reused only until a contact is added, removed or changes a searched field: every change shows at once", async () => {
    const { h, a, base, search, make, ids } = await setup();
    const version = () => (h.deps.db.query("SELECT n FROM contact_search_version").get() as { n: number }).n;
    const count = async () => (await search("q=johnson")).body.meta.count as number;
    expect(await count()).toBe(2);
    expect(await count()).toBe(2);
    const added = await make({ name: "New Johnson", email: "new@x.io" });
    expect(await count()).toBe(3);
    await h.request("PATCH", `${base}/${ids.ana}`, { token: a.adminToken, body: { name: "Ana Smith" } });
    expect(await count()).toBe(2);
    const before = version();
    readNow(h.deps.repos.contacts.touchActivitySteps(added, 1234)); // activity is not a searched field
    expect(version()).toBe(before);
    expect(await count()).toBe(2);
    await h.request("DELETE", `${base}/${added}`, { token: a.adminToken });
    expect(await count()).toBe(1);
    expect(version()).toBeGreaterThan(before);
  });

  test("pages of 15 with the total count; current_page is a string", async () => {
    const { search, make } = await setup();
    const made: number[] = [];
    for (let i = 0; i < 20; i++) made.push(await make({ name: `Pager ${i}`, email: `pager${i}@example.com` }));
    const p1 = await search("q=pager");
    expect(p1.body.meta).toEqual({ count: 20, current_page: "1" });
    expect(idsOf(p1)).toEqual(made.slice(0, 15));
    const p2 = await search("q=pager&page=2");
    expect(p2.body.meta).toEqual({ count: 20, current_page: "2" });
    expect(idsOf(p2)).toEqual(made.slice(15));
    expect((await search("q=pager&page=3")).body).toEqual({ meta: { count: 20, current_page: "3" }, payload: [] });
    // Sorted, the same pages and count: newest first.
    const s2 = await search("q=pager&sort=-created_at&page=2");
    expect(s2.body.meta).toEqual({ count: 20, current_page: "2" });
    expect(idsOf(s2)).toEqual(made.slice(0, 5).reverse());
    const s3 = await search("q=pager&sort=-created_at&page=3");
    expect(s3.body).toEqual({ meta: { count: 20, current_page: "3" }, payload: [] });
  });

  test("the index follows updates and deletes (triggers)", async () => {
    const { h, a, base, search, ids } = await setup();
    await h.request("PATCH", `${base}/${ids.ana}`, { token: a.adminToken, body: { name: "Ana Smith" } });
    expect(idsOf(await search("q=Johnson"))).toEqual([ids.cid, ids.dee]);
    expect(idsOf(await search("q=smith"))).toEqual([ids.ana]);
    await h.request("PATCH", `${base}/${ids.anon}`, { token: a.adminToken, body: { email: "anon@example.com" } });
    expect(idsOf(await search("q=anonymous"))).toEqual([ids.anon]);
    await h.request("DELETE", `${base}/${ids.dee}`, { token: a.adminToken });
    expect(idsOf(await search("q=Johnson"))).toEqual([ids.cid, ids.anon]);
  });

  test("labels[] narrows to tagged contacts; agents may search; no token is 401", async () => {
    const { h, a, base, search, ids } = await setup();
    await h.request("POST", `${base}/${ids.dee}/labels`, { token: a.adminToken, body: { labels: ["vip"] } });
    expect(idsOf(await search("q=Johnson&labels[]=vip"))).toEqual([ids.dee]);
    const agent = await makeMember(h, a.accountId, "agent");
    expect((await search("q=Johnson", agent.token)).status).toBe(200);
    expect((await h.request("GET", `${base}/search?q=Johnson`)).status).toBe(401);
  });
});

describe("GET /contacts", () => {
  test("lists resolved contacts of the account, 15 per page, sortable", async () => {
    const { h, a, base, ids } = await setup();
    const r = await h.request("GET", base, { token: a.adminToken });
    expect(r.body.meta).toEqual({ count: 4, current_page: "1" });
    expect(idsOf(r)).toEqual([ids.ana, ids.bob, ids.cid, ids.dee]);
    expect(idsOf(await h.request("GET", `${base}?sort=-name`, { token: a.adminToken }))).toEqual([
      ids.dee,
      ids.cid,
      ids.bob,
      ids.ana,
    ]);
    expect((await h.request("GET", `${base}?sort=bogus`, { token: a.adminToken })).status).toBe(422);
  });
});
