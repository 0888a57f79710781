/**
 * Flag search through HTTP (`GET /api/admin/search/features`, docs/api-decisions.md "Flag search"): the answer
 * shape, every filter with each of its operators, sorting, paging, a differential check against a plain
 * filter-and-sort of the flags, fresh answers after writes and a restart, and bad input (400, nothing written).
 */
import { describe, expect, vi } from 'vitest';
import { clockPast } from '../../helpers/clock.js';
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
  const { name, description, type, impressionData } = (await h.json('GET', flagPath(flag, project))).body;
  const r = await h.json('PUT', flagPath(flag, project), { name, description, type, impressionData, stale: true });
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
    // Picked by name: both flags may be created within one millisecond, and then `child` sorts first.
    expect(features.find((f) => f.name === 'parent')).toEqual({
      name: 'parent', description: 'The Parent', dependencyType: 'parent', type: 'experiment', project: 'default', stale: false,
      favorite: false, impressionData: true, createdAt: detail.createdAt, createdBy: { id: 0, name: 'unknown', imageUrl: '' },
      archivedAt: null, lastSeenAt: null, segments: ['pro-users'], tags: [{ type: 'simple', value: 'beta' }],
      lifecycle: { stage: 'initial', enteredStageAt: detail.createdAt },
      environments: [
        { name: 'development', enabled: true, type: 'development', sortOrder: expect.any(Number), variantCount: 0, lastSeenAt: null, hasStrategies: true, hasEnabledStrategies: true },
        { name: 'production', enabled: false, type: 'production', sortOrder: expect.any(Number), variantCount: 0, lastSeenAt: null, hasStrategies: false, hasEnabledStrategies: false },
      ],
    });
    expect(features.find((f) => f.name === 'child')).toMatchObject({ name: 'child', dependencyType: 'child', segments: [], tags: [] });
  });

  test('no flags: an empty page and total 0', async ({ h }) => {
    expect(await search(h)).toEqual({ features: [], total: 0 });
  });
});

// Filters are judged by the set of flags they keep (order is the subject of 'sorting and paging': flags made
// in the same millisecond tie on createdAt and fall back to their names).
describe('filters', () => {
  test('free text: comma-separated terms, any of them, inside the name or the description, case-insensitive, literally', async ({ h }) => {
    await createFlag(h, 'checkout-v2', { description: 'New basket' });
    await createFlag(h, 'Login-Form', { description: 'sso' });
    await createFlag(h, 'search_box', { description: '100% of users' });
    await createFlag(h, 'plain');
    expect(new Set(await names(h, { query: 'CHECKOUT' }))).toEqual(new Set(['checkout-v2']));
    expect(new Set(await names(h, { query: 'basket' }))).toEqual(new Set(['checkout-v2']));
    expect(new Set(await names(h, { query: 'login, basket' }))).toEqual(new Set(['checkout-v2', 'Login-Form']));
    expect(await names(h, { query: ' , ' })).toHaveLength(4);
    expect(new Set(await names(h, { query: '100%' }))).toEqual(new Set(['search_box']));
    expect(new Set(await names(h, { query: '_' }))).toEqual(new Set(['search_box'])); // not a LIKE wildcard
    expect(new Set(await names(h, { query: '.*' }))).toEqual(new Set([])); // not a pattern
    expect(await search(h, { query: 'nothing-like-it' })).toEqual({ features: [], total: 0 });
  });

  test('project: IS, IS_NOT, IS_ANY_OF, IS_NONE_OF; an unknown project matches nothing', async ({ h }) => {
    await createProject(h, 'web');
    await createProject(h, 'app');
    await createFlag(h, 'd1');
    await createFlag(h, 'w1', {}, 'web');
    await createFlag(h, 'a1', {}, 'app');
    const by = async (project: string) => (await search(h, { project })).features.map((f) => `${f.project}/${f.name}`).sort();
    expect(await by('IS:web')).toEqual(['web/w1']);
    expect(await by('IS_NOT:web')).toEqual(['app/a1', 'default/d1']);
    expect(await by('IS_ANY_OF:web,app')).toEqual(['app/a1', 'web/w1']);
    expect(await by('IS_NONE_OF:web, app')).toEqual(['default/d1']);
    expect(await by('IS:nope')).toEqual([]);
  });

  test('type, and state (active, stale; no flag is potentially stale)', async ({ h }) => {
    await createFlag(h, 'r1');
    await createFlag(h, 'e1', { type: 'experiment' });
    await createFlag(h, 'k1', { type: 'kill-switch' });
    await makeStale(h, 'e1');
    expect(new Set(await names(h, { type: 'IS:experiment' }))).toEqual(new Set(['e1']));
    expect(new Set(await names(h, { type: 'IS_NOT:experiment' }))).toEqual(new Set(['r1', 'k1']));
    expect(new Set(await names(h, { type: 'IS_ANY_OF:experiment,kill-switch' }))).toEqual(new Set(['e1', 'k1']));
    expect(new Set(await names(h, { type: 'IS_NONE_OF:experiment,kill-switch' }))).toEqual(new Set(['r1']));
    expect(new Set(await names(h, { state: 'IS:stale' }))).toEqual(new Set(['e1']));
    expect(new Set(await names(h, { state: 'IS:active' }))).toEqual(new Set(['r1', 'k1']));
    expect(new Set(await names(h, { state: 'IS_NOT:stale' }))).toEqual(new Set(['r1', 'k1']));
    expect(new Set(await names(h, { state: 'IS_ANY_OF:stale,active' }))).toEqual(new Set(['r1', 'e1', 'k1']));
    expect(new Set(await names(h, { state: 'IS:potentially-stale' }))).toEqual(new Set([]));
    expect(new Set(await names(h, { state: 'IS_NONE_OF:potentially-stale' }))).toEqual(new Set(['r1', 'e1', 'k1']));
  });

  test('tag: INCLUDE, INCLUDE_ANY_OF, INCLUDE_ALL_OF, DO_NOT_INCLUDE, EXCLUDE_IF_ANY_OF, EXCLUDE_ALL; a value may hold colons', async ({ h }) => {
    await createFlag(h, 'both');
    await createFlag(h, 'beta');
    await createFlag(h, 'none');
    await createFlag(h, 'colon');
    await tag(h, 'both', 'simple', 'beta');
    await tag(h, 'both', 'simple', 'gamma');
    await tag(h, 'beta', 'simple', 'beta');
    await tag(h, 'colon', 'simple', 'a:b');
    expect(new Set(await names(h, { tag: 'INCLUDE:simple:beta' }))).toEqual(new Set(['both', 'beta']));
    expect(new Set(await names(h, { tag: 'INCLUDE_ANY_OF:simple:gamma,simple:a:b' }))).toEqual(new Set(['both', 'colon']));
    expect(new Set(await names(h, { tag: 'INCLUDE_ALL_OF:simple:beta,simple:gamma' }))).toEqual(new Set(['both']));
    expect(new Set(await names(h, { tag: 'DO_NOT_INCLUDE:simple:beta' }))).toEqual(new Set(['none', 'colon']));
    expect(new Set(await names(h, { tag: 'EXCLUDE_IF_ANY_OF:simple:beta,simple:a:b' }))).toEqual(new Set(['none']));
    expect(new Set(await names(h, { tag: 'EXCLUDE_ALL:simple:beta,simple:gamma' }))).toEqual(new Set(['beta', 'none', 'colon']));
    expect(new Set(await names(h, { tag: 'INCLUDE:simple:unknown' }))).toEqual(new Set([]));
  });

  test('segment (by name, through the strategies), status (environment:enabled|disabled, any of them), archived', async ({ h }) => {
    const seg = await h.json('POST', '/api/admin/segments', { name: 'pro', constraints: [] });
    for (const name of ['seg', 'on', 'off', 'gone']) await createFlag(h, name);
    await addStrategy(h, 'seg', 'production', { name: 'default', segments: [seg.body.id] });
    await addStrategy(h, 'on', 'development');
    await switchOn(h, 'on', 'development');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    expect(new Set(await names(h, { segment: 'INCLUDE:pro' }))).toEqual(new Set(['seg']));
    expect(new Set(await names(h, { segment: 'EXCLUDE_IF_ANY_OF:pro' }))).toEqual(new Set(['on', 'off']));
    expect(new Set(await names(h, { status: 'development:enabled' }))).toEqual(new Set(['on']));
    expect(new Set(await names(h, { status: ['development:enabled', 'production:disabled'] }))).toEqual(new Set(['seg', 'on', 'off']));
    expect(new Set(await names(h, { status: 'development:disabled' }))).toEqual(new Set(['seg', 'off']));
    expect(new Set(await names(h, { status: 'nowhere:enabled' }))).toEqual(new Set([]));
    expect(new Set(await names(h, { archived: 'IS:true' }))).toEqual(new Set(['gone']));
    expect((await search(h, { archived: 'IS:true' })).features[0]!.archivedAt).toEqual(expect.any(String));
    expect(new Set(await names(h, { archived: 'IS:false' }))).toEqual(new Set(['seg', 'on', 'off']));
  });

  test('createdAt: IS_BEFORE a day (midnight UTC) and IS_ON_OR_AFTER it; combined with free text and a type', async ({ h }) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (const [name, at, type] of [['old', '2024-01-30T23:59:59.999Z', 'release'], ['edge', '2024-01-31T00:00:00.000Z', 'release'], ['new', '2024-03-01T12:00:00.000Z', 'experiment'], ['new-release', '2024-03-02T12:00:00.000Z', 'release']] as const) {
        vi.setSystemTime(new Date(at));
        await createFlag(h, name, { type });
      }
    } finally {
      vi.useRealTimers();
    }
    expect(new Set(await names(h, { createdAt: 'IS_BEFORE:2024-01-31' }))).toEqual(new Set(['old']));
    expect(new Set(await names(h, { createdAt: 'IS_ON_OR_AFTER:2024-01-31' }))).toEqual(new Set(['edge', 'new', 'new-release']));
    expect(new Set(await names(h, { createdAt: 'IS_ON_OR_AFTER:2024-02-01', query: 'new', type: 'IS:release' }))).toEqual(new Set(['new-release']));
  });
});

describe('sorting and paging', () => {
  test('default: createdAt ascending; sortBy name, type, stale, project, environment:<name>, with createdAt then name breaking ties', async ({ h }) => {
    await createProject(h, 'aaa');
    // Each created in its own millisecond, so that createdAt orders them (a tie falls back to the names).
    const nextMillisecond = () => clockPast();
    await createFlag(h, 'b', { type: 'release' });
    await nextMillisecond();
    await createFlag(h, 'a', { type: 'experiment' });
    await nextMillisecond();
    await createFlag(h, 'c', { type: 'release' }, 'aaa');
    await makeStale(h, 'b');
    await addStrategy(h, 'a', 'development');
    await switchOn(h, 'a', 'development');
    const order = async (q: Record<string, string>) => (await search(h, q)).features.map((f) => f.name);
    expect(await order({})).toEqual(['b', 'a', 'c']);
    expect(await order({ sortOrder: 'desc' })).toEqual(['c', 'a', 'b']);
    expect(await order({ sortBy: 'name' })).toEqual(['a', 'b', 'c']);
    expect(await order({ sortBy: 'name', sortOrder: 'desc' })).toEqual(['c', 'b', 'a']);
    expect(await order({ sortBy: 'type' })).toEqual(['a', 'b', 'c']);
    expect(await order({ sortBy: 'type', sortOrder: 'desc' })).toEqual(['b', 'c', 'a']);
    expect(await order({ sortBy: 'stale', sortOrder: 'desc' })).toEqual(['b', 'a', 'c']);
    expect(await order({ sortBy: 'project' })).toEqual(['c', 'b', 'a']);
    expect(await order({ sortBy: 'environment:development', sortOrder: 'desc' })).toEqual(['a', 'b', 'c']);
    expect(await order({ sortBy: 'environment:development', sortOrder: 'asc' })).toEqual(['b', 'c', 'a']);
    expect(await order({ sortBy: 'lastSeenAt' })).toEqual(['b', 'a', 'c']);
    expect(await order({ sortBy: 'environment:nowhere', sortOrder: 'desc' })).toEqual(['b', 'a', 'c']);
  });

  test('pages: offset and limit (default 50), total counts every match, the pages put together are the whole list', async ({ h }) => {
    await createProject(h, 'web');
    for (let i = 0; i < 60; i += 1) await createFlag(h, `f-${String(i).padStart(2, '0')}`, {}, i % 3 === 0 ? 'web' : 'default');
    const first = await search(h);
    expect(first.total).toBe(60);
    expect(first.features).toHaveLength(50);
    const all = (await search(h, { limit: '100', sortBy: 'name', sortOrder: 'desc' })).features.map((f) => f.name);
    expect(all).toEqual(Array.from({ length: 60 }, (_, i) => `f-${String(59 - i).padStart(2, '0')}`));
    const pages: string[] = [];
    for (let offset = 0; offset < 60; offset += 7) {
      const page = await search(h, { offset: String(offset), limit: '7', sortBy: 'name', sortOrder: 'desc' });
      expect(page.total).toBe(60);
      pages.push(...page.features.map((f) => f.name));
    }
    expect(pages).toEqual(all);
    expect(await search(h, { offset: '60' })).toEqual({ features: [], total: 60 });
    const web = await search(h, { project: 'IS:web', offset: '15', limit: '10' });
    expect(web.total).toBe(20);
    expect(web.features.map((f) => f.name)).toEqual(['f-45', 'f-48', 'f-51', 'f-54', 'f-57']);
  });

  test('differential: random flags in three projects, each query answered as a plain filter and sort of every flag would', async ({ h }) => {
    let seed = 7;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    const types = ['release', 'experiment', 'operational'];
    const projects = ['default', 'web', 'app'];
    await createProject(h, 'web');
    await createProject(h, 'app');
    const flags: { name: string; project: string; type: string; stale: boolean; tags: string[] }[] = [];
    for (let i = 0; i < 45; i += 1) {
      const flag = { name: `${['alpha', 'beta', 'gamma'][i % 3]}-${Math.floor(random() * 1000)}-${i}`, project: projects[Math.floor(random() * 3)]!, type: types[Math.floor(random() * 3)]!, stale: random() < 0.3, tags: random() < 0.5 ? ['simple:xx'] : [] };
      flags.push(flag);
      await createFlag(h, flag.name, { type: flag.type }, flag.project);
      if (flag.stale) await makeStale(h, flag.name, flag.project);
      for (const t of flag.tags) await tag(h, flag.name, 'simple', t.slice(7), flag.project);
    }
    const created = new Map<string, string>();
    for (const f of flags) created.set(f.name, (await h.json('GET', flagPath(f.name, f.project))).body.createdAt);
    const queries: [Record<string, string>, (f: typeof flags[number]) => boolean][] = [
      [{ query: 'beta' }, (f) => f.name.includes('beta')],
      [{ query: 'alpha,gamma', type: 'IS:release' }, (f) => !f.name.startsWith('beta') && f.type === 'release'],
      [{ project: 'IS_ANY_OF:web,app', state: 'IS:stale' }, (f) => f.project !== 'default' && f.stale],
      [{ tag: 'INCLUDE:simple:xx', type: 'IS_NOT:experiment' }, (f) => f.tags.length > 0 && f.type !== 'experiment'],
    ];
    for (const [query, keep] of queries) {
      for (const [sortBy, sortOrder] of [['createdAt', 'asc'], ['createdAt', 'desc'], ['name', 'desc'], ['type', 'asc'], ['project', 'desc']] as const) {
        const key = (f: typeof flags[number]) => (sortBy === 'createdAt' ? created.get(f.name)! : sortBy === 'name' ? f.name : sortBy === 'type' ? f.type : f.project);
        const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        const sign = sortOrder === 'desc' ? -1 : 1;
        const expected = flags.filter(keep).sort((a, b) => sign * cmp(key(a), key(b)) || cmp(created.get(a.name)!, created.get(b.name)!) || cmp(a.name, b.name)).map((f) => f.name);
        const got = await search(h, { ...query, sortBy, sortOrder, offset: '2', limit: '5' });
        expect(got.total, JSON.stringify(query)).toBe(expected.length);
        expect(got.features.map((f) => f.name), `${JSON.stringify(query)} ${sortBy} ${sortOrder}`).toEqual(expected.slice(2, 7));
      }
    }
  });
});

describe('fresh answers', () => {
  test('a write is seen by the next search (orders rebuilt per state version); a restart answers the same', async ({ h }) => {
    await createFlag(h, 'one');
    expect(await names(h, { sortBy: 'name' })).toEqual(['one']);
    await createFlag(h, 'a-two');
    expect(await names(h, { sortBy: 'name' })).toEqual(['a-two', 'one']);
    await tag(h, 'one', 'simple', 'kept');
    expect(await names(h, { tag: 'INCLUDE:simple:kept' })).toEqual(['one']);
    expect((await h.req('DELETE', flagPath('a-two'))).status).toBe(202);
    expect(await names(h, { sortBy: 'name' })).toEqual(['one']);
    const before = await search(h, { archived: 'IS:true' });
    const active = await search(h);
    await h.restart();
    expect(await search(h, { archived: 'IS:true' })).toEqual(before);
    expect(await search(h)).toEqual(active);
    expect(await names(h, { tag: 'INCLUDE:simple:kept' })).toEqual(['one']);
  });
});

describe('bad input and access', () => {
  const bad: [string, RegExp][] = [
    ['project=default', /"project": must be OPERATOR:value/],
    ['project=IS:', /"project": must be OPERATOR:value/],
    ['project=LIKE:default', /"project": must be OPERATOR:value/],
    ['project=IS:a&project=IS:b', /"project": must be a string, given once/],
    [`project=IS_ANY_OF:${Array.from({ length: 101 }, (_, i) => `p${i}`).join(',')}`, /"project": must list at most 100 values/],
    ['type=IS', /"type": must be OPERATOR:value/],
    ['state=IS:old', /"state": values must be among active, stale, potentially-stale/],
    ['tag=INCLUDE:simple', /"tag": values must be of the form "type:value"/],
    ['tag=IS:simple:x', /"tag": must be OPERATOR:value/],
    ['segment=IS:pro', /"segment": must be OPERATOR:value/],
    ['createdAt=IS_AFTER:2024-01-01', /"createdAt": must be IS_BEFORE:YYYY-MM-DD/],
    ['createdAt=IS_BEFORE:2024-02-30', /"createdAt": must name a real day/],
    ['createdAt=IS_BEFORE:2024-1-1', /"createdAt"/],
    ['status=production:on', /"status\.0": must be "environment:enabled"/],
    ['archived=true', /"archived": must be IS:true or IS:false/],
    ['favoritesFirst=yes', /"favoritesFirst": must be true or false/],
    ['createdBy=IS:ann', /"createdBy": values must be user ids/],
    ['lifecycle=IS:done', /"lifecycle": values must be among initial, pre-live, live, completed, archived/],
    ['lifecycle=live', /"lifecycle": must be OPERATOR:value/],
    ['sortBy=color', /"sortBy": must be one of createdAt/],
    ['sortOrder=up', /"sortOrder": must be asc or desc/],
    ['offset=-1', /"offset": must be a whole number/],
    ['offset=1.5', /"offset": must be a whole number/],
    ['offset=1000001', /"offset": must be at most 1000000/],
    ['limit=0', /"limit": must be at least 1/],
    ['limit=101', /"limit": must be at most 100/],
    ['limit=abc', /"limit": must be a whole number/],
    ['limit=99999999999999999999999', /"limit": must be at most 20 characters/],
    [`query=${'x'.repeat(1001)}`, /"query": must be at most 1000 characters/],
    [`query=${Array.from({ length: 101 }, () => 'a').join(',')}`, /"query": must hold at most 100/],
    ['query=a&query=b', /"query": must be a string, given once/],
    [`sortBy=environment:${'e'.repeat(200)}`, /"sortBy": must be at most/],
  ];
  test.for(bad)('%s: 400 ValidationError naming the parameter, nothing written', async ([query, message], { h }) => {
    await createFlag(h, 'kept');
    await expectNoChange(h, async () => expectError(await h.json('GET', `${SEARCH}?${query}`), 400, 'ValidationError', message), 'kept');
  });

  test('hostile values that are well-formed answer 200 and match nothing: quotes, NUL, unicode, an unknown environment sort', async ({ h }) => {
    await createFlag(h, 'kept', { description: 'ünïcödé text' });
    expect(await names(h, { query: "'; DROP TABLE features; --" })).toEqual([]);
    expect(await names(h, { query: 'a\u0000b' })).toEqual([]);
    expect(await names(h, { query: 'ÜNÏ' })).toEqual(['kept']);
    expect(await names(h, { project: 'IS:../../etc' })).toEqual([]);
    expect(await names(h, { tag: 'INCLUDE:__proto__:constructor' })).toEqual([]);
    expect(await names(h, { sortBy: 'environment:__proto__' })).toEqual(['kept']);
    expect(await names(h, { status: '__proto__:enabled' })).toEqual([]);
  });

  test('no token 401; client and frontend tokens 403; a Reader user and an admin token search every project', async ({ h }) => {
    await createProject(h, 'web');
    await createFlag(h, 'w', {}, 'web');
    expectError(await h.json('GET', SEARCH, undefined, { token: null }), 401, 'AuthenticationRequired');
    expectError(await h.json('GET', SEARCH, undefined, { token: 'nonsense' }), 401, 'AuthenticationRequired');
    expectError(await h.json('GET', SEARCH, undefined, { token: await clientToken(h, ['*'], 'development') }), 403, 'NoAccessError');
    expectError(await h.json('GET', SEARCH, undefined, { token: await clientToken(h, ['*'], 'development', 'frontend') }), 403, 'NoAccessError');
    const user = await createUser(h, { email: 'reader@example.com', rootRole: 3 });
    await grant(h, 'web', user, READER);
    const token = await personalToken(h, user);
    expect((await search(h, {}, token)).features.map((f) => f.name)).toEqual(['w']);
  });
});
