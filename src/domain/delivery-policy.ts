// Webhook delivery policy: what an attempt's outcome means and when to try again. Pure functions (time and
// randomness are passed in) so the job loop stays thin and every rule here is testable with fixed values.
//
// Chatwoot delivers account webhooks once and drops failures; we retry, anchored on Svix's published
// schedule (first try, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over ~27.6 h), with
// jitter so a receiver that comes back up is not hit by every queued delivery in the same second.

/** Attempts per delivery, the first one included. */
export const MAX_ATTEMPTS = 8;

/** RETRY_DELAYS_MS[n - 1] is the wait after attempt n failed; there is none after attempt MAX_ATTEMPTS. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000, // 5 s: a blip or a deploy
  5 * 60_000, // 5 min
  30 * 60_000, // 30 min
  2 * 3_600_000, // 2 h
  5 * 3_600_000, // 5 h
  10 * 3_600_000, // 10 h
  10 * 3_600_000, // 10 h
];

/** Sum of the nominal delays: 27 h 35 min 5 s from the first attempt to the last. */
export const RETRY_SCHEDULE_TOTAL_MS = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);

/** Each delay is scaled by a factor in [1 - JITTER_FRACTION, 1 + JITTER_FRACTION]. */
export const JITTER_FRACTION = 0.2;

/** A receiver's Retry-After is honoured up to this long; beyond it a typo or a hostile header would stall us. */
export const RETRY_AFTER_CAP_SECONDS = 24 * 3600;

/** Per-attempt timeout, connect + response: Chatwoot's WEBHOOK_TIMEOUT default. */
export const DEFAULT_TIMEOUT_MS = 5_000;

/** How much of a receiver's response body is kept for the delivery log. */
export const RESPONSE_BODY_LIMIT_BYTES = 16 * 1024;

/** 410 Gone: the receiver says the endpoint is retired (Standard Webhooks: disable it). */
export const GONE_STATUS = 410;

export type AttemptOutcome = "delivered" | "retry" | "give_up";

export interface AttemptResultLike {
  status: number | null;
  error: string | null;
}

/**
 * - 2xx: delivered.
 * - 3xx: retry. A redirect is a failure (never followed: it could point anywhere, 169.254.169.254 included),
 *   but it usually means a moved URL, which the receiver can fix within the retry window.
 * - 408, 429, 5xx: retry (the receiver is slow, throttling or broken for now).
 * - 410 and every other 4xx: give up (the receiver rejects this request, and will again).
 * - No status: blocked or invalid target → give up (only an admin or a URL change fixes it);
 *   timeouts, DNS and connection errors → retry.
 */
export function classifyAttempt(result: AttemptResultLike): AttemptOutcome {
  const { status, error } = result;
  if (status !== null) {
    if (status >= 200 && status < 300) return "delivered";
    if (status === 408 || status === 429) return "retry";
    if (status >= 400 && status < 500) return "give_up";
    return "retry"; // 3xx, 5xx, and anything odd (1xx, ≥ 600) that is not a clear refusal
  }
  if (error !== null && /^(blocked|invalid)\b/.test(error)) return "give_up";
  return "retry";
}

/** True when the outcome says the endpoint itself should be disabled, not just this delivery dropped. */
export function disablesEndpoint(result: AttemptResultLike): boolean {
  return result.status === GONE_STATUS;
}

/**
 * When to make the next attempt, given `attemptNumber` attempts made so far (≥ 1), or null when they are
 * used up. `random()` returns [0, 1) like Math.random: 0.5 means no jitter, 0 means -20 %, 1 means +20 %.
 * A Retry-After from the receiver (seconds, capped at 24 h) is a floor: we never come back earlier.
 */
export function nextAttemptAt(
  attemptNumber: number,
  nowMs: number,
  random: () => number,
  retryAfterSeconds?: number | null,
): number | null {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be an integer ≥ 1, got ${attemptNumber}`);
  }
  if (attemptNumber >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attemptNumber - 1]!;
  const r = Math.min(1, Math.max(0, random()));
  const jittered = base * (1 + JITTER_FRACTION * (2 * r - 1));
  let floor = 0;
  if (typeof retryAfterSeconds === "number" && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0) {
    floor = Math.min(retryAfterSeconds, RETRY_AFTER_CAP_SECONDS) * 1000;
  }
  return nowMs + Math.round(Math.max(jittered, floor));
}
