/**
 * Large flag lists and overviews go out gzipped to clients that accept it, once a compressed copy is ready;
 * small answers and clients that do not ask are answered uncompressed.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, vi } from 'vitest';
import { acceptsGzip } from '../../src/http/gzip.js';
import { test } from '../helpers/fixtures.js';
import type { Harness } from '../helpers/harness.js';
import { untilState } from '../helpers/wait.js';

const P = '/api/admin/projects/default';

async function seed(h: Harness, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, (_, i) => h.req('POST', `${P}/features`, { name: `flag-with-a-longish-name-${i}` })));
}

/** Asks until the compressed copy is ready (it is made in zlib's thread pool, in the background). */
function gzipped(h: Harness, path: string): Promise<Response> {
  return vi.waitFor(async () => {
    const r = await h.req('GET', path, undefined, { headers: { 'accept-encoding': 'gzip, deflate' } });
    if (r.headers.get('content-encoding') === 'gzip') return r;
    await r.arrayBuffer();
    throw new Error(`${path} not answered gzip yet`);
  }, untilState(10));
}

describe('gzip of large answers', () => {
  test.for<[string, string]>([['the flag list', `${P}/features`], ['the overview', P]])('%s is the same JSON, gzipped, with Vary', async ([_label, path], { h }) => {
    await seed(h, 300);
    const plain = await h.req('GET', path);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(32 * 1024);

    const r = await gzipped(h, path);
    expect(r.headers.get('vary')).toBe('Accept-Encoding');
    const body = Buffer.from(await r.arrayBuffer());
    expect(body.length).toBeLessThan(text.length / 5);
    expect(JSON.parse(gunzipSync(body).toString('utf8'))).toEqual(JSON.parse(text));
  });

  test('a change is never answered from a stale compressed copy', async ({ h }) => {
    await seed(h, 300);
    await gzipped(h, `${P}/features`);
    expect((await h.json('POST', `${P}/features`, { name: 'the-newest' })).status).toBe(201);
    const r = await h.req('GET', `${P}/features`, undefined, { headers: { 'accept-encoding': 'gzip' } });
    const raw = Buffer.from(await r.arrayBuffer());
    const text = r.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    expect(JSON.parse(text).features.map((f: { name: string }) => f.name)).toContain('the-newest');
  });

  test('small answers are not compressed', async ({ h }) => {
    await seed(h, 2);
    for (let i = 0; i < 5; i += 1) {
      const r = await h.req('GET', `${P}/features`, undefined, { headers: { 'accept-encoding': 'gzip' } });
      expect(r.headers.get('content-encoding')).toBeNull();
      expect(((await r.json()) as { features: unknown[] }).features).toHaveLength(2);
    }
  });

  test('Accept-Encoding is read as RFC 9110 says', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('br, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0.0')).toBe(false);
    expect(acceptsGzip('deflate, br')).toBe(false);
    expect(acceptsGzip('x-gzip')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
  });
});
