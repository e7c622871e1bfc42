// Address classification (src/lib/ip-ranges.ts): which IPv4 and IPv6 addresses the SSRF guard
// blocks, their kinds, and the ones blocked even when private delivery is allowed.
import { describe, expect, test } from "bun:test";
import { classifyAddress, isAlwaysBlocked, isBlockedAddress } from "../../src/lib/ip-ranges.ts";

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
