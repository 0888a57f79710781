/**
 * IP addresses and CIDR ranges with `ipaddr.js`, following the `ip-address`
 * package the SDK uses wherever the two differ: only strict forms count
 * (four-part decimal IPv4, standard IPv6; `127.1` or `0x7f.0.0.1` are not
 * addresses here although `ipaddr.js` alone would accept them), a prefix is
 * one or two digits for IPv4 and up to three for IPv6, and a context address
 * may carry a prefix of its own (`10.1.0.0/16` lies in `10.0.0.0/8`, not in
 * `10.1.2.0/24`).
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An address with a prefix length; a bare address has the full length (/32 or /128). */
export interface IpRange {
  readonly kind: 'ipv4' | 'ipv6';
  readonly network: Address;
  readonly bits: number;
}

/** No valid address with a prefix is longer than this; refusing early keeps hostile input cheap. */
const LONGEST = 64;

function parseAddress(text: string, family: 'ipv4' | 'any'): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (family === 'any' && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return undefined;
}

/**
 * `a.b.c.d`, `a.b.c.d/n` or, when `family` is `any`, their IPv6 forms;
 * undefined for anything else (invalid entries are skipped, not fatal).
 *
 * @example
 * parseIpRange('10.0.0.0/8', 'ipv4')    // { kind: 'ipv4', network: 10.0.0.0, bits: 8 }
 * parseIpRange('2001:db8::/32', 'ipv4') // undefined
 */
export function parseIpRange(text: string, family: 'ipv4' | 'any'): IpRange | undefined {
  if (text.length > LONGEST) return undefined;
  const slash = text.indexOf('/');
  const network = parseAddress(slash === -1 ? text : text.slice(0, slash), family);
  if (!network) return undefined;
  const kind = network.kind();
  const max = kind === 'ipv4' ? 32 : 128;
  if (slash === -1) return { kind, network, bits: max };
  const bitsText = text.slice(slash + 1);
  if (!(kind === 'ipv4' ? /^\d{1,2}$/ : /^\d{1,3}$/).test(bitsText)) return undefined;
  const bits = Number(bitsText);
  return bits <= max ? { kind, network, bits } : undefined;
}

/**
 * Whether `address` (with its own prefix) lies inside `range`: same family,
 * a prefix at least as long, and the same leading `range.bits` bits.
 */
export function inRange(address: IpRange, range: IpRange): boolean {
  return address.kind === range.kind && address.bits >= range.bits && address.network.match(range.network, range.bits);
}

/** Whether two entries name the same address, prefixes aside. */
export function sameAddress(a: IpRange, b: IpRange): boolean {
  return a.kind === b.kind && a.network.match(b.network, a.kind === 'ipv4' ? 32 : 128);
}
