/**
 * Token hashes are keyed (HMAC-SHA256 under the installation's key, kept outside the data directory);
 * records from before keyed hashes (plain SHA-256) still authenticate and are re-stored under their HMAC on
 * first use. docs/storage.md "Token hashes".
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { ensureAdminTokens } from '../../../src/bootstrap-tokens.js';
import { legacyHash } from '../../../src/auth/token-hasher.js';
import type { StoredToken } from '../../../src/domain/service-state.js';
import { decode } from '../../../snapshots/codec.js';
import { keys } from '../../../snapshots/keys.js';
import { positions } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { ADMIN_TOKEN, HARNESS_TOKEN_SECRET, harness, type Harness } from '../../helpers/harness.js';
import { storeOf } from '../../helpers/store-of.js';

const LEGACY_SECRET = '*:*.chosen-by-an-operator-long-ago';

/** A token record as versions before keyed hashes wrote it: plain SHA-256, and a prefix with 4 characters of the secret. */
const legacyRecord = (secret: string, fields: Partial<StoredToken> = {}): StoredToken => ({
  id: randomUUID(), hash: legacyHash(secret), tokenName: 'legacy', type: 'admin', projects: ['*'], environment: '*',
  createdAt: '2025-01-01T00:00:00.000Z', expiresAt: null, userId: null, prefix: `${secret.slice(0, 8)}…`, ...fields,
});

async function storeLegacy(h: Harness, token: StoredToken): Promise<void> {
  const decision = await h.registry.service.send({ type: 'token.create', token }, 'system');
  expect(decision.ok).toBe(true);
}

const tokensOf = (h: Harness) => h.registry.service.state.tokens;

describe('keyed token hashes', () => {
  test('a token is stored under its HMAC; created under one key, it does not authenticate under another', async ({ tempDir, openHarnessOverTempDir }) => {
    const dir = tempDir('keys');
    const a = await harness({ TOKEN_SECRET: 'installation-a-token-key-0123456789abcdef' }, dir);
    const created = await a.json('POST', '/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(tokensOf(a)[a.tokenHasher.hash(secret)]?.id).toBe(created.body.id);
    expect(tokensOf(a)[legacyHash(secret)]).toBeUndefined();
    expect((await a.json('GET', '/api/admin/projects', undefined, { token: secret })).status).toBe(200);
    await a.registry.close();

    // The same data directory under another key: the stored hash matches nothing.
    const b = await openHarnessOverTempDir({ TOKEN_SECRET: 'installation-b-token-key-0123456789abcdef' }, dir);
    expect(b.tokenHasher.hash(secret)).not.toBe(a.tokenHasher.hash(secret));
    const refused = await b.json('GET', '/api/admin/projects', undefined, { token: secret });
    expect(refused.status).toBe(401);
    expect(refused.body.name).toBe('AuthenticationRequired');
  });

  test('no file of the data directory holds the token key, whether given as TOKEN_SECRET or kept in the key file', async ({ h, tempDir, openHarnessOverTempDir }) => {
    await h.json('POST', '/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' });
    await h.restart();

    const parent = tempDir('keys');
    const dataDir = join(parent, 'data');
    const keyFile = join(parent, 'data.token-secret');
    const withFile = await openHarnessOverTempDir({ TOKEN_SECRET_FILE: keyFile }, dataDir);
    await withFile.json('POST', '/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' });
    await withFile.restart();
    const fileKey = readFileSync(keyFile, 'utf8').trim();
    expect(fileKey).toMatch(/^[0-9a-f]{64}$/);

    for (const [dir, key] of [[h.dataDir, HARNESS_TOKEN_SECRET], [dataDir, fileKey]] as const) {
      const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const content = readFileSync(join(file.parentPath, file.name));
        expect(content.includes(key.slice(0, 24)), file.name).toBe(false);
        expect(content.includes(Buffer.from(key.slice(0, 24)).toString('base64')), file.name).toBe(false);
      }
    }
  });
});

describe('records from before keyed hashes (plain SHA-256)', () => {
  test('authenticate once, are then stored under their HMAC, and the unkeyed hash is gone from the state', async ({ tempDir, openHarnessOverTempDir }) => {
    // Not closed by a fixture: the test closes its store and hands its data directory over to `again`.
    const h = await harness({}, tempDir('keys'));
    const legacy = legacyRecord(LEGACY_SECRET);
    await storeLegacy(h, legacy);
    const seq = h.registry.service.seq;

    expect((await h.json('GET', '/api/admin/projects', undefined, { token: LEGACY_SECRET })).status).toBe(200);
    const hmac = h.tokenHasher.hash(LEGACY_SECRET);
    expect(tokensOf(h)[legacy.hash]).toBeUndefined();
    const upgraded = tokensOf(h)[hmac]!;
    // The same token (id, name, scope), without the old prefix that held part of the secret.
    const { hash: _old, prefix: _prefix, ...same } = legacy;
    expect(upgraded).toEqual({ ...same, hash: hmac });
    expect(JSON.stringify(h.registry.service.state)).not.toContain(legacy.hash);
    expect(JSON.stringify(h.registry.service.state)).not.toContain(LEGACY_SECRET.slice(4, 8));

    // One durable record, which names the token by id and does not repeat the unkeyed hash.
    expect(h.registry.service.seq).toBe(seq + 1);
    const record = decode(keys.log('service', seq + 1), (await storeOf(h.registry).get(keys.log('service', seq + 1)))!) as { command: unknown; events: unknown[] };
    expect(record.command).toEqual({ type: 'token.rehash', id: legacy.id, hash: hmac });
    expect(record.events).toEqual([{ type: 'token.rehashed', id: legacy.id, hash: hmac }]);

    // Later uses find the HMAC and write nothing; the upgrade survives a restart (log replay and snapshot).
    const before = positions(h);
    expect((await h.json('GET', '/api/admin/projects', undefined, { token: LEGACY_SECRET })).status).toBe(200);
    expect(positions(h)).toBe(before);
    await storeOf(h.registry).close();
    const again = await openHarnessOverTempDir({}, h.dataDir);
    expect(tokensOf(again)[hmac]).toEqual({ ...same, hash: hmac });
    expect(tokensOf(again)[legacy.hash]).toBeUndefined();
    expect((await again.json('GET', '/api/admin/projects', undefined, { token: LEGACY_SECRET })).status).toBe(200);
    await again.restart();
    expect(tokensOf(again)[hmac]).toEqual({ ...same, hash: hmac });
  });

  test('several first uses at once: every one is let in, one record is written', async ({ h }) => {
    await storeLegacy(h, legacyRecord(LEGACY_SECRET));
    const seq = h.registry.service.seq;
    const answers = await Promise.all(Array.from({ length: 6 }, () => h.json('GET', '/api/admin/roles', undefined, { token: LEGACY_SECRET })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(h.registry.service.seq).toBe(seq + 1);
    expect(Object.keys(tokensOf(h))).toEqual(expect.arrayContaining([h.tokenHasher.hash(LEGACY_SECRET)]));
    expect(Object.keys(tokensOf(h))).toHaveLength(2);
  });

  test('an expired legacy token is refused and left as it is; a revoked one is refused', async ({ h }) => {
    const expired = legacyRecord('*:*.expired-legacy-token-000', { expiresAt: '2020-01-01T00:00:00.000Z' });
    await storeLegacy(h, expired);
    const before = positions(h);
    expect((await h.json('GET', '/api/admin/roles', undefined, { token: '*:*.expired-legacy-token-000' })).status).toBe(401);
    expect(positions(h)).toBe(before);

    const revoked = legacyRecord('*:*.revoked-legacy-token-000');
    await storeLegacy(h, revoked);
    expect((await h.req('DELETE', `/api/admin/api-tokens/${revoked.id}`)).status).toBe(200);
    expect((await h.json('GET', '/api/admin/roles', undefined, { token: '*:*.revoked-legacy-token-000' })).status).toBe(401);
  });

  test('a personal token and a client token keep their scope when re-stored', async ({ h }) => {
    const user = await h.json('POST', '/api/admin/user-admin', { email: 'viewer@example.com', rootRole: 3 });
    const personal = legacyRecord('user:legacy-personal-token-0123', { type: 'personal', userId: user.body.id, tokenName: 'laptop' });
    const client = legacyRecord('default:development.legacy-client-0123', { type: 'client', projects: ['default'], environment: 'development', tokenName: 'sdk' });
    await storeLegacy(h, personal);
    await storeLegacy(h, client);
    // A Viewer reads and cannot write; a client token gets no admin route.
    expect((await h.json('GET', '/api/admin/projects/default', undefined, { token: 'user:legacy-personal-token-0123' })).status).toBe(200);
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'f' }, { token: 'user:legacy-personal-token-0123' })).status).toBe(403);
    expect((await h.json('GET', '/api/admin/projects', undefined, { token: 'default:development.legacy-client-0123' })).status).toBe(403);
    expect(tokensOf(h)[h.tokenHasher.hash('user:legacy-personal-token-0123')]).toMatchObject({ id: personal.id, type: 'personal', userId: user.body.id });
    expect(tokensOf(h)[h.tokenHasher.hash('default:development.legacy-client-0123')]).toMatchObject({ id: client.id, type: 'client', projects: ['default'] });
    const listed = await h.json('GET', `/api/admin/user-admin/${user.body.id}/tokens`);
    expect(listed.body.tokens).toEqual([expect.objectContaining({ id: personal.id, prefix: 'user:' })]);
  });

  test('an init admin token stored the old way is re-stored under its HMAC at start, not created twice', async ({ h }) => {
    const legacy = legacyRecord(LEGACY_SECRET, { tokenName: 'init-admin-token-2' });
    await storeLegacy(h, legacy);
    expect(await ensureAdminTokens(h.registry, h.tokenHasher, [ADMIN_TOKEN, LEGACY_SECRET])).toBeNull();
    expect(tokensOf(h)[legacy.hash]).toBeUndefined();
    expect(tokensOf(h)[h.tokenHasher.hash(LEGACY_SECRET)]).toMatchObject({ id: legacy.id, tokenName: 'init-admin-token-2' });
    expect(Object.keys(tokensOf(h))).toHaveLength(2);
  });
});
