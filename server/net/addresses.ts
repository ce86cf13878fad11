/**
 * IP address classification for the outbound network guard (see docs/network-guard.md).
 *
 * Pure functions, no I/O. Addresses are parsed into bytes here rather than matched as strings,
 * so every spelling of an address (IPv4-mapped IPv6, NAT64, 6to4, inet_aton forms such as
 * `0x7f.1` or `2130706433`) lands in the same category.
 */
import net from "node:net";

export type AddressCategory =
  | "public"
  | "loopback"
  | "private"
  | "shared" // RFC 6598 carrier-grade NAT space, 100.64.0.0/10
  | "link-local"
  | "metadata"
  | "unspecified"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "invalid";

export interface AddressVerdict {
  /** The address as given (zone id removed). */
  address: string;
  family: 4 | 6;
  category: AddressCategory;
  /** Human phrase completing "<address> is …", e.g. "a link-local address". */
  description: string;
}

/** Categories an instance administrator may grant (per origin); metadata and link-local never. */
export const OPERATOR_GRANTABLE: ReadonlySet<AddressCategory> = new Set(["loopback", "private", "shared"]);

interface Range {
  base: bigint;
  bits: number;
  category: AddressCategory;
  description: string;
}

// ---------------------------------------------------------------------------------------------
// Parsing

/**
 * Parses an IPv4 address in any form `inet_aton` accepts (what browsers and the WHATWG URL
 * parser accept too): 1–4 parts, each decimal, octal (leading 0) or hex (0x). Returns the
 * 32-bit value, or null.
 */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const p of parts) {
    let v: number;
    if (/^0x[0-9a-f]*$/i.test(p)) v = p.length === 2 ? 0 : Number.parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) v = Number.parseInt(p.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) v = Number(p);
    else return null;
    if (!Number.isSafeInteger(v)) return null;
    values.push(v);
  }
  const last = values.pop() as number;
  for (const v of values) if (v > 255) return null;
  const lastMax = 2 ** (8 * (4 - values.length)) - 1;
  if (last > lastMax) return null;
  let out = 0;
  values.forEach((v, i) => {
    out += v * 2 ** (8 * (3 - i));
  });
  return out + last;
}

/** Parses an IPv6 address (optionally bracketed, optional zone id) into a 128-bit value. */
export function parseIPv6(text: string): bigint | null {
  let s = text;
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone !== -1) s = s.slice(0, zone);
  if (net.isIPv6(s) === false) return null;
  // Trailing dotted IPv4 → two hex groups.
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    if (!net.isIPv4(tail)) return null;
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  let out = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    out = (out << 16n) | BigInt(Number.parseInt(g, 16));
  }
  return out;
}

const v4ToString = (v: number) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");

// ---------------------------------------------------------------------------------------------
// Ranges (most specific first: the first match wins)

function v4(cidr: string, category: AddressCategory, description: string): Range {
  const [ip, bits] = cidr.split("/") as [string, string];
  return { base: BigInt(parseIPv4(ip) as number), bits: Number(bits), category, description };
}

function v6(cidr: string, category: AddressCategory, description: string): Range {
  const [ip, bits] = cidr.split("/") as [string, string];
  return { base: parseIPv6(ip) as bigint, bits: Number(bits), category, description };
}

const METADATA = "a cloud instance-metadata address";

const V4_RANGES: Range[] = [
  v4("169.254.169.254/32", "metadata", `a link-local address (${METADATA.slice(2)})`),
  v4("100.100.100.200/32", "metadata", METADATA), // Alibaba Cloud
  v4("168.63.129.16/32", "metadata", `${METADATA} (Azure WireServer)`),
  v4("192.0.0.192/32", "metadata", METADATA), // Oracle Cloud
  v4("255.255.255.255/32", "broadcast", "the broadcast address"),
  v4("0.0.0.0/32", "unspecified", "the unspecified address"),
  v4("0.0.0.0/8", "unspecified", 'a "this network" address'),
  v4("127.0.0.0/8", "loopback", "a loopback address"),
  v4("10.0.0.0/8", "private", "a private address"),
  v4("172.16.0.0/12", "private", "a private address"),
  v4("192.168.0.0/16", "private", "a private address"),
  v4("100.64.0.0/10", "shared", "a carrier-grade NAT (shared) address"),
  v4("169.254.0.0/16", "link-local", "a link-local address"),
  v4("192.0.0.0/24", "reserved", "a reserved (IETF protocol assignment) address"),
  v4("192.0.2.0/24", "reserved", "a reserved (documentation) address"),
  v4("198.51.100.0/24", "reserved", "a reserved (documentation) address"),
  v4("203.0.113.0/24", "reserved", "a reserved (documentation) address"),
  v4("192.88.99.0/24", "reserved", "a reserved (6to4 relay) address"),
  v4("198.18.0.0/15", "reserved", "a reserved (benchmarking) address"),
  v4("224.0.0.0/4", "multicast", "a multicast address"),
  v4("240.0.0.0/4", "reserved", "a reserved address"),
];

const V6_RANGES: Range[] = [
  v6("fd00:ec2::254/128", "metadata", `${METADATA} (AWS)`),
  v6("::/128", "unspecified", "the unspecified address"),
  v6("::1/128", "loopback", "a loopback address"),
  v6("64:ff9b:1::/48", "reserved", "a local-use NAT64 address"),
  v6("100::/64", "reserved", "a reserved (discard-only) address"),
  v6("2001::/32", "reserved", "a Teredo tunnel address"),
  v6("2001:2::/48", "reserved", "a reserved (benchmarking) address"),
  v6("2001:db8::/32", "reserved", "a reserved (documentation) address"),
  v6("2001:10::/28", "reserved", "a reserved (ORCHID) address"),
  v6("fc00::/7", "private", "a private (unique local) address"),
  v6("fe80::/10", "link-local", "a link-local address"),
  v6("fec0::/10", "private", "a private (site-local) address"),
  v6("ff00::/8", "multicast", "a multicast address"),
];

function inRange(value: bigint, width: number, r: Range): boolean {
  const shift = BigInt(width - r.bits);
  return value >> shift === r.base >> shift;
}

function classifyV4(value: number): Omit<AddressVerdict, "address" | "family"> {
  const big = BigInt(value);
  for (const r of V4_RANGES) {
    if (inRange(big, 32, r)) return { category: r.category, description: r.description };
  }
  return { category: "public", description: "a public address" };
}

const embedded = (value: bigint) => Number(value & 0xffffffffn);

function classifyV6(value: bigint): Omit<AddressVerdict, "address" | "family"> {
  const top96 = value >> 32n;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d): the OS connects to the
  // IPv4 address itself, so they are exactly that address.
  if (top96 === 0xffffn || top96 === 0xffff0000n) {
    const inner = embedded(value);
    const c = classifyV4(inner);
    return { category: c.category, description: `${c.description} (IPv4-mapped ${v4ToString(inner)})` };
  }
  // Deprecated IPv4-compatible (::a.b.c.d), excluding :: and ::1 handled by the table.
  if (top96 === 0n && value > 1n) {
    return { category: "reserved", description: `a deprecated IPv4-compatible address` };
  }
  // NAT64 well-known prefix 64:ff9b::/96 and 6to4 2002::/16 embed an IPv4 address that a
  // translator on the path will reach; a non-public inner address is always refused.
  const nat64 = top96 === 0x0064ff9b0000000000000000n;
  const sixToFour = value >> 112n === 0x2002n;
  if (nat64 || sixToFour) {
    const inner = nat64 ? embedded(value) : Number((value >> 80n) & 0xffffffffn);
    const c = classifyV4(inner);
    const kind = nat64 ? "NAT64" : "6to4";
    if (c.category !== "public") {
      return {
        category: c.category === "metadata" ? "metadata" : "reserved",
        description: `a ${kind} address embedding ${v4ToString(inner)} (${c.description})`,
      };
    }
    return { category: "public", description: `a ${kind} address embedding a public address` };
  }
  for (const r of V6_RANGES) {
    if (inRange(value, 128, r)) return { category: r.category, description: r.description };
  }
  // Only 2000::/3 is allocated global unicast.
  if (value >> 125n !== 1n) return { category: "reserved", description: "a reserved (unallocated) address" };
  return { category: "public", description: "a public address" };
}

/**
 * Classifies one IP address. Accepts IPv4 in any inet_aton form, IPv6 with or without
 * brackets and zone id. Anything unparseable is `invalid` (and therefore blocked).
 */
export function classifyAddress(ip: string): AddressVerdict {
  const raw = ip.trim();
  let address = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  if (address.includes(":")) {
    const value = parseIPv6(address);
    if (value === null)
      return { address, family: 6, category: "invalid", description: "not a valid IP address" };
    return { address, family: 6, ...classifyV6(value) };
  }
  const value = parseIPv4(address);
  if (value === null)
    return { address, family: 4, category: "invalid", description: "not a valid IP address" };
  return { address, family: 4, ...classifyV4(value) };
}

export interface AddressRefusal {
  /** `upstream_requires_operator`: an instance admin could grant it; `upstream_blocked`: never. */
  code: "upstream_requires_operator" | "upstream_blocked";
  /** "<address> is <description>". */
  reason: string;
}

/**
 * Why `ip` may not be contacted, or null when it may. With `operatorGranted` (the origin is on
 * the instance's private-upstream list), loopback, private and shared (CGNAT) addresses are
 * allowed; metadata, link-local and everything else non-public stay blocked.
 */
export function addressRefusal(ip: string, operatorGranted = false): AddressRefusal | null {
  const v = classifyAddress(ip);
  if (v.category === "public") return null;
  const grantable = OPERATOR_GRANTABLE.has(v.category);
  if (operatorGranted && grantable) return null;
  return {
    code: grantable ? "upstream_requires_operator" : "upstream_blocked",
    reason: `${v.address} is ${v.description}`,
  };
}

/** The refusal's reason alone (see addressRefusal). */
export function addressBlockReason(ip: string, operatorGranted = false): string | null {
  return addressRefusal(ip, operatorGranted)?.reason ?? null;
}

/** True when `ip` must not be contacted (see addressRefusal). */
export function isBlockedAddress(ip: string, operatorGranted = false): boolean {
  return addressRefusal(ip, operatorGranted) !== null;
}
