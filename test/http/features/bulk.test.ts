/**
 * Issue 14 item 2 through HTTP, Unleash 6.10's routes: mark stale / not stale (in bulk; one flag through
 * PATCH), bulk archive, bulk on/off in an environment, the archived-flag list of a project, `namePrefix`
 * on the project flag list, and an empty JSON Patch. Success rows, error rows that change nothing,
 * restart and the dump.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, environmentOf, featuresPath, flagPath, strategiesPath } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';

const P = '/api/admin/projects/default';
const bulk = (environment: string, onOff: 'on' | 'off', project = 'default') => `/api/admin/projects/${project}/bulk_features/environments/${environment}/${onOff}`;

/** Flags `a`, `b`, `c` in project `default`, `a` and `b` with a strategy in development. */
const test = harnessTest({
  arrange: async (h) => {
    for (const name of ['a', 'b', 'c']) await createFlag(h, name);
    await addStrategy(h, 'a', 'development');
    await addStrategy(h, 'b', 'development');
  },
});

const detail = async (h: Harness, name: string) => (await h.json('GET', flagPath(name))).body;
const listed = async (h: Harness, query = '') => (await h.json('GET', `${featuresPath()}${query}`)).body.features.map((f: { name: string }) => f.name).sort();
const tokenOf = async (h: Harness, type: string) =>
  (await h.json('POST', '/api/admin/api-tokens', { tokenName: type, type, projects: ['*'], environment: 'development' })).body.secret as string;

/** Bodies every bulk route refuses with 400, each naming the property. */
const BAD_FEATURES: [unknown, RegExp][] = [
  [{}, /features/],
  [{ features: 'a' }, /features/],
  [{ features: [1] }, /features/],
  [{ features: [''] }, /features/],
  [{ features: ['x'.repeat(101)] }, /features/],
  [{ features: Array.from({ length: 1001 }, (_, i) => `f${i}`) }, /at most 1000/],
  [[], /./],
  [null, /./],
];

describe('POST /api/admin/projects/:projectId/stale', () => {
  test('marks the listed flags stale, then not stale: 202; unknown and repeated names are ignored', async ({ h }) => {
    const r = await h.req('POST', `${P}/stale`, { features: ['a', 'b', 'nope', 'a'], stale: true });
    expect(r.status).toBe(202);
    expect(await r.text()).toBe('');
    expect([(await detail(h, 'a')).stale, (await detail(h, 'b')).stale, (await detail(h, 'c')).stale]).toEqual([true, true, false]);
    expect((await h.req('POST', `${P}/stale`, { features: ['a'], stale: false })).status).toBe(202);
    expect([(await detail(h, 'a')).stale, (await detail(h, 'b')).stale]).toEqual([false, true]);
  });

  test('flags already so, an empty list, only unknown or archived names: 202 that writes nothing', async ({ h }) => {
    await createFlag(h, 'gone');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    await expectNoChange(h, async () => {
      for (const body of [{ features: ['a'], stale: false }, { features: [], stale: true }, { features: ['nope', 'gone'], stale: true }]) {
        expect((await h.req('POST', `${P}/stale`, body)).status).toBe(202);
      }
    });
    expect((await detail(h, 'gone')).stale).toBe(false);
  });

  test('one flag is marked through PATCH replace /stale (as Unleash 6.10)', async ({ h }) => {
    expect((await h.json('PATCH', flagPath('c'), [{ op: 'replace', path: '/stale', value: true }])).body.stale).toBe(true);
    expect((await detail(h, 'c')).stale).toBe(true);
  });

  test('bad bodies: 400 naming the property, nothing written; unknown project 404; client/frontend tokens 403', async ({ h }) => {
    const tokens = [await tokenOf(h, 'client'), await tokenOf(h, 'frontend')];
    await expectNoChange(h, async () => {
      for (const [body, message] of [...BAD_FEATURES, [{ features: ['a'] }, /stale/], [{ features: ['a'], stale: 'true' }, /stale/], [{ features: ['a'], stale: true, more: 1 }, /more/]] as [unknown, RegExp][]) {
        expectError(await h.json('POST', `${P}/stale`, body), 400, 'ValidationError', message);
      }
      expectError(await h.json('POST', '/api/admin/projects/nope/stale', { features: ['a'], stale: true }), 404, 'NotFoundError');
      for (const token of tokens) expectError(await h.json('POST', `${P}/stale`, { features: ['a'], stale: true }, { token }), 403, 'NoAccessError');
    }, 'a');
  });

  test('the stale marks survive a restart and are in the dump', async ({ h }) => {
    expect((await h.req('POST', `${P}/stale`, { features: ['b'], stale: true })).status).toBe(202);
    await h.restart();
    expect((await detail(h, 'b')).stale).toBe(true);
    const dump = (await h.json('GET', '/api/admin/state')).body;
    const flags = dump.projects.find((p: { id: string }) => p.id === 'default').flags;
    expect(flags.filter((f: { stale: boolean }) => f.stale).map((f: { name: string }) => f.name)).toEqual(['b']);
  });
});

describe('POST /api/admin/projects/:projectId/archive', () => {
  test('archives the listed flags: 202; they leave the list and show in the archived list', async ({ h }) => {
    const r = await h.req('POST', `${P}/archive`, { features: ['a', 'c', 'nope'] });
    expect(r.status).toBe(202);
    expect(await listed(h)).toEqual(['b']);
    expect((await detail(h, 'a')).archived).toBe(true);
    const archived = await h.json('GET', '/api/admin/archive/features/default');
    expect(archived.status).toBe(200);
    expect(archived.body.version).toBe(2);
    expect(archived.body.features.map((f: { name: string }) => f.name)).toEqual(['a', 'c']);
    expect(archived.body.features[0]).toEqual({
      name: 'a', description: '', type: 'release', project: 'default', stale: false, impressionData: false,
      createdAt: expect.any(String), archivedAt: expect.any(String), lastSeenAt: null,
    });
  });

  test('already archived, unknown, empty: 202 that writes nothing', async ({ h }) => {
    expect((await h.req('POST', `${P}/archive`, { features: ['c'] })).status).toBe(202);
    await expectNoChange(h, async () => {
      for (const features of [['c'], ['nope'], []]) expect((await h.req('POST', `${P}/archive`, { features })).status).toBe(202);
    });
  });

  test('a parent whose child is not listed: 409, nothing archived; parent and child together: both archived', async ({ h }) => {
    expect((await h.json('POST', `${flagPath('b')}/dependencies`, { feature: 'a' })).status).toBe(200);
    await expectNoChange(h, async () => expectError(await h.json('POST', `${P}/archive`, { features: ['c', 'a'] }), 409, 'InvalidOperationError', /"b"/));
    expect((await h.req('POST', `${P}/archive`, { features: ['a', 'b'] })).status).toBe(202);
    expect(await listed(h)).toEqual(['c']);
    expect((await detail(h, 'b')).dependencies).toEqual([]);
  });

  test('bad bodies 400, unknown project 404, nothing written', async ({ h }) => {
    await expectNoChange(h, async () => {
      for (const [body, message] of BAD_FEATURES) expectError(await h.json('POST', `${P}/archive`, body), 400, 'ValidationError', message);
      expectError(await h.json('POST', `${P}/archive`, { features: ['a'], extra: true }), 400, 'ValidationError', /extra/);
      expectError(await h.json('POST', '/api/admin/projects/nope/archive', { features: ['a'] }), 404, 'NotFoundError');
    });
  });

  test('archived stays archived after a restart; the archived list of an unknown project is 404', async ({ h }) => {
    expect((await h.req('POST', `${P}/archive`, { features: ['b'] })).status).toBe(202);
    await h.restart();
    expect((await h.json('GET', '/api/admin/archive/features/default')).body.features.map((f: { name: string }) => f.name)).toEqual(['b']);
    expectError(await h.json('GET', '/api/admin/archive/features/nope'), 404, 'NotFoundError');
    expectError(await h.json('GET', '/api/admin/archive/features/__proto__'), 400, 'ValidationError', /projectId/);
  });
});

describe('POST .../bulk_features/environments/:environment/on|off', () => {
  test('enables and disables every listed flag; a flag without a strategy gets the default one', async ({ h }) => {
    expect((await h.json('POST', `${P}/environments/development/default-strategy`, { name: 'flexibleRollout', parameters: { rollout: 40 } })).status).toBe(200);
    expect((await h.req('POST', bulk('development', 'on'), { features: ['a', 'b', 'c'] })).status).toBe(200);
    for (const name of ['a', 'b', 'c']) expect((await environmentOf(h, name, 'development')).enabled, name).toBe(true);
    expect((await environmentOf(h, 'c', 'development')).strategies.map((s) => s.name)).toEqual(['flexibleRollout']);
    expect((await environmentOf(h, 'a', 'production')).enabled).toBe(false);
    expect((await h.req('POST', bulk('development', 'off'), { features: ['a', 'c'] })).status).toBe(200);
    expect([(await environmentOf(h, 'a', 'development')).enabled, (await environmentOf(h, 'b', 'development')).enabled, (await environmentOf(h, 'c', 'development')).enabled]).toEqual([false, true, false]);
  });

  test('all or nothing: an unknown or archived flag refuses the whole list', async ({ h }) => {
    await createFlag(h, 'gone');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', bulk('development', 'on'), { features: ['a', 'nope'] }), 404, 'NotFoundError', /nope/);
      expectError(await h.json('POST', bulk('development', 'on'), { features: ['a', 'gone'] }), 400, 'ArchivedFeatureError', /gone/);
      expectError(await h.json('POST', bulk('development', 'off'), { features: ['nope'] }), 404, 'NotFoundError');
    });
    expect((await environmentOf(h, 'a', 'development')).enabled).toBe(false);
  });

  test('no default strategy set: a flag without an enabled strategy refuses the whole list with 409', async ({ h }) => {
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', bulk('development', 'on'), { features: ['a', 'b', 'c'] }), 409, 'InvalidOperationError', /Flag "c" has no enabled strategy/);
    });
    expect((await environmentOf(h, 'a', 'development')).enabled).toBe(false);
  });

  test('repeating is a 200 that writes nothing; empty list too', async ({ h }) => {
    await expectNoChange(h, async () => {
      expect((await h.req('POST', bulk('development', 'off'), { features: ['a', 'b'] })).status).toBe(200);
      expect((await h.req('POST', bulk('development', 'on'), { features: [] })).status).toBe(200);
    });
  });

  test('unknown environment or project 404, bad bodies 400, hostile names, nothing written', async ({ h }) => {
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', bulk('staging', 'on'), { features: ['a'] }), 404, 'NotFoundError');
      expectError(await h.json('POST', bulk('development', 'on', 'nope'), { features: ['a'] }), 404, 'NotFoundError');
      for (const [body, message] of BAD_FEATURES) expectError(await h.json('POST', bulk('development', 'on'), body), 400, 'ValidationError', message);
      for (const name of ['__proto__', 'constructor', 'toString']) expectError(await h.json('POST', bulk('development', 'on'), { features: [name] }), 404, 'NotFoundError');
      expectError(await h.json('POST', bulk('__proto__', 'off'), { features: ['a'] }), 400, 'ValidationError', /environment/);
    });
  });

  test('the client API serves the bulk change, and a stale mark', async ({ h }) => {
    const token = await tokenOf(h, 'client');
    expect((await h.req('POST', bulk('development', 'on'), { features: ['a', 'b'] })).status).toBe(200);
    expect((await h.req('POST', `${P}/stale`, { features: ['b'], stale: true })).status).toBe(202);
    const served = (await h.json('GET', '/api/client/features', undefined, { token })).body.features;
    const view = Object.fromEntries(served.map((f: { name: string; enabled: boolean; stale: boolean }) => [f.name, [f.enabled, f.stale]]));
    expect(view).toEqual({ a: [true, false], b: [true, true], c: [false, false] });
    expect((await h.req('POST', `${P}/archive`, { features: ['a'] })).status).toBe(202);
    expect((await h.json('GET', '/api/client/features', undefined, { token })).body.features.map((f: { name: string }) => f.name).sort()).toEqual(['b', 'c']);
  });

  test('client and frontend tokens: 403; the change survives a restart and is in the dump', async ({ h }) => {
    for (const type of ['client', 'frontend']) {
      expectError(await h.json('POST', bulk('development', 'on'), { features: ['a'] }, { token: await tokenOf(h, type) }), 403, 'NoAccessError');
    }
    expect((await environmentOf(h, 'a', 'development')).enabled).toBe(false);
    expect((await h.req('POST', bulk('development', 'on'), { features: ['a', 'b'] })).status).toBe(200);
    await h.restart();
    expect((await environmentOf(h, 'b', 'development')).enabled).toBe(true);
    expect((await h.req('GET', '/api/admin/state')).status).toBe(200);
  });
});

describe('GET /api/admin/projects/:projectId/features?namePrefix=', () => {
  test('lists the flags whose name starts with the prefix; combines with tag', async ({ h }) => {
    for (const name of ['checkout-new', 'checkout-old', 'search']) await createFlag(h, name);
    expect(await listed(h, '?namePrefix=checkout-')).toEqual(['checkout-new', 'checkout-old']);
    expect(await listed(h, '?namePrefix=zzz')).toEqual([]);
    expect(await listed(h, '?namePrefix=')).toEqual(['a', 'b', 'c', 'checkout-new', 'checkout-old', 'search']);
    expect((await h.json('POST', '/api/admin/features/checkout-old/tags', { type: 'simple', value: 'legacy' })).status).toBe(201);
    expect((await h.json('POST', '/api/admin/features/search/tags', { type: 'simple', value: 'legacy' })).status).toBe(201);
    expect(await listed(h, '?namePrefix=checkout-&tag=simple:legacy')).toEqual(['checkout-old']);
  });

  test('an over-long or repeated prefix is a 400', async ({ h }) => {
    expectError(await h.json('GET', `${featuresPath()}?namePrefix=${'x'.repeat(101)}`), 400, 'ValidationError', /namePrefix/);
    expectError(await h.json('GET', `${featuresPath()}?namePrefix=a&namePrefix=b`), 400, 'ValidationError', /namePrefix/);
  });
});

describe('an empty JSON Patch', () => {
  test('is a 200 that changes nothing on a flag, a strategy and the variants; the ETag stays', async ({ h }) => {
    const s = await addStrategy(h, 'c', 'development');
    const etag = (await h.json('GET', flagPath('c'))).headers.get('etag');
    await expectNoChange(h, async () => {
      const flag = await h.json('PATCH', flagPath('c'), []);
      expect(flag.status).toBe(200);
      expect(flag.body.name).toBe('c');
      expect(flag.headers.get('etag')).toBe(etag);
      const strategy = await h.json('PATCH', `${strategiesPath('c', 'development')}/${s.id}`, []);
      expect({ status: strategy.status, body: strategy.body }).toEqual({ status: 200, body: s });
      const variants = await h.json('PATCH', `${flagPath('c')}/variants`, []);
      expect({ status: variants.status, body: variants.body }).toEqual({ status: 200, body: { version: '1', variants: [] } });
    }, 'c');
  });

  test('still 404 for an unknown flag, 400 for an archived one, 412 for a stale If-Match', async ({ h }) => {
    expect((await h.req('DELETE', flagPath('c'))).status).toBe(202);
    await expectNoChange(h, async () => {
      expectError(await h.json('PATCH', flagPath('nope'), []), 404, 'NotFoundError');
      expectError(await h.json('PATCH', flagPath('c'), []), 400, 'ArchivedFeatureError');
      expectError(await h.json('PATCH', flagPath('a'), [], { headers: { 'If-Match': '"999"' } }), 412, 'PreconditionFailed');
    });
  });
});
