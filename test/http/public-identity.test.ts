// Identity verification: identifier_hash = hex HMAC-SHA256(inbox hmac_token, identifier). Required
// for an identifier when the inbox has hmac_mandatory or a hash is sent; success marks the identity
// verified, and a verified identity sees all the contact's conversations.
import { createHmac } from "node:crypto";
import { describe, expect, test } from "bun:test";
import { identifierHash } from "../../src/domain/public-contacts.service.ts";
import { newContact, publicWorld, type PublicWorld } from "../helpers/public-fixtures.ts";

const hashOf = (w: PublicWorld, identifier: string) =>
  createHmac("sha256", w.inbox.hmac_token!).update(identifier).digest("hex");
const verifiedOf = (w: PublicWorld, sourceId: string) =>
  (
    w.h.deps.db.query("SELECT hmac_verified FROM contact_inboxes WHERE source_id = ?").get(sourceId) as {
      hmac_verified: number;
    }
  ).hmac_verified;
const contacts = (w: PublicWorld) => (w.h.deps.db.query("SELECT count(*) AS n FROM contacts").get() as { n: number }).n;
const HMAC_FAILED = [
  { field: "identifier_hash", message: "HMAC failed: Invalid Identifier Hash Provided", code: "unauthorized" },
];

describe("identity verification", () => {
  test("the hash is the standard HMAC-SHA256 in hex (what a site's backend computes)", () => {
    expect(identifierHash("secret", "user-1")).toBe(createHmac("sha256", "secret").update("user-1").digest("hex"));
  });

  test("hmac_mandatory: an identifier without its hash, or with a wrong one, is 401 and creates nothing", async () => {
    const w = await publicWorld({ channel: { type: "api", hmac_mandatory: true } });
    for (const body of [
      { identifier: "u-1" },
      { identifier: "u-1", identifier_hash: "00" },
      { identifier: "u-1", identifier_hash: hashOf(w, "u-2") },
    ]) {
      const r = await w.h.request("POST", `${w.base}/contacts`, { body });
      expect([r.status, r.body.errors]).toEqual([401, HMAC_FAILED]);
    }
    expect(contacts(w)).toBe(0);
  });

  test("hmac_mandatory: the right hash (any letter case) creates a verified identity; no identifier, no check and no verification", async () => {
    const w = await publicWorld({ channel: { type: "api", hmac_mandatory: true } });
    const c = await newContact(w, { identifier: "u-1", identifier_hash: hashOf(w, "u-1").toUpperCase(), name: "Uma" });
    expect(verifiedOf(w, c.source_id)).toBe(1);
    const anonymous = await newContact(w, { name: "Anon" });
    expect(verifiedOf(w, anonymous.source_id)).toBe(0);
    // The account API shows it too.
    const conv = await w.h.request("POST", `${w.api}/conversations`, {
      token: w.a.adminToken,
      body: { inbox_id: w.inbox.id, contact_id: c.id, source_id: c.source_id },
    });
    expect(conv.body.meta.hmac_verified).toBe(true);
  });

  test("without hmac_mandatory: a sent hash is still checked; an identifier alone is accepted but not verified", async () => {
    const w = await publicWorld();
    const bad = await w.h.request("POST", `${w.base}/contacts`, {
      body: { identifier: "u-1", identifier_hash: hashOf(w, "other") },
    });
    expect([bad.status, bad.body.errors]).toEqual([401, HMAC_FAILED]);
    const plain = await newContact(w, { identifier: "u-1" });
    expect(verifiedOf(w, plain.source_id)).toBe(0);
    const good = await newContact(w, { identifier: "u-1", identifier_hash: hashOf(w, "u-1") });
    expect(good.id).toBe(plain.id);
    expect(verifiedOf(w, good.source_id)).toBe(1);
  });

  test("a known source_id with the verified identifier of its contact becomes verified", async () => {
    const w = await publicWorld();
    const c = await newContact(w, { source_id: "browser-1", identifier: "u-7" });
    expect(verifiedOf(w, "browser-1")).toBe(0);
    const again = await newContact(w, { source_id: "browser-1", identifier: "u-7", identifier_hash: hashOf(w, "u-7") });
    expect(again).toEqual(c);
    expect(verifiedOf(w, "browser-1")).toBe(1);
  });

  test("a verified identifier never vouches for a contact found by email (that contact is not verified)", async () => {
    const w = await publicWorld();
    const victim = await w.h.request("POST", `${w.api}/contacts`, {
      token: w.a.adminToken,
      body: { name: "Victim", email: "victim@example.com" },
    });
    const c = await newContact(w, {
      identifier: "attacker-1",
      identifier_hash: hashOf(w, "attacker-1"),
      email: "victim@example.com",
    });
    expect(c.id).toBe(victim.body.payload.contact.id);
    expect(verifiedOf(w, c.source_id)).toBe(0);
  });
});
