import { describe, expect, test } from "bun:test";
import { addressKey } from "../../src/domain/sign-in-throttle.ts";

describe("addressKey", () => {
  test.each([
    [null, "unknown"],
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["2001:0db8:0001:0002::", "2001:db8:1:2::/64"],
  ])("%p → %p", (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});
