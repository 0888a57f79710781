import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { legacyHash } from '../../../src/auth/token-hasher.js';
import { test as it } from '../../helpers/fixtures.js';
import { ADMIN_TOKEN } from '../../helpers/harness.js';
import { createProject, createUser } from './access-fixtures.js';


describe('POST /api/admin/api-tokens', () => {
  it('creates an admin token (201) whose secret is shown once and works at once', async ({ h }) => {
    const res = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tokenName: 'ops', type: 'admin', projects: ['*'], environment: '*', expiresAt: null });
    expect(res.body.secret).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
    // The label every secret of this token starts with, and nothing of its random part.
    expect(res.body.prefix).toBe('*:*.');
    expect(res.body).not.toHaveProperty('hash');
    expect((await h.json('POST', '/api/admin/projects', { id: 'p', name: 'p' }, { token: res.body.secret })).status).toBe(201);
  });

  it('creates a client token scoped to a project and an environment', async ({ h }) => {
    await createProject(h, 'web');
    const res = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['web'], environment: 'production' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'client', projects: ['web'], environment: 'production' });
    expect(res.body.secret.startsWith('web:production.')).toBe(true);
  });

  it('refuses a client token for an unknown project or environment (404)', async ({ h }) => {
    const project = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['nope'] });
    expect(project.status).toBe(404);
    expect(project.body.message).toContain('"nope"');
    const environment = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'staging' });
    expect(environment.status).toBe(404);
    expect(environment.body.message).toContain('"staging"');
  });

  it.for([
    [{ type: 'admin' }, 'tokenName'],
    [{ tokenName: 'x', type: 'nope' }, 'type'],
    [{ tokenName: 'x', type: 'frontend' }, 'environment'],
    [{ tokenName: 'x', type: 'frontend', environment: '*' }, 'environment'],
    [{ tokenName: 'x', type: 'admin', projects: ['default'] }, 'projects'],
    [{ tokenName: 'x', type: 'admin', environment: 'production' }, 'environment'],
    [{ tokenName: 'x', type: 'client', expiresAt: '2001-01-01' }, 'expiresAt'],
  ])('refuses %j with a 400 naming %s', async ([body, property], { h }) => {
    const res = await h.json('POST', '/api/admin/api-tokens', body);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain(`"${property}"`);
  });
});

describe('GET and DELETE /api/admin/api-tokens', () => {
  it('lists tokens without secrets or hashes, with an id that revokes the token at once', async ({ h }) => {
    const created = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' });
    const list = await h.json('GET', '/api/admin/api-tokens');
    expect(list.status).toBe(200);
    expect(list.body.tokens.map((t: { tokenName: string }) => t.tokenName)).toEqual(['init-admin-token-1', 'ops']);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(created.body.secret);
    for (const secret of [created.body.secret as string, ADMIN_TOKEN]) {
      expect(text).not.toContain(h.tokenHasher.hash(secret));
      expect(text).not.toContain(legacyHash(secret));
    }
    const listed = list.body.tokens[1];
    expect(Object.keys(listed).sort()).toEqual(['createdAt', 'environment', 'expiresAt', 'id', 'prefix', 'projects', 'tokenName', 'type']);
    expect(listed.id).toBe(created.body.id);

    expect((await h.json('GET', '/api/admin/api-tokens', undefined, { token: created.body.secret })).status).toBe(200);
    expect((await h.req('DELETE', `/api/admin/api-tokens/${listed.id}`)).status).toBe(200);
    const after = await h.json('GET', '/api/admin/api-tokens', undefined, { token: created.body.secret });
    expect(after.status).toBe(401);
    expect(after.body.name).toBe('AuthenticationRequired');
    expect((await h.json('GET', '/api/admin/api-tokens')).body.tokens).toHaveLength(1);
  });

  it('DELETE of an unknown id, or of a personal token, is a 404', async ({ h }) => {
    expect((await h.json('DELETE', '/api/admin/api-tokens/nope')).status).toBe(404);
    const user = await createUser(h, { email: 'ada@example.com' });
    const personal = await h.json('POST', `/api/admin/user-admin/${user}/tokens`, { description: 'laptop' });
    expect((await h.json('DELETE', `/api/admin/api-tokens/${personal.body.id}`)).status).toBe(404);
  });

  it('an expired token gets 401', async ({ h }) => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const created = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'soon', type: 'admin', expiresAt });
    expect((await h.json('GET', '/api/admin/roles', undefined, { token: created.body.secret })).status).toBe(200);
    // The clock moved to the moment it expires, rather than a wait for it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(expiresAt) });
    try {
      expect((await h.json('GET', '/api/admin/roles', undefined, { token: created.body.secret })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('personal tokens', () => {
  it('creates (201), lists and revokes a personal token that acts as its user', async ({ h }) => {
    const user = await createUser(h, { email: 'ada@example.com', rootRole: 'Viewer' });
    const created = await h.json('POST', `/api/admin/user-admin/${user}/tokens`, { description: 'laptop', expiresAt: '2999-01-01' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'personal', description: 'laptop', userId: user, expiresAt: '2999-01-01T00:00:00.000Z' });
    expect(created.body.secret).toMatch(/^user:[0-9a-f]{56}$/);
    const token = created.body.secret as string;
    // A Viewer reads, and cannot write.
    expect((await h.json('GET', '/api/admin/projects/default', undefined, { token })).status).toBe(200);
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'f' }, { token })).status).toBe(403);

    const list = await h.json('GET', `/api/admin/user-admin/${user}/tokens`);
    expect(list.body.tokens).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect((await h.json('GET', '/api/admin/api-tokens')).body.tokens.some((t: { id: string }) => t.id === created.body.id)).toBe(false);

    expect((await h.req('DELETE', `/api/admin/user-admin/${user}/tokens/${created.body.id}`)).status).toBe(200);
    expect((await h.json('GET', '/api/admin/projects/default', undefined, { token })).status).toBe(401);
    expect((await h.json('GET', `/api/admin/user-admin/${user}/tokens`)).body.tokens).toEqual([]);
  });

  it('answers 404 for an unknown user or token, 400 for a bad body', async ({ h }) => {
    expect((await h.json('POST', '/api/admin/user-admin/99/tokens', { description: 'x' })).status).toBe(404);
    expect((await h.json('GET', '/api/admin/user-admin/99/tokens')).status).toBe(404);
    expect((await h.json('DELETE', '/api/admin/user-admin/1/tokens/nope')).status).toBe(404);
    const bad = await h.json('POST', '/api/admin/user-admin/1/tokens', { description: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('"description"');
  });
});

describe('secrets at rest', () => {
  it('stores only hashes: no secret appears in any file of the data directory', async ({ h }) => {
    const admin = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' });
    const personal = await h.json('POST', '/api/admin/user-admin/1/tokens', { description: 'laptop' });
    const secrets = [ADMIN_TOKEN, admin.body.secret as string, personal.body.secret as string];
    /** Looks for every secret in every file; returns how many files hold the admin token's stored hash. */
    const scan = (): number => {
      const files = readdirSync(h.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      expect(files.length).toBeGreaterThan(0);
      let hashesFound = 0;
      for (const file of files) {
        const content = readFileSync(join(file.parentPath, file.name)).toString('latin1');
        for (const secret of secrets) expect(content.includes(secret.slice(-40)), file.name).toBe(false);
        if (content.includes(h.tokenHasher.hash(admin.body.secret))) hashesFound += 1;
      }
      return hashesFound;
    };
    // Before a restart the records sit in LevelDB's write-ahead log as written, so the stored hash must be
    // found: the search can see stored text at all.
    expect(scan()).toBeGreaterThan(0);
    // After it, snapshots too. LevelDB's tables are snappy-compressed, which can split any stored string (the
    // hash is found in about half the runs), so only the absence of secrets is checked there.
    await h.restart();
    scan();
  });
});
