/**
 * Projects, environments, the overview (seed 4.1) with its health figure, and the unauthenticated
 * endpoints (`/health`, `/docs/openapi.json`), through HTTP.
 */
import { describe, expect, onTestFinished, vi } from 'vitest';
import { ROUTES } from '../../src/app.js';
import { expectError } from '../helpers/expect.js';
import { test } from '../helpers/fixtures.js';
import { createFlag, flagPath } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const P = '/api/admin/projects/default';
const DAY = 24 * 60 * 60 * 1000;

const health = async (h: Harness) => (await h.json('GET', P)).body.health as number;

describe('GET /health and GET /docs/openapi.json', () => {
  test('/health answers {"health": "GOOD"} without a token', async ({ h }) => {
    const r = await h.json('GET', '/health', undefined, { token: null });
    expect(r).toMatchObject({ status: 200, body: { health: 'GOOD' } });
  });

  test('the OpenAPI document is served without a token and lists every route with its method', async ({ h }) => {
    const r = await h.json('GET', '/docs/openapi.json', undefined, { token: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.body.openapi).toMatch(/^3\./);
    // Console pages are routes too, but not of the API: the document leaves them out.
    for (const route of ROUTES.filter((r) => !r.page)) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(r.body.paths[path]?.[route.method], `${route.method} ${path}`).toBeDefined();
    }
    const create = r.body.paths['/api/admin/projects/{projectId}/features'].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '409', '413', '415']));
    // Every project route can answer 404 for an unknown project.
    expect(r.body.paths['/api/admin/projects/{projectId}/revive'].post.responses['404']).toBeDefined();
    // Query parameters come from the routes' query schemas.
    const events = r.body.paths['/api/admin/events'].get.parameters as { name: string; in: string; required: boolean }[];
    expect(events.filter((p) => p.in === 'query').map((p) => [p.name, p.required])).toEqual([['project', true], ['feature', false], ['offset', false], ['limit', false]]);
  });
});

describe('GET /api/admin/environments', () => {
  test('lists the environments of a new data directory in sort order', async ({ h }) => {
    const r = await h.json('GET', '/api/admin/environments');
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(1);
    expect(r.body.environments.map((e: { name: string; sortOrder: number }) => [e.name, e.sortOrder])).toEqual([['development', 1], ['production', 2]]);
    expectError(await h.json('GET', '/api/admin/environments', undefined, { token: null }), 401, 'AuthenticationRequired');
  });

  test('INIT_ENVIRONMENTS chooses them', async ({ openHarness }) => {
    const other = await openHarness({ INIT_ENVIRONMENTS: 'dev,stage,prod' });
    const r = await other.json('GET', '/api/admin/environments');
    expect(r.body.environments.map((e: { name: string }) => e.name)).toEqual(['dev', 'stage', 'prod']);
    await other.json('POST', '/api/admin/projects/default/features', { name: 'f' });
    const detail = await other.json('GET', '/api/admin/projects/default/features/f');
    expect(detail.body.environments.map((e: { name: string }) => e.name)).toEqual(['dev', 'stage', 'prod']);
  });

  test('a new environment can be connected to a project; flags then show it, disabled and empty', async ({ h }) => {
    await createFlag(h, 'f');
    const env = await h.json('POST', '/api/admin/environments', { name: 'staging' });
    expect(env.status).toBe(201);
    expectError(await h.json('POST', '/api/admin/environments', { name: 'staging' }), 409, 'NameExistsError');
    expect((await h.json('GET', flagPath('f'))).body.environments).toHaveLength(2);
    expect((await h.req('POST', `${P}/environments`, { environment: 'staging' })).status).toBe(200);
    const detail = (await h.json('GET', flagPath('f'))).body;
    expect(detail.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production', 'staging']);
    expect(detail.environments[2]).toMatchObject({ name: 'staging', enabled: false, strategies: [] });
    expect((await h.json('POST', `${flagPath('f')}/environments/staging/strategies`, { name: 'default' })).status).toBe(200);
    expect((await h.req('POST', `${flagPath('f')}/environments/staging/on`)).status).toBe(200);
    expectError(await h.json('POST', `${P}/environments`, { environment: 'nowhere' }), 404, 'NotFoundError');
  });

  test('disconnecting hides the environment; the last one cannot go', async ({ h }) => {
    await createFlag(h, 'f');
    expect((await h.req('DELETE', `${P}/environments/production`)).status).toBe(200);
    expect((await h.json('GET', flagPath('f'))).body.environments.map((e: { name: string }) => e.name)).toEqual(['development']);
    expectError(await h.json('POST', `${flagPath('f')}/environments/production/strategies`, { name: 'default' }), 404, 'NotFoundError');
    expectError(await h.json('DELETE', `${P}/environments/production`), 404, 'NotFoundError');
    expectError(await h.json('DELETE', `${P}/environments/development`), 409, 'InvalidOperationError');
  });
});

describe('GET/POST /api/admin/projects', () => {
  test('a new data directory holds project default', async ({ h }) => {
    const r = await h.json('GET', '/api/admin/projects');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      version: 1,
      projects: [{
        id: 'default', name: 'Default', description: 'Default project', createdAt: expect.any(String), health: 100, featureCount: 0, memberCount: 1,
        mode: 'open', defaultStickiness: 'default',
      }],
    });
  });

  test('creating a project answers 201; it is connected to every environment and keeps its own flags', async ({ h }) => {
    const r = await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web', description: 'the site' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: 'web', name: 'Web', description: 'the site', createdAt: expect.any(String), updatedAt: null, environments: ['development', 'production'],
      mode: 'open', defaultStickiness: 'default',
    });
    await createFlag(h, 'same-name', { description: 'in web' }, 'web');
    await createFlag(h, 'same-name', { description: 'in default' });
    expect((await h.json('GET', flagPath('same-name', 'web'))).body).toMatchObject({ project: 'web', description: 'in web' });
    expect((await h.json('GET', flagPath('same-name'))).body).toMatchObject({ project: 'default', description: 'in default' });
    const list = (await h.json('GET', '/api/admin/projects')).body.projects;
    expect(list.map((p: { id: string; featureCount: number }) => [p.id, p.featureCount])).toEqual([['default', 1], ['web', 1]]);
    const overview = (await h.json('GET', '/api/admin/projects/web')).body;
    expect(overview).toMatchObject({ name: 'Web', description: 'the site', members: 1, version: 1 });
  });

  test.for<[string, unknown, number, string]>([
    ['a used id', { id: 'default', name: 'Again' }, 409, 'NameExistsError'],
    ['a missing name', { id: 'x' }, 400, 'ValidationError'],
    ['an id with a space', { id: 'a b', name: 'A' }, 400, 'ValidationError'],
    ['the id *', { id: '*', name: 'All' }, 400, 'ValidationError'],
    ['the id ..', { id: '..', name: 'Up' }, 400, 'ValidationError'],
    ['an id of 101 characters', { id: 'p'.repeat(101), name: 'Long' }, 400, 'ValidationError'],
    ['an unknown field', { id: 'x', name: 'X', featureLimit: 5 }, 400, 'ValidationError'],
  ])('%s: refused, nothing changes', async ([_label, body, status, name], { h }) => {
    expectError(await h.json('POST', '/api/admin/projects', body), status, name);
    expect((await h.json('GET', '/api/admin/projects')).body.projects.map((p: { id: string }) => p.id)).toEqual(['default']);
  });
});

describe('GET /api/admin/projects/:projectId (4.1 overview)', () => {
  test('a project name and description outside ASCII come back intact, and the list stays valid JSON after changes', async ({ h }) => {
    expect((await h.json('POST', '/api/admin/projects', { id: 'cafe', name: 'Café ☕ 日本', description: 'naïve — “quoted”' })).status).toBe(201);
    for (const name of ['a', 'b', 'c']) expect((await h.json('POST', '/api/admin/projects/cafe/features', { name })).status).toBe(201);
    const first = await h.json('GET', '/api/admin/projects/cafe');
    expect([first.body.name, first.body.description]).toEqual(['Café ☕ 日本', 'naïve — “quoted”']);
    expect(first.body.features.map((f: { name: string }) => f.name)).toEqual(['a', 'b', 'c']);
    expect((await h.json('DELETE', '/api/admin/projects/cafe/features/b')).status).toBe(202);
    const second = await h.json('GET', '/api/admin/projects/cafe');
    expect(second.body.features.map((f: { name: string }) => f.name)).toEqual(['a', 'c']);
    expect((await h.json('GET', '/api/admin/projects/cafe/features')).body.features.map((f: { name: string }) => f.name)).toEqual(['a', 'c']);
  });

  test('answers name, description, active features, health, members and version 1', async ({ h }) => {
    await createFlag(h, 'a', { type: 'kill-switch' });
    await createFlag(h, 'b');
    await h.req('DELETE', flagPath('b'));
    const r = await h.json('GET', P);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Default', description: 'Default project', health: 100, members: 1, version: 1 });
    expect(r.body.features).toEqual([{
      name: 'a', type: 'kill-switch', stale: false, createdAt: expect.any(String), lastSeenAt: null,
      environments: [
        { name: 'development', displayName: 'development', enabled: false },
        { name: 'production', displayName: 'production', enabled: false },
      ],
      tags: [],
    }]);
  });

  test('404 for an unknown project, 400 for a bad id', async ({ h }) => {
    expectError(await h.json('GET', '/api/admin/projects/nope'), 404, 'NotFoundError', /nope/);
    expectError(await h.json('GET', `/api/admin/projects/${'p'.repeat(101)}`), 400, 'ValidationError', /projectId/);
  });

  test('health counts stale flags (set by PUT and PATCH) over active flags; archived ones do not count', async ({ h }) => {
    for (const name of ['a', 'b', 'c', 'd']) await createFlag(h, name);
    expect(await health(h)).toBe(100);
    expect((await h.json('PUT', flagPath('a'), { name: 'a', stale: true })).status).toBe(200);
    expect(await health(h)).toBe(75);
    expect((await h.json('PATCH', flagPath('b'), [{ op: 'replace', path: '/stale', value: true }])).status).toBe(200);
    expect(await health(h)).toBe(50);
    await h.req('DELETE', flagPath('c'));
    expect(await health(h)).toBe(33);
    expect((await h.json('GET', '/api/admin/projects')).body.projects[0].health).toBe(33);
    await h.json('PUT', flagPath('d'), { name: 'd', stale: true });
    expect(await health(h)).toBe(0);
    await h.json('PUT', flagPath('a'), { name: 'a', stale: false });
    expect(await health(h)).toBe(33);
  });

  test('health counts flags older than their type lifetime as potentially stale (clock moved with fake Date)', async ({ h }) => {
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => { vi.useRealTimers(); });
    vi.setSystemTime(now - 50 * DAY);
    await createFlag(h, 'old-release');
    await createFlag(h, 'old-experiment', { type: 'experiment' });
    await createFlag(h, 'old-operational', { type: 'operational' });
    await createFlag(h, 'old-kill-switch', { type: 'kill-switch' });
    await createFlag(h, 'old-permission', { type: 'permission' });
    vi.setSystemTime(now - 8 * DAY);
    await createFlag(h, 'week-operational', { type: 'operational' });
    await createFlag(h, 'week-release');
    vi.setSystemTime(now);
    await createFlag(h, 'new-release');
    // A stale flag counts once, as stale, not also as potentially stale.
    await h.json('PUT', flagPath('old-experiment'), { name: 'old-experiment', type: 'experiment', stale: true });
    // 8 active flags: 1 stale, 3 potentially stale (old-release, old-operational, week-operational).
    expect(await health(h)).toBe(50);
    await h.req('DELETE', flagPath('new-release'));
    // 7 active: 100 - 100/7 - 300/7 = 42.86
    expect(await health(h)).toBe(43);
    vi.setSystemTime(now + 40 * DAY);
    // week-release is now 48 days old.
    expect(await health(h)).toBe(29);
  });
});
