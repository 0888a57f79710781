/**
 * Dumps and listings carry no token hash and no part of a token secret; restore therefore re-creates no
 * token, says which ones to re-create, and the restored directory still lets an admin in.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { Registry } from '../../src/actors/registry.js';
import { createApp } from '../../src/app.js';
import { ensureAdminTokens } from '../../src/bootstrap-tokens.js';
import { legacyHash } from '../../src/auth/token-hasher.js';
import { secretLabel } from '../../src/auth/tokens.js';
import type { StoredToken } from '../../src/domain/service-state.js';
import { ADMIN_TOKEN, harness, type Harness } from '../helpers/harness.js';
import { test } from '../helpers/fixtures.js';
import { populate } from './fixtures.js';
import { dumpCli, restoreCli } from './run-cli.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';


const LEGACY_SECRET = '*:*.legacy-token-never-used-0123456789';

/** Every token kind, plus a record from before keyed hashes (unkeyed hash, prefix with 4 secret characters). */
async function withTokens(h: Harness): Promise<string[]> {
  const secrets = [ADMIN_TOKEN, LEGACY_SECRET];
  secrets.push((await h.json('POST', '/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' })).body.secret);
  secrets.push((await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['beta'], environment: 'production' })).body.secret);
  secrets.push((await h.json('POST', '/api/admin/user-admin/1/tokens', { description: 'laptop' })).body.secret);
  const legacy: StoredToken = {
    id: randomUUID(), hash: legacyHash(LEGACY_SECRET), tokenName: 'old', type: 'admin', projects: ['*'], environment: '*',
    createdAt: '2025-01-01T00:00:00.000Z', expiresAt: null, userId: null, prefix: `${LEGACY_SECRET.slice(0, 8)}…`,
  };
  expect((await h.registry.service.send({ type: 'token.create', token: legacy }, 'system')).ok).toBe(true);
  return secrets;
}

/**
 * The parts of a secret that must appear nowhere: the secret, its hashes, and its text after the label; for
 * a generated secret also every 8 characters of its random text (operator-chosen init tokens are words that
 * may well occur elsewhere, as in a token name).
 */
function secretTraces(h: Harness, secret: string): string[] {
  const label = secret.startsWith('user:') ? 'user:' : secret.slice(0, secret.indexOf('.') + 1);
  const random = secret.slice(label.length);
  const generated = /^[0-9a-f]{56}$/.test(random);
  const windows = generated ? Array.from({ length: random.length - 7 }, (_, i) => random.slice(i, i + 8)) : [random];
  return [secret, ...windows, h.tokenHasher.hash(secret), legacyHash(secret)];
}

/** Every property name in a JSON document, at any depth. */
function propertyNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) propertyNames(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      propertyNames(v, into);
    }
  }
  return into;
}

function expectNoSecrets(h: Harness, text: string, secrets: string[]): void {
  const names = propertyNames(JSON.parse(text));
  expect(names.has('hash')).toBe(false);
  expect(names.has('prefix')).toBe(false);
  for (const secret of secrets) for (const trace of secretTraces(h, secret)) expect(text.includes(trace), `${secret}: ${trace}`).toBe(false);
}

describe('dumps and listings show no hash and no part of a secret', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  test('GET /api/admin/state and npm run dump: token records without hash, keyed by id, byte-identical', async ({ tempDir: dir }) => {
    const source = dir('secrets');
    const h = await harness({}, source);
    await populate(h);
    const secrets = await withTokens(h);
    expect((await h.json('POST', '/api/admin/user-admin/1/change-password', { password: 'dump-secret-pass-1' })).status).toBe(200);
    const live = await (await h.req('GET', '/api/admin/state')).text();
    expectNoSecrets(h, live, secrets);
    // Nor any password hash: the dump has no `passwords` at all (the CLI's, equal to it below, neither).
    expect(JSON.parse(live).service.state).not.toHaveProperty('passwords');
    for (const trace of ['scrypt$', 'dump-secret-pass-1']) expect(live).not.toContain(trace);
    const tokens = JSON.parse(live).service.state.tokens as Record<string, Record<string, unknown>>;
    expect(Object.values(tokens).map((t) => t['tokenName']).sort()).toEqual(['init-admin-token-1', 'laptop', 'old', 'ops', 'sdk']);
    for (const [id, token] of Object.entries(tokens)) {
      expect(token['id']).toBe(id);
      expect(Object.keys(token).sort()).toEqual(['createdAt', 'environment', 'expiresAt', 'id', 'projects', 'tokenName', 'type', 'userId']);
    }
    await h.registry.close();
    const cli = await dumpCli(['--data-dir', source]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toBe(live);
    expectNoSecrets(h, cli.stdout, secrets);
  });

  test('token listings show the non-secret label only, never a character of the random part', async () => {
    const h = await harness();
    try {
      await populate(h);
      const secrets = await withTokens(h);
      const api = await h.json('GET', '/api/admin/api-tokens');
      const personal = await h.json('GET', '/api/admin/user-admin/1/tokens');
      const text = JSON.stringify([api.body, personal.body]);
      for (const secret of secrets) {
        for (const trace of secretTraces(h, secret)) expect(text.includes(trace), trace).toBe(false);
        const label = secret.startsWith('user:') ? 'user:' : secret.slice(0, secret.indexOf('.') + 1);
        // The label and the first random character together would already be a part of the secret.
        expect(text).not.toContain(secret.slice(0, label.length + 1));
      }
      const listed = [...api.body.tokens, ...personal.body.tokens] as { tokenName: string; prefix: string }[];
      expect(Object.fromEntries(listed.map((t) => [t.tokenName, t.prefix]))).toEqual({
        'init-admin-token-1': '*:*.', old: '*:*.', ops: '*:*.', sdk: 'beta:production.', laptop: 'user:',
      });
      expect(secretLabel({ type: 'client', projects: ['a', 'b'], environment: 'development' })).toBe('[]:development.');
    } finally {
      await h.close();
    }
  });
});

describe('restore and tokens', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  test('restore writes no token, names each on stderr, and the restored directory lets an admin in again', async ({ tempDir: dir }) => {
    const source = dir('src');
    const h = await harness({}, source);
    await populate(h);
    await withTokens(h);
    const tokenHasher = h.tokenHasher;
    await h.registry.close();
    const dumped = await dumpCli(['--data-dir', source]);

    // A dump from before this version carried hashes (keyed by hash): those are not restored either.
    const old = JSON.parse(dumped.stdout);
    old.service.state.tokens = { [legacyHash('*:*.from-an-old-dump-0123')]: { hash: legacyHash('*:*.from-an-old-dump-0123'), tokenName: 'from-old-dump', type: 'admin', userId: null, prefix: '*:*.from…' } };
    for (const [label, text, names] of [
      ['current', dumped.stdout, ['"init-admin-token-1" (admin)', '"laptop" (personal of user 1)', '"old" (admin)', '"ops" (admin)', '"sdk" (client)']],
      ['old', JSON.stringify(old), ['"from-old-dump" (admin)']],
    ] as const) {
      const target = dir(`restored-${label}`);
      const restored = await restoreCli(['--data-dir', target], text);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stderr).toContain(`${names.length} token${names.length === 1 ? ' was' : 's were'} not restored and must be re-created`);
      for (const name of names) expect(restored.stderr).toContain(name);
      expect(restored.stderr).toContain('creates one admin token and prints it once');

      const registry = await Registry.open({ dataDir: target, initEnvironments: [] });
      try {
        expect(registry.service.state.tokens).toEqual({});
        // As `npm start` does on a directory without tokens and without INIT_ADMIN_API_TOKENS.
        const generated = await ensureAdminTokens(registry, tokenHasher, []);
        expect(generated).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
        const app = createApp({ registry, config: h.config, tokenHasher });
        const answer = await app.request('/api/admin/projects', { headers: { authorization: generated! } });
        expect(answer.status).toBe(200);
        expect((await app.request('/api/admin/projects', { headers: { authorization: ADMIN_TOKEN } })).status).toBe(401);
      } finally {
        await registry.close();
      }
    }
  });
});
