/**
 * Seed 4.2 and 4.4 through the real HTTP pipeline: the flag list and one flag's detail.
 */
import { describe, expect } from 'vitest';
import { expectError } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath } from '../../helpers/flags.js';

const P = '/api/admin/projects/default';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /features (4.2 list)', () => {
  test('lists active flags as summaries with version 2, in creation order', async ({ h }) => {
    await createFlag(h, 'one', { type: 'experiment' });
    await createFlag(h, 'two');
    await createFlag(h, 'gone');
    await addStrategy(h, 'two', 'production');
    expect((await h.req('POST', `${flagPath('two')}/environments/production/on`)).status).toBe(200);
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    const r = await h.json('GET', `${P}/features`);
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(2);
    expect(r.body.features).toHaveLength(2);
    expect(r.body.features[0]).toMatchObject({ name: 'one', type: 'experiment', stale: false, createdAt: expect.stringMatching(ISO), lastSeenAt: null });
    expect(r.body.features[1].environments).toEqual([
      { name: 'development', displayName: 'development', enabled: false },
      { name: 'production', displayName: 'production', enabled: true },
    ]);
  });

  test('404 for an unknown project', async ({ h }) => {
    expectError(await h.json('GET', '/api/admin/projects/nope/features'), 404, 'NotFoundError');
  });
});

describe('GET /features/:featureName (4.4)', () => {
  test('answers the detail: record, archived, environments in order with strategies in sortOrder', async ({ h }) => {
    await createFlag(h, 'f', { description: 'd' });
    const second = await addStrategy(h, 'f', 'development', { name: 'userWithId', parameters: { userIds: 'a' }, sortOrder: 5 });
    const first = await addStrategy(h, 'f', 'development', { name: 'default', sortOrder: 1 });
    const r = await h.json('GET', flagPath('f'));
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect(r.body).toMatchObject({ name: 'f', description: 'd', project: 'default', archived: false, variants: null, impressionData: false });
    expect(r.body.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect(Object.keys(r.body.environments[0]).sort()).toEqual(['enabled', 'lastSeenAt', 'name', 'sortOrder', 'strategies', 'type']);
    expect(r.body.environments[0].strategies.map((s: { id: string }) => s.id)).toEqual([first.id, second.id]);
    expect(r.body.environments[1]).toEqual({ name: 'production', enabled: false, type: 'production', sortOrder: 2, strategies: [], lastSeenAt: null });
  });

  test('works for an archived flag', async ({ h }) => {
    await createFlag(h, 'old');
    await h.req('DELETE', flagPath('old'));
    const r = await h.json('GET', flagPath('old'));
    expect(r.status).toBe(200);
    expect(r.body.archived).toBe(true);
  });

  test('404 NotFoundError for an unknown flag or project, 400 for a bad name', async ({ h }) => {
    expectError(await h.json('GET', flagPath('missing')), 404, 'NotFoundError', /missing/);
    expectError(await h.json('GET', '/api/admin/projects/nope/features/x'), 404, 'NotFoundError');
    expectError(await h.json('GET', flagPath('x'.repeat(101))), 400, 'ValidationError', /featureName/);
  });
});
