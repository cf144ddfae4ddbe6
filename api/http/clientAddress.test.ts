import { describe, expect, it } from "vitest";
import { addressKey, clientAddress } from "./clientAddress";

describe("clientAddress", () => {
  it("is the connection's peer without proxies, whatever X-Forwarded-For says", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", 0)).toBe("203.0.113.7");
  });

  it("is the hops-th entry from the end behind proxies, not what the client wrote further left", () => {
    expect(clientAddress("10.0.0.2", "198.51.100.1", 1)).toBe("198.51.100.1");
    expect(clientAddress("10.0.0.2", "6.6.6.6, 198.51.100.1", 1)).toBe("198.51.100.1");
    expect(clientAddress("10.0.0.2", "6.6.6.6, 198.51.100.1, 10.0.0.1", 2)).toBe("198.51.100.1");
  });

  it("takes the farthest entry when there are fewer entries than proxies", () => {
    expect(clientAddress("10.0.0.2", "198.51.100.1", 3)).toBe("198.51.100.1");
  });

  it("falls back to the peer when the header is missing or its entry is not an address", () => {
    expect(clientAddress("10.0.0.2", undefined, 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "unknown", 1)).toBe("10.0.0.2");
    expect(clientAddress(undefined, undefined, 0)).toBe("unknown");
  });
});

describe("addressKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::1", "0:0:0:0::/64"],
    ["2001:db8:0001:0002:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::5", "2001:db8:1:2::/64"],
    ["2001:db8::5", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["64:ff9b::192.0.2.33", "64:ff9b:0:0::/64"],
    ["unknown", "unknown"],
  ])("counts %s as %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it("counts every address of one /64 together and neighbouring /64s apart", () => {
    expect(addressKey("2001:db8:1:2::1")).toBe(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
  });
});
