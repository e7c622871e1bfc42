// Every error leaves in the one envelope, with the right status.
import { describe, expect, test } from "bun:test";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount } from "../helpers/factories.ts";
import { PostgresError } from "../../src/db/postgres/sync-bridge.ts";

describe("error envelope", () => {
  test("unknown route: 404", async () => {
    const h = createHarness();
    const r = await h.request("GET", "/api/v1/nothing-here");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      description: "Route not found",
      error: "Route not found",
      errors: [{ field: "path", message: "no route GET /api/v1/nothing-here", code: "not_found" }],
    });
  });

  test("malformed JSON: 400 naming the body, nothing changed", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: a.adminToken,
      body: '{"name": "x"',
    });
    expect(r.status).toBe(400);
    expect(r.body.description).toBe("Malformed JSON in request body");
    expect(r.body.errors[0].field).toBe("body");
    expect(r.body.errors[0].code).toBe("malformed");
    expect(h.deps.repos.accounts.byId(a.accountId)!.name).toBe("Acme");
  });

  test("validation: 422 with one item per bad field", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: a.adminToken,
      body: { name: "", locale: "far-too-long-locale", custom_attributes: "nope" },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "custom_attributes",
      "locale",
      "name",
    ]);
    expect(r.body.errors.every((e: { code: string }) => e.code === "invalid")).toBe(true);
  });

  test("body over the limit: 413 in the envelope", async () => {
    const h = createHarness({ env: { PARLEY_BODY_LIMIT: "2048" } });
    const a = await makeAccount(h);
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: a.adminToken,
      body: { name: "x".repeat(5000) },
    });
    expect(r.status).toBe(413);
    expect(r.body.errors).toEqual([
      { field: "body", message: "request body is larger than 2048 bytes", code: "too_large" },
    ]);
  });

  test("unexpected error: 500 with a request id and no internals", async () => {
    const h = createHarness();
    const app = h.app.get("/boom", () => {
      throw new Error("secret internal detail");
    });
    const res = await app.handle(new Request("http://localhost/boom"));
    const body = (await res.json()) as { description: string; errors: { message: string; code: string }[] };
    expect(res.status).toBe(500);
    expect(body.description).toBe("Internal server error");
    expect(body.errors[0]!.code).toBe("internal");
    expect(JSON.stringify(body)).not.toContain("secret internal detail");
    expect(body.errors[0]!.message).toBe(`reference ${res.headers.get("x-request-id")}`);
  });

  test("a lost database connection: 503 with Retry-After, naming no statement", async () => {
    const h = createHarness();
    const sql = "INSERT INTO messages (content) VALUES ($1)";
    const app = h.app.get("/lost", () => {
      throw new PostgresError("Connection closed", "ERR_POSTGRES_CONNECTION_CLOSED", sql, true);
    });
    const res = await app.handle(new Request("http://localhost/lost"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    const body = await res.json();
    expect(body).toEqual({
      description: "The database is unavailable",
      error: "The database is unavailable",
      errors: [
        { field: "database", message: "the connection to the database was lost; try again", code: "unavailable" },
      ],
    });
    expect(JSON.stringify(body)).not.toContain("INSERT");
  });

  test("a statement past its deadline: 503 with Retry-After, saying the database was late", async () => {
    const h = createHarness();
    const sql = "INSERT INTO contacts (name) VALUES ($1)";
    const app = h.app
      .get("/ended", () => {
        throw new PostgresError("canceling statement due to statement timeout", "57014", sql, true);
      })
      .get("/unanswered", () => {
        throw new PostgresError("PostgreSQL did not answer within 61 s", null, sql, true);
      });
    for (const path of ["/ended", "/unanswered"]) {
      const res = await app.handle(new Request(`http://localhost${path}`));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
      expect((await res.json()).errors).toEqual([
        { field: "database", message: "the database did not answer in time; try again", code: "unavailable" },
      ]);
    }
  });

  test("every response carries its own x-request-id: pre-serialised, plain, error and redirect", async () => {
    const h = createHarness();
    const a = await makeAccount(h);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const list = await h.request("GET", `/api/v1/accounts/${a.accountId}/conversations`, { token: a.adminToken });
    const labels = await h.request("GET", `/api/v1/accounts/${a.accountId}/labels`, { token: a.adminToken });
    const missing = await h.request("GET", "/api/v1/nothing-here");
    const unauthorized = await h.request("GET", `/api/v1/accounts/${a.accountId}/labels`);
    const redirect = await h.request("GET", "/");
    expect([list.status, labels.status, missing.status, unauthorized.status, redirect.status]).toEqual([
      200, 200, 404, 401, 302,
    ]);
    const ids = [list, labels, missing, unauthorized, redirect].map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(uuid);
    expect(new Set(ids).size).toBe(5);
    expect(list.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(redirect.headers.get("location")).toBe("/app");
  });
});
