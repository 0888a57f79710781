/**
 * The token hasher remembers the keyed hash of a secret only once it matched a stored token, and only so many
 * for so long: a forged secret never stays in memory, and the cache is bounded in count and in time.
 */
import { describe, expect } from 'vitest';
import { createApp } from '../../src/app.js';
import { MatchedSecrets } from '../../src/auth/matched-secrets.js';
import { TokenHasher } from '../../src/auth/token-hasher.js';
import { test } from '../helpers/fixtures.js';
import { ADMIN_TOKEN, HARNESS_TOKEN_SECRET } from '../helpers/harness.js';

const KEY = 'matched-secrets-test-key-0123456789abcdef';
const MINUTE = 60_000;

/** A hasher over `matched`, and a token table holding the keyed hashes of `stored`, read as authentication reads it. */
function world(matched: MatchedSecrets, stored: string[]) {
  const hasher = new TokenHasher(KEY, matched);
  const tokens = new Map(stored.map((secret) => [hasher.hash(secret), { secret }]));
  const read = (hash: string) => tokens.get(hash);
  return { hasher, tokens, read };
}

describe('TokenHasher.findStored and its cache', () => {
  test('finds a stored token by its keyed hash, and remembers only the secrets that matched', () => {
    const matched = new MatchedSecrets();
    const { hasher, read } = world(matched, ['good-secret']);
    expect(hasher.findStored('good-secret', read)).toEqual({ secret: 'good-secret' });
    expect(matched.has('good-secret')).toBe(true);
    for (let i = 0; i < 50; i += 1) expect(hasher.findStored(`forged-${i}`, read)).toBeUndefined();
    expect(matched.size).toBe(1);
    expect(matched.has('forged-0')).toBe(false);
  });

  test('a remembered secret whose token is gone finds nothing and is forgotten', () => {
    const matched = new MatchedSecrets();
    const { hasher, tokens, read } = world(matched, ['revoked-soon']);
    expect(hasher.findStored('revoked-soon', read)).toBeDefined();
    tokens.clear();
    expect(hasher.findStored('revoked-soon', read)).toBeUndefined();
    expect(matched.has('revoked-soon')).toBe(false);
  });

  test('holds at most its bound, the least recently matched leaving first', () => {
    const matched = new MatchedSecrets(3, 10 * MINUTE);
    const secrets = ['s1', 's2', 's3', 's4'];
    const { hasher, read } = world(matched, secrets);
    const now = 1_000_000;
    for (const secret of ['s1', 's2', 's3']) hasher.findStored(secret, read, now);
    // s1 matched again: s2 is now the least recently used.
    hasher.findStored('s1', read, now + 1);
    hasher.findStored('s4', read, now + 2);
    expect(matched.size).toBe(3);
    expect(['s1', 's2', 's3', 's4'].map((s) => matched.has(s))).toEqual([true, false, true, true]);
    // Every one still authenticates, remembered or not.
    for (const secret of secrets) expect(hasher.findStored(secret, read, now + 3)).toEqual({ secret });
  });

  test('a secret leaves once it has not matched for the time to live; a hit keeps it one more period', () => {
    const matched = new MatchedSecrets(100, 10 * MINUTE);
    const { hasher, read } = world(matched, ['kept', 'idle']);
    const t0 = 5_000_000;
    hasher.findStored('kept', read, t0);
    hasher.findStored('idle', read, t0);
    expect(matched.get('kept', t0 + 9 * MINUTE)).toBe(hasher.hash('kept'));
    // Any call drops what expired, whether or not it is the secret asked for.
    expect(matched.get('kept', t0 + 11 * MINUTE)).toBe(hasher.hash('kept'));
    expect(matched.has('idle')).toBe(false);
    expect(matched.get('kept', t0 + 30 * MINUTE)).toBeUndefined();
    expect(matched.size).toBe(0);
    // Hashed again on its next use, and remembered again.
    expect(hasher.findStored('kept', read, t0 + 31 * MINUTE)).toEqual({ secret: 'kept' });
    expect(matched.has('kept')).toBe(true);
  });

  test('a remembered hash is the hash: the answer is the same from the cache as without it', () => {
    const cached = world(new MatchedSecrets(), ['a-secret']);
    const uncached = world(new MatchedSecrets(0, 0), ['a-secret']);
    for (let i = 0; i < 3; i += 1) {
      expect(cached.hasher.findStored('a-secret', cached.read)).toEqual(uncached.hasher.findStored('a-secret', uncached.read));
      expect(cached.hasher.findStored('nope', cached.read)).toBeUndefined();
    }
  });

  test('over HTTP: a forged token gets its 401 and is not kept; the admin token is', async ({ h }) => {
    const matched = new MatchedSecrets();
    // The harness's registry with an app of its own, whose hasher has the harness's key and a cache the test can see.
    const app = createApp({ registry: h.registry, config: h.config, tokenHasher: new TokenHasher(HARNESS_TOKEN_SECRET, matched) });
    const get = (token: string) => app.request('/api/admin/projects', { headers: { authorization: token } });
    const forged = `${ADMIN_TOKEN.slice(0, -1)}X`;
    for (const token of [forged, 'Bearer *:*.guess', '*:*.another-guess']) expect((await get(token)).status).toBe(401);
    expect(matched.size).toBe(0);
    expect((await get(ADMIN_TOKEN)).status).toBe(200);
    expect((await get(`Bearer ${ADMIN_TOKEN}`)).status).toBe(200);
    expect(matched.size).toBe(1);
    expect(matched.has(ADMIN_TOKEN)).toBe(true);
    expect(matched.has(forged)).toBe(false);
  });
});
