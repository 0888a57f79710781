/** Unleash's guard against addon URLs that reach private networks, and its allow-list settings. */
import { describe, expect, test } from 'vitest';
import { checkUrl, isPublicAddress } from '../../src/addons/url-guard.js';

const strict = { allowPrivate: false, allowList: [] };

describe('addresses', () => {
  test('loopback, private, link-local, CGNAT, documentation, multicast and reserved ranges are not public; mapped IPv6 is judged as IPv4', () => {
    for (const address of ['127.0.0.1', '10.2.3.4', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '192.0.2.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'ff02::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(address), address).toBe(true);
  });
});

describe('URLs', () => {
  test('a name is resolved and every address it has must be public, unless the host is allow-listed or private URLs are allowed', async () => {
    const resolve = async (host: string) => (host === 'mixed.example' ? [{ address: '8.8.8.8', family: 4 }, { address: '10.0.0.5', family: 4 }] : []);
    expect(await checkUrl('https://mixed.example/x', strict, resolve)).toEqual({ ok: false, error: { message: 'URL resolves to a non-public address: 10.0.0.5', code: 'EPRIVATEADDRESS', retry: false } });
    expect((await checkUrl('https://Mixed.Example/x', { allowPrivate: false, allowList: ['mixed.example'] }, resolve)).ok).toBe(true);
    expect((await checkUrl('http://10.0.0.5/x', { allowPrivate: true, allowList: [] }, resolve)).ok).toBe(true);
    expect(await checkUrl('https://gone.example/x', strict, resolve)).toEqual({ ok: false, error: { message: 'Hostname did not resolve: gone.example', code: 'ENOTFOUND', retry: true } });
    const checked = await checkUrl('https://8.8.8.8:8443/hook', strict, resolve);
    expect(checked.ok && [checked.value.address, checked.value.family]).toEqual(['8.8.8.8', 4]);
  });
});
