// Contacts in and out as CSV: an import creates and updates contacts by Chatwoot's rules and reports
// the rows it refused; an export answers the CSV; both are for administrators of the account only.
import { describe, expect, test } from "bun:test";
import { EXPORT_BATCH } from "../../src/db/contacts-export.repo.ts";
import { EMPTY_CONTACT } from "../../src/domain/contact-input.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { createHarness, type Harness } from "../helpers/harness.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

async function setup() {
  const h = createHarness();
  const a = await makeAccount(h, "Acme Shop");
  const b = await makeAccount(h, "Globex");
  const agent = await makeMember(h, a.accountId, "agent", "Ann");
  return { h, a, b, agent, base: `/api/v1/accounts/${a.accountId}/contacts` };
}

/** Through h.request, which commits the setup's open group first (on PostgreSQL the token is read on the read pool). */
async function upload(h: Harness, path: string, token: string, csv: string | null) {
  const form = new FormData();
  if (csv !== null) form.append("import_file", new File([csv], "contacts.csv", { type: "text/csv" }));
  const r = await h.request<any>("POST", path, { token, body: form });
  return { status: r.status, body: r.body };
}

const count = (h: Harness) => (h.deps.db.query("SELECT count(*) AS n FROM contacts").get() as { n: number }).n;

describe("POST /contacts/import", () => {
  test("creates new contacts, updates the one a row names, and reports refused rows by number", async () => {
    const { h, a, base } = await setup();
    const existing = await h.request("POST", base, {
      token: a.adminToken,
      body: { name: "Old Name", email: "kim@example.com" },
    });
    const before = h.lastEventId();
    const csv = [
      "Name,Email,Phone_Number,Identifier,Company,City,plan",
      "Kim Park,KIM@example.com,,,Initech,Seoul,gold",
      'Lee Chan,lee@example.com,14155550100,crm-7,"Acme, Inc.",,',
      "Bad Mail,not-an-email,,,,,",
      "No Country,,(415) 555-0100,,,,",
    ].join("\r\n");
    const r = await upload(h, `${base}/import`, a.adminToken, csv);
    expect(r).toEqual({
      status: 200,
      body: {
        data_import: {
          total_records: 4,
          processed_records: 2,
          created_records: 1,
          updated_records: 1,
          failed_records: [
            { row: 4, errors: ["email is not a valid email address"] },
            {
              row: 5,
              errors: [
                "phone_number should be in e164 format: a + and the country code, then the number (e.g. +14155550100)",
              ],
            },
          ],
        },
      },
    });
    const kim = (await h.request("GET", `${base}/${existing.body.payload.contact.id}`, { token: a.adminToken })).body
      .payload;
    expect([kim.name, kim.email, kim.additional_attributes, kim.custom_attributes]).toEqual([
      "Kim Park",
      "kim@example.com",
      { company_name: "Initech", city: "Seoul" },
      { plan: "gold" },
    ]);
    const lee = (await h.request("GET", `${base}/search?q=lee@example.com`, { token: a.adminToken })).body.payload[0];
    expect([lee.name, lee.phone_number, lee.identifier, lee.additional_attributes]).toEqual([
      "Lee Chan",
      "+14155550100",
      "crm-7",
      { company_name: "Acme, Inc." },
    ]);
    expect(h.events(before).map((e) => e.kind)).toEqual(["contact_updated", "contact_created"]);
  });

  test("a missing file, a file without a known column and broken CSV are 422s that change nothing", async () => {
    const { h, a, base } = await setup();
    const cases: [string | null, string][] = [
      [null, "import_file must be a CSV file with a header row"],
      [
        "first,last\nKim,Park\n",
        "import_file needs a header row naming at least one of name, email, phone_number, identifier",
      ],
      ['name\n"Kim', "import_file is not valid CSV: a quoted field is not closed"],
    ];
    for (const [csv, description] of cases) {
      const r = await upload(h, `${base}/import`, a.adminToken, csv);
      expect([r.status, r.body.description]).toEqual([422, description]);
    }
    expect(count(h)).toBe(0);
  });

  test("agents and other accounts' administrators are refused", async () => {
    const { h, b, agent, base } = await setup();
    expect((await upload(h, `${base}/import`, agent.token, "name\nKim\n")).status).toBe(403);
    expect((await upload(h, `${base}/import`, b.adminToken, "name\nKim\n")).status).toBe(401);
    expect(count(h)).toBe(0);
  });
});

describe("POST /contacts/export", () => {
  test("the account's contacts as CSV, default columns, formula-looking text made harmless", async () => {
    const { h, a, b, base } = await setup();
    await h.request("POST", base, {
      token: a.adminToken,
      body: { name: "Kim Park", email: "kim@example.com", phone_number: "+14155550100" },
    });
    await h.request("POST", base, { token: a.adminToken, body: { name: "=cmd|' /C calc'!A0" } });
    await h.request("POST", `/api/v1/accounts/${b.accountId}/contacts`, {
      token: b.adminToken,
      body: { name: "Other Account" },
    });
    const r = await h.request("POST", `${base}/export`, { token: a.adminToken, body: {} });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="Acme_Shop_${a.accountId}_contacts.csv"`);
    const ids = (
      h.deps.db.query("SELECT id FROM contacts WHERE account_id = ? ORDER BY id").all(a.accountId) as { id: number }[]
    ).map((c) => c.id);
    expect(r.text).toBe(
      `id,name,email,phone_number\r\n${ids[0]},Kim Park,kim@example.com,+14155550100\r\n${ids[1]},'=cmd|' /C calc'!A0,,\r\n`,
    );
  });

  test("chosen columns; an unknown column is a 422 naming it; agents are refused", async () => {
    const { h, a, agent, base } = await setup();
    await h.request("POST", base, { token: a.adminToken, body: { name: "Kim", identifier: "crm-1" } });
    const r = await h.request("POST", `${base}/export`, {
      token: a.adminToken,
      body: { column_names: ["identifier", "name"] },
    });
    expect(r.text).toBe("identifier,name\r\ncrm-1,Kim\r\n");
    const bad = await h.request("POST", `${base}/export`, {
      token: a.adminToken,
      body: { column_names: ["name", "password"] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({
      field: "column_names",
      message: expect.stringContaining("has unknown columns: password;"),
    });
    expect((await h.request("POST", `${base}/export`, { token: agent.token, body: {} })).status).toBe(403);
  });

  test("an account larger than one read batch: every contact once, in id order", async () => {
    const { h, a, base } = await setup();
    const n = EXPORT_BATCH + 5;
    const contacts = h.deps.repos.contacts;
    await h.deps.writeTx.steps(function* () {
      for (let i = 0; i < n; i++)
        yield* contacts.insertSteps(a.accountId, { ...EMPTY_CONTACT, name: `Contact ${i}` }, 1_700_000_000);
    });
    const r = await h.request("POST", `${base}/export`, { token: a.adminToken, body: { column_names: ["name"] } });
    expect(r.status).toBe(200);
    const lines = r.text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(n + 1);
    expect(lines.slice(1)).toEqual(Array.from({ length: n }, (_, i) => `Contact ${i}`));
  });
});

describe.skipIf(TEST_ENGINE !== "postgres")("PostgreSQL: import and export run nothing in place", () => {
  test("an import that creates one contact and updates another, then the export", async () => {
    const { h, a, base } = await setup();
    const kim = await h.request("POST", base, { token: a.adminToken, body: { name: "Kim", email: "kim@example.com" } });
    expect(kim.status).toBe(200);
    let exported = "";
    const blocking = await blockingDuring(async () => {
      const r = await upload(
        h,
        `${base}/import`,
        a.adminToken,
        "name,email\nKim Park,kim@example.com\nLee,lee@example.com\n",
      );
      expect(r.body.data_import).toMatchObject({ created_records: 1, updated_records: 1, failed_records: [] });
      exported = (await h.request("POST", `${base}/export`, { token: a.adminToken, body: { column_names: ["name"] } }))
        .text;
    });
    expect(blocking).toEqual([]);
    expect(exported).toBe("name\r\nKim Park\r\nLee\r\n");
  });
});
