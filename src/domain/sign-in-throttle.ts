// Sign-in limits, Chatwoot's numbers (config/initializers/rack_attack.rb): 5 attempts per 5 minutes
// per IP, 10 per 15 minutes per email. Unlike Chatwoot, a successful sign-in gives its attempt back:
// an office of agents behind one NAT address can all sign in at nine, while a guesser still gets
// only 5 wrong passwords per 5 minutes. The attempt is taken BEFORE the slow password check, so a
// burst of parallel guesses cannot all pass the limit while the first ones are still hashing.
import type { Clock } from "../lib/clock.ts";
import { SlidingWindowLimiter } from "../lib/rate-limit.ts";
import { RateLimitedError } from "./errors.ts";

export const SIGN_IN_LIMITS = {
  perIp: { limit: 5, windowMs: 5 * 60_000 },
  perEmail: { limit: 10, windowMs: 15 * 60_000 },
};

export class SignInThrottle {
  private readonly byIp: SlidingWindowLimiter;
  private readonly byEmail: SlidingWindowLimiter;

  constructor(clock: Clock, limits = SIGN_IN_LIMITS) {
    this.byIp = new SlidingWindowLimiter(limits.perIp.limit, limits.perIp.windowMs, clock);
    this.byEmail = new SlidingWindowLimiter(limits.perEmail.limit, limits.perEmail.windowMs, clock);
  }

  /** Counts an attempt against the address and the email, or throws 429 (counting nothing). */
  reserve(ip: string | null, email: string): void {
    const ipKey = addressKey(ip);
    const waitIp = this.byIp.take(ipKey);
    if (waitIp > 0) throw tooMany(waitIp);
    const waitEmail = this.byEmail.take(email);
    if (waitEmail > 0) {
      this.byIp.refund(ipKey);
      throw tooMany(waitEmail);
    }
  }

  /** A successful sign-in does not count. */
  release(ip: string | null, email: string): void {
    this.byIp.refund(addressKey(ip));
    this.byEmail.refund(email);
  }

  /** Forgets windows that have passed (run from the job loop). */
  sweep(): void {
    this.byIp.sweep();
    this.byEmail.sweep();
  }
}

function tooMany(seconds: number): RateLimitedError {
  return new RateLimitedError(seconds, "sign_in", "Too many sign-in attempts");
}

/** One key per IPv4 address, per IPv6 /64 (one subscriber's usual allocation), IPv4-mapped IPv6 as IPv4. */
export function addressKey(ip: string | null): string {
  if (!ip) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(":")) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(":")}::/64`;
}

function expandIpv6(ip: string): string[] {
  const [head = "", tail] = ip.toLowerCase().split("%")[0]!.split("::");
  const left = head ? head.split(":") : [];
  const right = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill("0"), ...right].map((g) => g.replace(/^0+(?=.)/, ""));
}
