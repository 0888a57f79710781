/**
 * Unleash's guard against addon URLs that reach private networks (its `validate-url.ts`): http(s) only, the host
 * resolved, and every address it resolves to public, unless the host is allow-listed
 * (`UNLEASH_ALLOW_LIST_INTEGRATION`, exact host names, any case) or private URLs are allowed
 * (`UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION=true`). Checked when an addon is saved and again before every
 * request, which then connects to the address checked (so a DNS answer cannot change between check and connect).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The allow-list settings. */
export interface UrlGuardSettings {
  allowPrivate: boolean;
  /** Host names (lower case) allowed whatever they resolve to. */
  allowList: readonly string[];
}

/** A resolver: the addresses of a host name (tests may pass their own). */
export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** A URL that passed: where to connect. */
export interface CheckedUrl {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why a URL did not pass; `retry`: the failure may pass later (the name did not resolve now). */
export interface UrlRefusal {
  message: string;
  code: 'EINVALIDURL' | 'ENOTFOUND' | 'EPRIVATEADDRESS';
  retry: boolean;
}

/** The ranges Unleash refuses: loopback, private, link-local, CGNAT, documentation, benchmark, multicast, reserved. */
const PRIVATE_RANGES = [
  '127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '0.0.0.0/8', '100.64.0.0/10',
  '192.0.0.0/24', '192.0.2.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
  '::1/128', '::/128', 'fe80::/10', 'fc00::/7', 'ff00::/8', '2001:db8::/32', '2002::/16', '64:ff9b::/96',
].map((cidr) => ipaddr.parseCIDR(cidr));

/** Whether an address is public (an IPv4-mapped IPv6 address is judged as its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return !PRIVATE_RANGES.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, order: 'ipv4first' });

/**
 * Checks an addon URL: the checked address to connect to, or why not (messages are Unleash's).
 *
 * @example await checkUrl('http://127.0.0.1:9000/hook', { allowPrivate: false, allowList: [] }) // refusal: 'URL resolves to a non-public address: 127.0.0.1'
 */
export async function checkUrl(raw: string, settings: UrlGuardSettings, resolve: Resolve = systemResolve): Promise<{ ok: true; value: CheckedUrl } | { ok: false; error: UrlRefusal }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: { message: 'Invalid URL', code: 'EINVALIDURL', retry: false } };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: { message: `Invalid protocol: ${url.protocol}`, code: 'EINVALIDURL', retry: false } };
  // An IPv6 literal comes bracketed in `hostname`.
  const hostname = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(hostname) !== 0) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) return { ok: false, error: { message: `Hostname did not resolve: ${hostname}`, code: 'ENOTFOUND', retry: true } };
  const allowed = settings.allowPrivate || settings.allowList.includes(hostname);
  const blocked = allowed ? undefined : addresses.find((a) => !isPublicAddress(a.address));
  if (blocked) return { ok: false, error: { message: `URL resolves to a non-public address: ${blocked.address}`, code: 'EPRIVATEADDRESS', retry: false } };
  const first = addresses[0]!;
  return { ok: true, value: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
}
