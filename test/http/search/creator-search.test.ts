/**
 * Who created a flag, in the search (`GET /api/admin/search/features`): each entry's `createdBy` names the user
 * who created it (`unknown` for an API token), and the `createdBy` filter keeps the flags of the users listed.
 */
import { describe, expect } from 'vitest';
import { harnessTest } from '../../helpers/fixtures.js';
import { createFlag } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createUser, personalToken } from '../access/access-fixtures.js';

const SEARCH = '/api/admin/search/features';
const EDITOR = 2;

const test = harnessTest().extend<{ ann: number; bob: number }>({
  ann: async ({ h }, use) => use(await createUser(h, { username: 'ann', name: 'Ann', rootRole: EDITOR })),
  bob: async ({ h }, use) => use(await createUser(h, { username: 'bob', rootRole: EDITOR })),
});

async function createAs(h: Harness, token: string, name: string): Promise<void> {
  const res = await h.json('POST', '/api/admin/projects/default/features', { name }, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const names = async (h: Harness, query: string) =>
  ((await h.json('GET', `${SEARCH}?${query}`)).body.features as { name: string }[]).map((f) => f.name).sort();

describe('search: who created a flag', () => {
  test('each entry names its creator; the filter keeps the flags of the users listed', async ({ h, ann, bob }) => {
    await createAs(h, await personalToken(h, ann), 'by-ann');
    await createAs(h, await personalToken(h, bob), 'by-bob');
    await createFlag(h, 'by-token');
    const features = (await h.json('GET', SEARCH)).body.features as { name: string; createdBy: unknown }[];
    expect(Object.fromEntries(features.map((f) => [f.name, f.createdBy]))).toEqual({
      'by-ann': { id: ann, name: 'Ann', imageUrl: '' },
      'by-bob': { id: bob, name: 'bob', imageUrl: '' },
      'by-token': { id: 0, name: 'unknown', imageUrl: '' },
    });
    expect(await names(h, `createdBy=IS:${ann}`)).toEqual(['by-ann']);
    expect(await names(h, `createdBy=IS_ANY_OF:${ann},${bob}`)).toEqual(['by-ann', 'by-bob']);
    expect(await names(h, `createdBy=IS_NOT:${ann}`)).toEqual(['by-bob', 'by-token']);
    expect(await names(h, 'createdBy=IS:999')).toEqual([]);
  });

  test('a deleted creator is unknown again, and still filters by id', async ({ h, ann }) => {
    await createAs(h, await personalToken(h, ann), 'by-ann');
    expect((await h.req('DELETE', `/api/admin/user-admin/${ann}`)).status).toBe(200);
    const [entry] = (await h.json('GET', SEARCH)).body.features;
    expect(entry.createdBy).toEqual({ id: 0, name: 'unknown', imageUrl: '' });
    expect(await names(h, `createdBy=IS:${ann}`)).toEqual(['by-ann']);
  });
});
