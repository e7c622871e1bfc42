import { describe, expect, test } from "bun:test";
import {
  MAX_ATTEMPTS,
  RETRY_AFTER_CAP_SECONDS,
  RETRY_DELAYS_MS,
  RETRY_SCHEDULE_TOTAL_MS,
  classifyAttempt,
  disablesEndpoint,
  nextAttemptAt,
} from "../../src/domain/delivery-policy.ts";

describe("classifyAttempt", () => {
  const cases: [number | null, string | null, string][] = [
    [200, null, "delivered"],
    [201, null, "delivered"],
    [204, null, "delivered"],
    [299, null, "delivered"],
    [301, "HTTP 301: redirect to https://x/ not followed", "retry"],
    [302, "HTTP 302: redirect to http://169.254.169.254/ not followed", "retry"],
    [307, "HTTP 307", "retry"],
    [400, "HTTP 400", "give_up"],
    [401, "HTTP 401", "give_up"],
    [403, "HTTP 403", "give_up"],
    [404, "HTTP 404", "give_up"],
    [408, "HTTP 408", "retry"],
    [410, "HTTP 410", "give_up"],
    [413, "HTTP 413", "give_up"],
    [422, "HTTP 422", "give_up"],
    [429, "HTTP 429", "retry"],
    [500, "HTTP 500", "retry"],
    [502, "HTTP 502", "retry"],
    [503, "HTTP 503", "retry"],
    [504, "HTTP 504", "retry"],
    [null, "timeout after 5000 ms", "retry"],
    [null, "connection refused (127.0.0.1:9)", "retry"],
    [null, "dns: could not resolve hooks.example.com (DNS_ENOTFOUND)", "retry"],
    [null, "tls error: ERR_TLS_CERT_ALTNAME_INVALID", "retry"],
    [null, "blocked: host example.internal resolves to 10.0.0.5, a private address", "give_up"],
    [null, "invalid: URL must use http or https", "give_up"],
    [null, null, "retry"],
  ];
  for (const [status, error, outcome] of cases) {
    test(`${status ?? "no status"} / ${error ?? "no error"} → ${outcome}`, () => {
      expect(classifyAttempt({ status, error })).toBe(outcome as ReturnType<typeof classifyAttempt>);
    });
  }

  test("410 also disables the endpoint; other failures do not", () => {
    expect(disablesEndpoint({ status: 410, error: "HTTP 410" })).toBe(true);
    expect(disablesEndpoint({ status: 404, error: "HTTP 404" })).toBe(false);
    expect(disablesEndpoint({ status: null, error: "timeout after 5000 ms" })).toBe(false);
  });
});

describe("nextAttemptAt", () => {
  const now = 1_767_225_600_000;
  const fixed = (r: number) => () => r;
  const S = 1_000;
  const M = 60 * S;
  const H = 60 * M;

  test("the schedule: 8 attempts, ≈ 27.6 h in all", () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(RETRY_DELAYS_MS).toEqual([5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(RETRY_SCHEDULE_TOTAL_MS).toBe(27 * H + 35 * M + 5 * S);
  });

  const steps: [number, number][] = [
    [1, 5 * S],
    [2, 5 * M],
    [3, 30 * M],
    [4, 2 * H],
    [5, 5 * H],
    [6, 10 * H],
    [7, 10 * H],
  ];
  for (const [attempt, delay] of steps) {
    test(`after attempt ${attempt}: ${delay / S} s, ±20 %`, () => {
      expect(nextAttemptAt(attempt, now, fixed(0.5))).toBe(now + delay);
      expect(nextAttemptAt(attempt, now, fixed(0))).toBe(now + delay * 0.8);
      expect(nextAttemptAt(attempt, now, fixed(1))).toBe(now + delay * 1.2);
    });
  }

  test("concrete values for the first step", () => {
    expect(nextAttemptAt(1, now, fixed(0))).toBe(now + 4_000);
    expect(nextAttemptAt(1, now, fixed(0.5))).toBe(now + 5_000);
    expect(nextAttemptAt(1, now, fixed(0.75))).toBe(now + 5_500);
    expect(nextAttemptAt(1, now, fixed(1))).toBe(now + 6_000);
  });

  test("null once MAX_ATTEMPTS attempts were made", () => {
    expect(nextAttemptAt(8, now, fixed(0.5))).toBeNull();
    expect(nextAttemptAt(9, now, fixed(0.5))).toBeNull();
    expect(nextAttemptAt(8, now, fixed(0.5), 60)).toBeNull();
  });

  test("Retry-After is a floor, never a ceiling", () => {
    expect(nextAttemptAt(1, now, fixed(0.5), 120)).toBe(now + 120 * S); // later than 5 s
    expect(nextAttemptAt(4, now, fixed(0.5), 120)).toBe(now + 2 * H); // the schedule is already later
    expect(nextAttemptAt(1, now, fixed(0.5), 0)).toBe(now + 5 * S);
    expect(nextAttemptAt(1, now, fixed(0.5), null)).toBe(now + 5 * S);
    expect(nextAttemptAt(1, now, fixed(0.5), -30)).toBe(now + 5 * S);
    expect(nextAttemptAt(1, now, fixed(0.5), Number.NaN)).toBe(now + 5 * S);
  });

  test("Retry-After is capped at 24 h", () => {
    expect(RETRY_AFTER_CAP_SECONDS).toBe(86_400);
    expect(nextAttemptAt(1, now, fixed(0.5), 7 * 86_400)).toBe(now + 24 * H);
    expect(nextAttemptAt(1, now, fixed(0.5), 86_400)).toBe(now + 24 * H);
    expect(nextAttemptAt(6, now, fixed(1), 7 * 86_400)).toBe(now + 24 * H); // 12 h jittered < 24 h cap
  });

  test("rejects an attempt number below 1", () => {
    expect(() => nextAttemptAt(0, now, fixed(0.5))).toThrow(RangeError);
    expect(() => nextAttemptAt(1.5, now, fixed(0.5))).toThrow(RangeError);
  });
});
