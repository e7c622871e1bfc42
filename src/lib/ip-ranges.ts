// IP address classification for the SSRF guard (src/lib/ssrf.ts): which ranges an outgoing
// webhook may never reach (loopback, private networks, link-local and the cloud metadata service,
// multicast, …), with IPv4-mapped, NAT64 and 6to4 IPv6 forms judged by the IPv4 address inside.

export type AddressKind =
  | "unspecified"
  | "loopback"
  | "private"
  | "shared"
  | "link-local"
  | "metadata"
  | "reserved"
  | "documentation"
  | "benchmarking"
  | "multicast"
  | "broadcast";

/** Kinds that stay blocked even with allowPrivate: nothing legitimate listens there, and 169.254/16 is IMDS. */
const ALWAYS_BLOCKED_KINDS: ReadonlySet<AddressKind> = new Set([
  "unspecified",
  "link-local",
  "metadata",
  "multicast",
  "broadcast",
]);

type Range = { bytes: number[]; prefix: number; kind: AddressKind };
const cidr = (range: string, kind: AddressKind): Range => {
  const [ip, len] = range.split("/") as [string, string];
  return { bytes: parseIp(ip)!.bytes, prefix: Number(len), kind };
};

// First match wins, so exact addresses come before the ranges that contain them.
const V4_RANGES: Range[] = [
  // Metadata endpoints that live outside 169.254/16: Alibaba (in CGNAT space) and Oracle (in 192.0.0/24).
  cidr("100.100.100.200/32", "metadata"),
  cidr("192.0.0.192/32", "metadata"),
  cidr("255.255.255.255/32", "broadcast"),
  cidr("0.0.0.0/8", "unspecified"),
  cidr("10.0.0.0/8", "private"),
  cidr("100.64.0.0/10", "shared"),
  cidr("127.0.0.0/8", "loopback"),
  cidr("169.254.0.0/16", "link-local"),
  cidr("172.16.0.0/12", "private"),
  cidr("192.0.0.0/24", "reserved"),
  cidr("192.0.2.0/24", "documentation"),
  cidr("192.88.99.0/24", "reserved"),
  cidr("192.168.0.0/16", "private"),
  cidr("198.18.0.0/15", "benchmarking"),
  cidr("198.51.100.0/24", "documentation"),
  cidr("203.0.113.0/24", "documentation"),
  cidr("224.0.0.0/4", "multicast"),
  cidr("240.0.0.0/4", "reserved"),
];
const V6_RANGES: Range[] = [
  cidr("fd00:ec2::254/128", "metadata"), // AWS IMDS over IPv6, inside the ULA range that allowPrivate opens
  cidr("::/128", "unspecified"),
  cidr("::1/128", "loopback"),
  cidr("::/8", "reserved"), // includes deprecated IPv4-compatible ::a.b.c.d, which some stacks still route
  cidr("64:ff9b::/96", "reserved"),
  cidr("100::/64", "reserved"),
  cidr("2001::/32", "reserved"),
  cidr("2001:10::/28", "reserved"),
  cidr("2001:20::/28", "reserved"),
  cidr("2001:db8::/32", "documentation"),
  cidr("fc00::/7", "private"),
  cidr("fec0::/10", "private"),
  cidr("fe80::/10", "link-local"),
  cidr("ff00::/8", "multicast"),
];

function parseIPv4(s: string): number[] | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    // Strict dotted decimal: "010" could mean octal to some parser, so refuse it rather than guess.
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return null;
    out.push(Number(p));
  }
  return out;
}

function parseIPv6(input: string): number[] | null {
  let s = input.toLowerCase();
  const zone = s.indexOf("%"); // fe80::1%eth0: the zone id names an interface, not part of the address
  if (zone >= 0) s = s.slice(0, zone);
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const items = part.split(":");
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (i === items.length - 1 && item.includes(".")) {
        const q = parseIPv4(item); // trailing dotted quad, as in ::ffff:127.0.0.1
        if (!q) return null;
        out.push((q[0]! << 8) | q[1]!, (q[2]! << 8) | q[3]!);
      } else if (/^[0-9a-f]{1,4}$/.test(item)) out.push(parseInt(item, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const words = [...head, ...Array<number>(missing).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** Parses an IPv4 or IPv6 literal (brackets and zone ids allowed) into its bytes; null if it is not one. */
export function parseIp(ip: string): { bytes: number[]; family: 4 | 6 } | null {
  const s = ip.trim().replace(/^\[(.*)\]$/, "$1");
  const a = parseIPv4(s);
  if (a) return { bytes: a, family: 4 };
  const b = s.includes(":") ? parseIPv6(s) : null;
  return b ? { bytes: b, family: 6 } : null;
}

function inRange(bytes: number[], r: Range): boolean {
  let bits = r.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (r.bytes[i]! & mask)) return false;
  }
  return true;
}

const match = (ranges: Range[], bytes: number[]) => ranges.find((r) => inRange(bytes, r))?.kind ?? null;
const MAPPED: Range = cidr("::ffff:0:0/96", "reserved");
const NAT64: Range = cidr("64:ff9b::/96", "reserved");
const SIX_TO_FOUR: Range = cidr("2002::/16", "reserved");

/**
 * What kind of non-public address this is, or null for a public one. Anything that does not parse as an
 * address counts as "reserved": failing closed is the only safe answer for a check like this.
 */
export function classifyAddress(ip: string): AddressKind | null {
  const parsed = parseIp(ip);
  if (!parsed) return "reserved";
  const b = parsed.bytes;
  if (parsed.family === 4) return match(V4_RANGES, b);
  // IPv4-mapped ::ffff:a.b.c.d is that IPv4 host, full stop.
  if (inRange(b, MAPPED)) return match(V4_RANGES, b.slice(12));
  // NAT64 and 6to4 carry an IPv4 address too. Their ranges are judged by the table, but they must not become
  // a way around the always-blocked IPv4 kinds (64:ff9b::a9fe:a9fe reaches 169.254.169.254 through NAT64).
  const inner = inRange(b, NAT64) ? b.slice(12) : inRange(b, SIX_TO_FOUR) ? b.slice(2, 6) : null;
  const innerKind = inner ? match(V4_RANGES, inner) : null;
  if (innerKind && ALWAYS_BLOCKED_KINDS.has(innerKind)) return innerKind;
  return match(V6_RANGES, b) ?? innerKind;
}

/** True for every address on the deny list (private, loopback, reserved, link-local, multicast, …). */
export function isBlockedAddress(ip: string): boolean {
  return classifyAddress(ip) !== null;
}

/** True for addresses that stay blocked even when private delivery is allowed (link-local/IMDS, unspecified, multicast). */
export function isAlwaysBlocked(ip: string): boolean {
  const kind = classifyAddress(ip);
  return kind !== null && ALWAYS_BLOCKED_KINDS.has(kind);
}

/** Whether a delivery may connect to this address under the given policy. */
export function isAllowedAddress(ip: string, opts: { allowPrivate: boolean }): boolean {
  return opts.allowPrivate ? !isAlwaysBlocked(ip) : !isBlockedAddress(ip);
}
