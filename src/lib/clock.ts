// Time comes from a Clock so tests can freeze or move it; nothing else calls Date.now() directly.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock tests can set and advance by hand. */
export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 5, 9, 0, 0)) {}
  nowMs(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Whole Unix seconds, the wire format of every timestamp unless the spec says ISO 8601. */
export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.nowMs() / 1000);
}

/** ISO 8601 with milliseconds and Z, as Rails serialises raw times. */
export function isoFromSeconds(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined) return null;
  return new Date(seconds * 1000).toISOString();
}
