// The SSRF guard's checks before any request (src/lib/ssrf.ts): resolving a target, blocked and
// invalid URLs, webhook URL validation, and Retry-After parsing.
import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../src/domain/errors.ts";
import { BlockedTargetError, InvalidTargetError, parseRetryAfter, resolveTarget } from "../../src/lib/ssrf.ts";
import { validateWebhookUrl } from "../../src/domain/webhook-url.ts";

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
