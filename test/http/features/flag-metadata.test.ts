/**
 * What Unleash's flag filters and forms read: the flag types (`GET /api/admin/feature-types`, with Unleash 8's
 * `sunset`), who created flags (`GET /api/admin/flag-creators` as Unleash 8.1 answers it, and the project's list),
 * and the tags the project flag list carries (as Unleash 6.10's list does).
 */
import { describe, expect } from 'vitest';
import { expectError } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { createFlag, featuresPath, flagPath } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createProject, createUser, grant, MEMBER, personalToken } from '../access/access-fixtures.js';

describe('GET /api/admin/feature-types', () => {
  test('the six types with their lifetimes (sunset: 90 days); sunset flags are created, updated and counted in health', async ({ h }) => {
    const r = await h.json('GET', '/api/admin/feature-types');
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(1);
    expect(r.body.types.map((t: { id: string; name: string; lifetimeDays: number | null }) => [t.id, t.name, t.lifetimeDays])).toEqual([
      ['release', 'Release', 40], ['experiment', 'Experiment', 40], ['operational', 'Operational', 7],
      ['kill-switch', 'Kill switch', null], ['permission', 'Permission', null], ['sunset', 'Sunset', 90],
    ]);
    for (const t of r.body.types) expect(typeof t.description).toBe('string');

    expect((await createFlag(h, 'winding-down', { type: 'sunset' })).body.type).toBe('sunset');
    await createFlag(h, 'later');
    const put = await h.json('PUT', flagPath('later'), { name: 'later', type: 'sunset' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await h.json('GET', flagPath('later'))).body.type).toBe('sunset');
    expect((await h.json('GET', featuresPath())).body.features.map((f: { type: string }) => f.type)).toEqual(['sunset', 'sunset']);
    expectError(await h.json('POST', featuresPath(), { name: 'x', type: 'sunrise' }), 400, 'ValidationError', /sunset/);
  });
});

/** Creates a flag as the caller with `token`. */
async function createAs(h: Harness, token: string, name: string, project = 'default'): Promise<void> {
  const r = await h.json('POST', featuresPath(project), { name }, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

describe('flag creators', () => {
  test('the users who created active flags, by name then id; token-made flags and archived flags name nobody; a deleted user is not listed', async ({ h }) => {
    await createProject(h, 'other');
    const ada = await createUser(h, { name: 'Ada Lovelace', email: 'ada@example.com', rootRole: 2 });
    const bob = await createUser(h, { username: 'bob', rootRole: 2 });
    const cy = await createUser(h, { email: 'cy@example.com', rootRole: 2 });
    const dee = await createUser(h, { name: 'Dee', email: 'dee@example.com', rootRole: 2 });
    const [adaToken, bobToken, cyToken, deeToken] = await Promise.all([ada, bob, cy, dee].map((id) => personalToken(h, id)));
    await createAs(h, adaToken!, 'a1');
    await createAs(h, adaToken!, 'a2');
    await createAs(h, bobToken!, 'b1', 'other');
    await createAs(h, cyToken!, 'c1');
    await createAs(h, deeToken!, 'd1');
    await createFlag(h, 'by-token');
    // Dee's only flag is archived: Dee is not a creator of active flags.
    expect((await h.req('DELETE', flagPath('d1'))).status).toBe(202);
    // A clone is created by whoever clones it.
    expect((await h.json('POST', `${flagPath('a1')}/clone`, { name: 'b-clone' }, { token: bobToken! })).status).toBe(201);

    expect((await h.json('GET', '/api/admin/projects/default/flag-creators')).body).toEqual([
      { id: ada, name: 'Ada Lovelace' }, { id: bob, name: 'bob' }, { id: cy, name: 'cy@example.com' },
    ]);
    expect((await h.json('GET', '/api/admin/projects/other/flag-creators')).body).toEqual([{ id: bob, name: 'bob' }]);
    expectError(await h.json('GET', '/api/admin/projects/nope/flag-creators'), 404, 'NotFoundError');

    const all = await h.json('GET', '/api/admin/flag-creators');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ flagCreators: [{ id: ada, name: 'Ada Lovelace' }, { id: bob, name: 'bob' }, { id: cy, name: 'cy@example.com' }], total: 3 });
    // `q`: inside the name, at the start of the username or email, any case.
    expect((await h.json('GET', '/api/admin/flag-creators?q=LOVE')).body).toEqual({ flagCreators: [{ id: ada, name: 'Ada Lovelace' }], total: 1 });
    expect((await h.json('GET', '/api/admin/flag-creators?q=cy@')).body.flagCreators).toEqual([{ id: cy, name: 'cy@example.com' }]);
    expect((await h.json('GET', '/api/admin/flag-creators?q=example')).body.total).toBe(0);
    // Paging; an unusable limit or offset is read as the default, as Unleash does.
    expect((await h.json('GET', '/api/admin/flag-creators?offset=1&limit=1')).body).toEqual({ flagCreators: [{ id: bob, name: 'bob' }], total: 3 });
    expect((await h.json('GET', '/api/admin/flag-creators?offset=-4&limit=abc')).body.flagCreators).toHaveLength(3);

    expect((await h.req('DELETE', `/api/admin/user-admin/${cy}`)).status).toBe(200);
    expect((await h.json('GET', '/api/admin/flag-creators')).body.total).toBe(2);
    // The creator is stored with the flag: it survives a restart.
    await h.restart();
    expect((await h.json('GET', '/api/admin/projects/default/flag-creators')).body).toEqual([{ id: ada, name: 'Ada Lovelace' }, { id: bob, name: 'bob' }]);
  });

  test('a project Member\'s flags count; an import names the importing user as the creator of the flags it creates', async ({ h }) => {
    const member = await createUser(h, { name: 'Mo', email: 'mo@example.com', rootRole: 3 });
    await grant(h, 'default', member, MEMBER);
    await createAs(h, await personalToken(h, member), 'm1');
    const editor = await createUser(h, { name: 'Eve', email: 'eve@example.com', rootRole: 2 });
    const imported = await h.json('POST', '/api/admin/features-batch/import', { project: 'default', environment: 'development', data: { features: [{ name: 'i1' }], featureStrategies: [] } }, { token: await personalToken(h, editor) });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect((await h.json('GET', '/api/admin/projects/default/flag-creators')).body).toEqual([{ id: editor, name: 'Eve' }, { id: member, name: 'Mo' }]);
  });
});

describe('the project flag list carries tags', () => {
  test('each entry lists its tags ([] when none), as they change', async ({ h }) => {
    await createFlag(h, 'tagged');
    await createFlag(h, 'plain');
    expect((await h.json('POST', '/api/admin/features/tagged/tags', { type: 'simple', value: 'beta' })).status).toBe(201);
    const list = async () => Object.fromEntries(((await h.json('GET', featuresPath())).body.features as { name: string; tags: unknown }[]).map((f) => [f.name, f.tags]));
    expect(await list()).toEqual({ tagged: [{ value: 'beta', type: 'simple' }], plain: [] });
    expect((await h.req('DELETE', '/api/admin/features/tagged/tags/simple/beta')).status).toBe(200);
    expect(await list()).toEqual({ tagged: [], plain: [] });
    // A filtered list carries them too.
    expect((await h.json('POST', '/api/admin/features/plain/tags', { type: 'simple', value: 'gamma' })).status).toBe(201);
    expect((await h.json('GET', `${featuresPath()}?tag=simple:gamma`)).body.features).toEqual([expect.objectContaining({ name: 'plain', tags: [{ value: 'gamma', type: 'simple' }] })]);
  });
});
