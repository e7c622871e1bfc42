// safePost (src/lib/ssrf.ts) against receivers started by the test: delivery, refusals, timeouts,
// redirects not followed, capped bodies, error statuses, and https to a pinned address.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { safePost } from "../../src/lib/ssrf.ts";

describe("safePost against a local receiver", () => {
  type Seen = { method: string; path: string; host: string | null; headers: Record<string, string>; body: string };
  const seen: Seen[] = [];
  let server: ReturnType<typeof Bun.serve>;
  let base: string;
  const { promise: neverBefore, resolve: end } = Promise.withResolvers<void>();
  const post = (path: string, extra: Partial<Parameters<typeof safePost>[1]> = {}) =>
    safePost(`${base}${path}`, {
      body: '{"event":"message_created"}',
      headers: { "X-Chatwoot-Delivery": "d-1", host: "evil.example" },
      timeoutMs: 2_000,
      maxResponseBytes: 1024,
      allowPrivate: true,
      ...extra,
    });

  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const path = new URL(req.url).pathname;
        seen.push({
          method: req.method,
          path,
          host: req.headers.get("host"),
          headers: Object.fromEntries(req.headers),
          body: await req.text(),
        });
        if (path === "/slow") {
          await neverBefore; // answered only once the tests are over
          return new Response("late");
        }
        if (path === "/redirect")
          return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
        if (path === "/big") return new Response("x".repeat(3_000_000));
        if (path === "/throttled") return new Response("slow down", { status: 429, headers: { "retry-after": "120" } });
        if (path === "/broken") return new Response("oops", { status: 500 });
        return new Response("thanks", { status: 200 });
      },
    });
    base = `http://localhost:${server.port}`;
  });
  afterAll(() => {
    end();
    return server.stop(true);
  });

  test("200: delivered, body and headers arrive, Host is the URL's host", async () => {
    const r = await post("/hook?account=1");
    expect(r).toMatchObject({ ok: true, status: 200, error: null, responseBody: "thanks", retryAfterSeconds: null });
    expect(["127.0.0.1", "::1"]).toContain(r.address!);
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    const s = seen.at(-1)!;
    expect(s.method).toBe("POST");
    expect(s.path).toBe("/hook");
    expect(s.host).toBe(`localhost:${server.port}`); // a caller-supplied Host cannot override it
    expect(s.body).toBe('{"event":"message_created"}');
    expect(s.headers["x-chatwoot-delivery"]).toBe("d-1");
    expect(s.headers["content-type"]).toBe("application/json");
  });

  test("the same receiver is refused without allowPrivate, and nothing is sent", async () => {
    const before = seen.length;
    const r = await post("/hook", { allowPrivate: false });
    expect(r.ok).toBe(false);
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/^blocked: host localhost resolves to .*, a loopback address$/);
    expect(seen.length).toBe(before);
  });

  test("a receiver that does not answer: status null, a timeout error, without waiting for the answer", async () => {
    const r = await post("/slow", { timeoutMs: 300 });
    expect(r.ok).toBe(false);
    expect(r.status).toBeNull();
    expect(r.error).toBe("timeout after 300 ms");
  });

  test("a 302 to the metadata address is returned, not followed", async () => {
    const before = seen.length;
    const r = await post("/redirect");
    expect(r.ok).toBe(false);
    expect(r.status).toBe(302);
    expect(r.error).toBe("HTTP 302: redirect to http://169.254.169.254/latest/meta-data/ not followed");
    expect(seen.length).toBe(before + 1);
  });

  test("a large response body is cut at maxResponseBytes", async () => {
    const r = await post("/big", { maxResponseBytes: 1000 });
    expect(r.status).toBe(200);
    expect(r.responseBody).toBe("x".repeat(1000));
  });

  test("429 with Retry-After and 500 are reported with their status", async () => {
    expect(await post("/throttled")).toMatchObject({
      ok: false,
      status: 429,
      error: "HTTP 429",
      retryAfterSeconds: 120,
      responseBody: "slow down",
    });
    expect(await post("/broken")).toMatchObject({ ok: false, status: 500, error: "HTTP 500", responseBody: "oops" });
  });

  test("connection refused on a closed port", async () => {
    const tmp = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = tmp.port;
    tmp.stop(true);
    const r = await safePost(`http://127.0.0.1:${port}/`, {
      body: "{}",
      headers: {},
      timeoutMs: 2_000,
      maxResponseBytes: 100,
      allowPrivate: true,
    });
    expect(r).toMatchObject({ ok: false, status: null, error: `connection refused (127.0.0.1:${port})` });
  });

  test("invalid URLs and header injection come back as errors, never thrown", async () => {
    const opts = { body: "{}", headers: {}, timeoutMs: 1_000, maxResponseBytes: 100, allowPrivate: true };
    expect((await safePost("ftp://example.com/", opts)).error).toBe("invalid: URL must use http or https");
    expect((await safePost(`${base}/hook`, { ...opts, headers: { "x-a": "b\r\nx-b: c" } })).error).toBe(
      'invalid: header "x-a" contains a line break',
    );
    expect((await safePost("http://does-not-exist.invalid/", opts)).error).toMatch(
      /^dns: could not resolve does-not-exist\.invalid/,
    );
  });
});

// https: the request goes to the pinned IP while SNI and the certificate check use the host name.
const hasOpenssl = Bun.spawnSync(["openssl", "version"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
describe.skipIf(!hasOpenssl)("safePost over https", () => {
  let dir: string;
  let server: ReturnType<typeof Bun.serve>;
  let cert: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "parley-tls-"));
    const gen = Bun.spawnSync(
      [
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdout: "ignore", stderr: "ignore" },
    );
    expect(gen.exitCode).toBe(0);
    cert = readFileSync(join(dir, "cert.pem"), "utf8");
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      tls: { cert, key: readFileSync(join(dir, "key.pem"), "utf8") },
      fetch: (req) => new Response(`host=${req.headers.get("host")}`),
    });
  });
  afterAll(() => {
    server.stop(true);
    rmSync(dir, { recursive: true, force: true });
  });

  test("pinned IP + serverName passes certificate verification", async () => {
    const opts = { body: "{}", headers: {}, timeoutMs: 3_000, maxResponseBytes: 100, allowPrivate: true, ca: cert };
    const r = await safePost(`https://localhost:${server.port}/`, opts);
    expect(r).toMatchObject({
      ok: true,
      status: 200,
      address: "127.0.0.1",
      responseBody: `host=localhost:${server.port}`,
    });
    // The certificate names "localhost", not 127.0.0.1: an IP-literal URL fails verification (it stays on).
    const ip = await safePost(`https://127.0.0.1:${server.port}/`, opts);
    expect(ip.status).toBeNull();
    expect(ip.error).toMatch(/^tls error: /);
  });
});
