import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ValidationError } from "../../src/domain/errors.ts";
import { classifyAddress, isAlwaysBlocked, isBlockedAddress } from "../../src/lib/ip-ranges.ts";
import {
  BlockedTargetError,
  InvalidTargetError,
  parseRetryAfter,
  resolveTarget,
  safePost,
} from "../../src/lib/ssrf.ts";
import { validateWebhookUrl } from "../../src/domain/webhook-url.ts";

describe("isBlockedAddress", () => {
  const table: [string, boolean][] = [
    // IPv4 public
    ["8.8.8.8", false],
    ["1.1.1.1", false],
    ["93.184.216.34", false],
    // IPv4 edges
    ["0.0.0.0", true],
    ["0.255.255.255", true],
    ["1.0.0.0", false],
    ["9.255.255.255", false],
    ["10.0.0.0", true],
    ["10.255.255.255", true],
    ["11.0.0.0", false],
    ["100.63.255.255", false],
    ["100.64.0.0", true],
    ["100.127.255.255", true],
    ["100.128.0.0", false],
    ["126.255.255.255", false],
    ["127.0.0.1", true],
    ["127.255.255.254", true],
    ["128.0.0.0", false],
    ["169.253.255.255", false],
    ["169.254.0.1", true],
    ["169.254.169.254", true],
    ["169.255.0.0", false],
    ["172.15.255.255", false],
    ["172.16.0.0", true],
    ["172.31.255.255", true],
    ["172.32.0.0", false],
    ["192.0.0.1", true],
    ["192.0.1.1", false],
    ["192.0.2.1", true],
    ["192.88.99.1", true],
    ["192.88.100.1", false],
    ["192.167.255.255", false],
    ["192.168.0.1", true],
    ["192.169.0.0", false],
    ["198.17.255.255", false],
    ["198.18.0.0", true],
    ["198.19.255.255", true],
    ["198.20.0.0", false],
    ["198.51.100.7", true],
    ["203.0.113.9", true],
    ["203.0.114.0", false],
    ["223.255.255.255", false],
    ["224.0.0.1", true],
    ["239.255.255.255", true],
    ["240.0.0.1", true],
    ["255.255.255.255", true],
    // IPv6
    ["2606:4700:4700::1111", false],
    ["2a00:1450:4001:80b::200e", false],
    ["::", true],
    ["::1", true],
    ["0:0:0:0:0:0:0:1", true],
    ["[::1]", true],
    ["::2", true],
    ["64:ff9b::8.8.8.8", true],
    ["100::1", true],
    ["2001::1", true],
    ["2001:10::1", true],
    ["2001:20::1", true],
    ["2001:db8::1", true],
    ["2001:db9::1", false],
    ["fc00::1", true],
    ["fd12:3456::1", true],
    ["fe80::1", true],
    ["fe80::1%eth0", true],
    ["febf::1", true],
    ["fec0::1", true],
    ["ff02::1", true],
    ["FF02::1", true],
    ["2002:7f00:1::1", true],
    ["2002:808:808::1", false],
    // IPv4-mapped IPv6: judged as the IPv4 address they carry
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["[::ffff:7f00:1]", true],
    ["::FFFF:169.254.169.254", true],
    ["0:0:0:0:0:ffff:a00:1", true],
    ["::ffff:8.8.8.8", false],
    ["::ffff:808:808", false],
    // not addresses at all: fail closed
    ["", true],
    ["localhost", true],
    ["1.2.3", true],
    ["01.2.3.4", true],
    ["256.1.1.1", true],
    ["1::2::3", true],
    ["1:2:3:4:5:6:7:8:9", true],
    ["gggg::1", true],
  ];
  for (const [ip, blocked] of table) {
    test(`${JSON.stringify(ip)} → ${blocked ? "blocked" : "allowed"}`, () => {
      expect(isBlockedAddress(ip)).toBe(blocked);
    });
  }

  test("kinds", () => {
    expect(classifyAddress("127.0.0.1")).toBe("loopback");
    expect(classifyAddress("10.1.2.3")).toBe("private");
    expect(classifyAddress("169.254.169.254")).toBe("link-local");
    expect(classifyAddress("100.100.100.200")).toBe("metadata");
    expect(classifyAddress("::ffff:192.168.1.1")).toBe("private");
    expect(classifyAddress("8.8.8.8")).toBeNull();
  });
});

describe("isAlwaysBlocked", () => {
  const table: [string, boolean][] = [
    ["169.254.169.254", true],
    ["169.254.0.1", true],
    ["fe80::1", true],
    ["::ffff:169.254.169.254", true],
    ["64:ff9b::a9fe:a9fe", true],
    ["0.0.0.0", true],
    ["::", true],
    ["224.0.0.1", true],
    ["255.255.255.255", true],
    ["fd00:ec2::254", true],
    ["100.100.100.200", true],
    ["192.0.0.192", true],
    ["127.0.0.1", false],
    ["::1", false],
    ["10.0.0.5", false],
    ["192.168.1.1", false],
    ["172.16.0.1", false],
    ["fd12::1", false],
    ["100.64.0.1", false],
    ["8.8.8.8", false],
  ];
  for (const [ip, always] of table) {
    test(`${ip} → ${always}`, () => expect(isAlwaysBlocked(ip)).toBe(always));
  }
});

describe("resolveTarget", () => {
  test("localhost is blocked without allowPrivate, with a readable message", async () => {
    const err = await resolveTarget("http://localhost:1/", { allowPrivate: false }).catch((e) => e);
    expect(err).toBeInstanceOf(BlockedTargetError);
    expect(err.message).toMatch(/^host localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
  });

  test("localhost is allowed with allowPrivate", async () => {
    const t = await resolveTarget("http://localhost:1/hook?x=1", { allowPrivate: true });
    expect(["127.0.0.1", "::1"]).toContain(t.address);
    expect(t.family).toBe(t.address === "::1" ? 6 : 4);
    expect(t.url.host).toBe("localhost:1");
    expect(t.url.pathname).toBe("/hook");
  });

  test("an IP literal needs no lookup", async () => {
    const t = await resolveTarget("https://8.8.8.8/x", { allowPrivate: false });
    expect(t).toMatchObject({ address: "8.8.8.8", family: 4 });
    const t6 = await resolveTarget("http://[2606:4700:4700::1111]:8080/", { allowPrivate: false });
    expect(t6).toMatchObject({ address: "2606:4700:4700::1111", family: 6 });
  });

  test("the metadata address is blocked even with allowPrivate", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://[::ffff:169.254.169.254]/",
      "http://[fe80::1]/",
    ]) {
      const err = await resolveTarget(url, { allowPrivate: true }).catch((e) => e);
      expect(err).toBeInstanceOf(BlockedTargetError);
    }
    const err = await resolveTarget("http://169.254.169.254/", { allowPrivate: true }).catch((e) => e);
    expect(err.message).toBe(
      "address 169.254.169.254 is a link-local address (blocked even when private delivery is allowed)",
    );
  });

  test("numeric spellings of loopback are normalised by the URL parser and blocked", async () => {
    for (const url of ["http://2130706433/", "http://0x7f.1/", "http://[::ffff:7f00:1]/", "http://0/"]) {
      expect(await resolveTarget(url, { allowPrivate: false }).catch((e) => e)).toBeInstanceOf(BlockedTargetError);
    }
  });

  test("bad URLs are rejected as invalid", async () => {
    const cases: [string, string][] = [
      ["ftp://example.com/", "URL must use http or https"],
      ["file:///etc/passwd", "URL must use http or https"],
      ["http://user:pass@example.com/", "URL must not contain credentials"],
      ["http://user@example.com/", "URL must not contain credentials"],
      ["not a url", "not a valid URL"],
      ["http://", "not a valid URL"],
      ["", "not a valid URL"],
    ];
    for (const [url, message] of cases) {
      const err = await resolveTarget(url, { allowPrivate: true }).catch((e) => e);
      expect(err).toBeInstanceOf(InvalidTargetError);
      expect(err.message).toBe(message);
    }
  });
});

describe("validateWebhookUrl", () => {
  const fail = (value: unknown) => {
    try {
      validateWebhookUrl(value, "webhook_url");
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      return (e as ValidationError).errors[0];
    }
    throw new Error(`accepted ${JSON.stringify(value)}`);
  };

  test("accepts http and https URLs unchanged", () => {
    expect(validateWebhookUrl("https://hooks.example.com/parley?x=1")).toBe("https://hooks.example.com/parley?x=1");
    expect(validateWebhookUrl("http://127.0.0.1:3000/hook")).toBe("http://127.0.0.1:3000/hook"); // addresses: delivery time
  });

  test("error codes", () => {
    expect(fail(undefined)).toEqual({ field: "webhook_url", message: "can't be blank", code: "required" });
    expect(fail("  ")?.code).toBe("required");
    expect(fail(42)).toEqual({ field: "webhook_url", message: "must be a string", code: "invalid" });
    expect(fail(`https://example.com/${"a".repeat(2048)}`)?.code).toBe("too_long");
    expect(fail("ftp://example.com/")).toEqual({
      field: "webhook_url",
      message: "URL must use http or https",
      code: "invalid",
    });
    expect(fail("https://u:p@example.com/")?.message).toBe("URL must not contain credentials");
    expect(fail("javascript:alert(1)")?.code).toBe("invalid");
    expect(fail("http://exa\tmple.com/")?.code).toBe("invalid");
    expect(fail("garbage")?.message).toBe("not a valid URL");
  });

  test("2048 characters is the limit, inclusive", () => {
    const base = "https://example.com/";
    expect(validateWebhookUrl(base + "a".repeat(2048 - base.length)).length).toBe(2048);
    expect(fail(base + "a".repeat(2049 - base.length))?.code).toBe("too_long");
  });
});

test("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  expect(parseRetryAfter("120", now)).toBe(120);
  expect(parseRetryAfter(" 0 ", now)).toBe(0);
  expect(parseRetryAfter("Thu, 01 Jan 2026 00:01:30 GMT", now)).toBe(90);
  expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
  expect(parseRetryAfter("soon", now)).toBeNull();
  expect(parseRetryAfter("-5", now)).toBeNull();
  expect(parseRetryAfter(null, now)).toBeNull();
});

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
