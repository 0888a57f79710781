/**
 * Flag search through HTTP (`GET /api/admin/search/features`, docs/api-decisions.md "Flag search"): the answer
 * shape, every filter with each of its operators, sorting, paging, a differential check against a plain
 * filter-and-sort of the flags, fresh answers after writes and a restart, and bad input (400, nothing written).
 */
import { describe, expect, vi } from 'vitest';
import { expectError, expectNoChange } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createProject, createUser, grant, personalToken, READER } from '../access/access-fixtures.js';
import { clientToken } from '../client/client-fixtures.js';

const SEARCH = '/api/admin/search/features';

interface Found { name: string; project: string; [key: string]: unknown }

async function search(h: Harness, query: Record<string, string | string[]> = {}, token?: string): Promise<{ features: Found[]; total: number }> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
  const r = await h.json('GET', `${SEARCH}?${params}`, undefined, token === undefined ? {} : { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const names = async (h: Harness, query: Record<string, string | string[]> = {}) => (await search(h, { limit: '100', ...query })).features.map((f) => f.name);

async function tag(h: Harness, flag: string, type: string, value: string, project = 'default') {
  const r = await h.json('PUT', `/api/admin/projects/${project}/tags`, { features: [flag], tags: { addedTags: [{ type, value }], removedTags: [] } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

async function makeStale(h: Harness, flag: string, project = 'default') {
  const r = await h.json('PUT', flagPath(flag, project), { name: flag, stale: true });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe('the answer', () => {
  test('one flag: Unleash’s fields, its environments, tags, segments and dependency type', async ({ h }) => {
    await createFlag(h, 'parent', { description: 'The Parent', type: 'experiment', impressionData: true });
    await createFlag(h, 'child');
    await tag(h, 'parent', 'simple', 'beta');
    const seg = await h.json('POST', '/api/admin/segments', { name: 'pro-users', constraints: [] });
    expect(seg.status).toBe(201);
    await addStrategy(h, 'parent', 'development', { name: 'default', segments: [seg.body.id] });
    await switchOn(h, 'parent', 'development');
    expect((await h.json('POST', `${flagPath('child')}/dependencies`, { feature: 'parent' })).status).toBe(200);
    const { features, total } = await search(h);
    expect(total).toBe(2);
    const detail = (await h.json('GET', flagPath('parent'))).body;
    expect(features[0]).toEqual({
      name: 'parent', description: 'The Parent', dependencyType: 'parent', type: 'experiment', project: 'default', stale: false,
      favorite: false, impressionData: true, createdAt: detail.createdAt, createdBy: { id: 0, name: 'unknown', imageUrl: '' },
      archivedAt: null, lastSeenAt: null, segments: ['pro-users'], tags: [{ type: 'simple', value: 'beta' }],
      environments: [
        { name: 'development', enabled: true, type: 'development', sortOrder: expect.any(Number), variantCount: 0, lastSeenAt: null, hasStrategies: true, hasEnabledStrategies: true },
        { name: 'production', enabled: false, type: 'production', sortOrder: expect.any(Number), variantCount: 0, lastSeenAt: null, hasStrategies: false, hasEnabledStrategies: false },
      ],
    });
    expect(features[1]).toMatchObject({ name: 'child', dependencyType: 'child', segments: [], tags: [] });
  });

  test('no flags: an empty page and total 0', async ({ h }) => {
    expect(await search(h)).toEqual({ features: [], total: 0 });
  });
});
