// Who a request comes from, for limits per client. Behind `hops` reverse proxies that each append
// the address they were reached from to X-Forwarded-For, the client is the hops-th entry from the
// header's end (entries further left were written by the client itself and prove nothing); with
// no proxy the header is ignored. An IPv6 client is counted by its /64, the block one subscriber
// usually holds (a host picks any address in it at will); an IPv4-mapped address as the IPv4 one.
import { isIP, isIPv4 } from "node:net";
import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import type { AppEnv } from "./env";

/** The key a request's client is counted under, from its connection and the configured proxies. */
export function clientKey(c: Context<AppEnv>): string {
  // Absent when the app is called without a server (tests of single routes).
  const peer = (c.env as HttpBindings | undefined)?.incoming?.socket.remoteAddress;
  return addressKey(clientAddress(peer, c.req.header("x-forwarded-for"), c.var.config.TRUST_PROXY_HOPS));
}

export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, hops: number): string {
  if (hops > 0 && forwardedFor) {
    const entries = forwardedFor.split(",").map((entry) => entry.trim());
    // Fewer entries than proxies: the farthest one known.
    const entry = entries[Math.max(0, entries.length - hops)]!;
    if (isIP(entry)) return entry;
  }
  return peer ?? "unknown";
}

/** The key an address is counted under: the IPv4 address, or the IPv6 address's /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  return `${ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (a zone index dropped). */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  // A dotted IPv4 tail (64:ff9b::1.2.3.4) is two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
}
