/**
 * IP addresses and CIDR ranges, parsed once at compile time with `ipaddr.js`.
 * Only strict forms count (four-part decimal IPv4, standard IPv6), as with
 * the `ip-address` package the SDK uses: `127.1` or `0x7f.0.0.1` are not
 * addresses here even though `ipaddr.js` alone would accept them.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A parsed range; a bare address is a range of one (/32 or /128). */
export interface IpRange {
  readonly kind: 'ipv4' | 'ipv6';
  readonly network: Address;
  readonly bits: number;
}

function parseAddress(text: string, family: 'ipv4' | 'any'): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (family === 'any' && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return undefined;
}

/**
 * A range from `a.b.c.d`, `a.b.c.d/n` or, when `family` is `any`, their IPv6
 * forms; undefined for anything else (invalid entries are skipped, not fatal).
 *
 * @example
 * parseIpRange('10.0.0.0/8', 'ipv4')   // { kind: 'ipv4', network: 10.0.0.0, bits: 8 }
 * parseIpRange('2001:db8::/32', 'ipv4') // undefined
 */
export function parseIpRange(text: string, family: 'ipv4' | 'any'): IpRange | undefined {
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const network = parseAddress(addressText, family);
  if (!network) return undefined;
  const max = network.kind() === 'ipv4' ? 32 : 128;
  if (slash === -1) return { kind: network.kind(), network, bits: max };
  const bitsText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return undefined;
  const bits = Number(bitsText);
  return bits <= max ? { kind: network.kind(), network, bits } : undefined;
}

/**
 * A context address, parsed per request (only when a range needs it).
 *
 * @example
 * parseIp('192.168.1.42', 'any') // IPv4 192.168.1.42
 * parseIp('not an ip', 'any')    // undefined
 */
export function parseIp(text: string, family: 'ipv4' | 'any'): Address | undefined {
  // No valid address is longer than this; refusing early keeps hostile input cheap.
  return text.length > 64 ? undefined : parseAddress(text, family);
}

/** Whether `address` lies in `range` (same family only). */
export function inRange(address: Address, range: IpRange): boolean {
  return address.kind() === range.kind && address.match(range.network, range.bits);
}
