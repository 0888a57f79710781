/**
 * Issue 14 item 1 through HTTP: read one strategy, `set-sort-order` (Unleash 6.10 `setStrategySortOrder`),
 * copy strategies between environments, and strategy variants checked and weighted like flag variants (API-DECISIONS "Variants"). Success rows,
 * error rows that change nothing, restart and the dump.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange as noChange } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, environmentOf, strategiesPath } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';

/** Every test starts with flag `f`. */
const test = harnessTest({ arrange: (h) => createFlag(h, 'f') });

const expectNoChange = (h: Harness, act: () => Promise<unknown>) => noChange(h, act, 'f');
const sortPath = (flag = 'f', environment = 'development', project = 'default') => `${strategiesPath(flag, environment, project)}/set-sort-order`;
/** The first object anywhere in `value` whose `id` is `id`. */
function findById(value: unknown, id: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  if ((value as { id?: unknown }).id === id) return value;
  for (const child of Object.values(value)) {
    const found = findById(child, id);
    if (found) return found;
  }
  return undefined;
}
const ids = async (h: Harness, environment = 'development') => (await environmentOf(h, 'f', environment)).strategies.map((s) => s.id);

describe('GET .../features/:featureName/environments/:environment', () => {
  test('answers the flag in that environment: enabled and its strategies in order, with the ETag', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development', { name: 'default', sortOrder: 5 });
    const b = await addStrategy(h, 'f', 'development', { name: 'userWithId', parameters: { userIds: 'u' }, sortOrder: 1 });
    expect((await h.req('POST', `${strategiesPath('f', 'development').slice(0, -'/strategies'.length)}/on`)).status).toBe(200);
    const r = await h.json('GET', strategiesPath('f', 'development').slice(0, -'/strategies'.length));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: 'f', environment: 'development', enabled: true, strategies: [b, a] });
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect((await h.json('GET', strategiesPath('f', 'production').slice(0, -'/strategies'.length))).body).toEqual({ name: 'f', environment: 'production', enabled: false, strategies: [] });
  });

  test('404 for an unknown flag, environment or project; 400 for a hostile environment', async ({ h }) => {
    const env = (flag: string, environment: string, project = 'default') => strategiesPath(flag, environment, project).slice(0, -'/strategies'.length);
    expectError(await h.json('GET', env('nope', 'development')), 404, 'NotFoundError');
    expectError(await h.json('GET', env('f', 'staging')), 404, 'NotFoundError');
    expectError(await h.json('GET', env('f', 'development', 'nope')), 404, 'NotFoundError');
    expectError(await h.json('GET', env('f', '__proto__')), 400, 'ValidationError', /environment/);
  });
});

describe('GET .../strategies/:strategyId', () => {
  test('answers the stored strategy with the flag version as ETag', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development', { name: 'userWithId', parameters: { userIds: 'a,b' } });
    const r = await h.json('GET', `${strategiesPath('f', 'development')}/${s.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(s);
    expect(r.headers.get('etag')).toBe((await h.json('GET', '/api/admin/projects/default/features/f')).headers.get('etag'));
  });

  test('404 for an unknown strategy, one of another environment, an unknown flag, environment or project', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    expectError(await h.json('GET', `${strategiesPath('f', 'development')}/nope`), 404, 'NotFoundError', /nope/);
    expectError(await h.json('GET', `${strategiesPath('f', 'production')}/${s.id}`), 404, 'NotFoundError');
    expectError(await h.json('GET', `${strategiesPath('g', 'development')}/${s.id}`), 404, 'NotFoundError');
    expectError(await h.json('GET', `${strategiesPath('f', 'staging')}/${s.id}`), 404, 'NotFoundError');
    expectError(await h.json('GET', `${strategiesPath('f', 'development', 'nope')}/${s.id}`), 404, 'NotFoundError');
  });

  test('a hostile or over-long id is a 400 or a 404, never a 500', async ({ h }) => {
    for (const id of ['__proto__', 'constructor', '%00', 'x'.repeat(101), '..']) {
      const r = await h.json('GET', `${strategiesPath('f', 'development')}/${id}`);
      expect([400, 404], `${id}: ${r.status}`).toContain(r.status);
      expect(r.body.name).toMatch(/ValidationError|NotFoundError/);
    }
  });

  test('a client token is refused 403', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    const token = (await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['*'], environment: 'development' })).body.secret;
    expectError(await h.json('GET', `${strategiesPath('f', 'development')}/${s.id}`, undefined, { token }), 403, 'NoAccessError');
  });
});

describe('POST .../strategies/set-sort-order', () => {
  test('moves the listed strategies; the list and the flag detail follow the new order; the ETag moves', async ({ h }) => {
    const [a, b, c] = [await addStrategy(h, 'f', 'development'), await addStrategy(h, 'f', 'development'), await addStrategy(h, 'f', 'development')];
    const before = (await h.json('GET', '/api/admin/projects/default/features/f')).headers.get('etag');
    const r = await h.req('POST', sortPath(), [{ id: c!.id, sortOrder: 0 }, { id: a!.id, sortOrder: 1 }, { id: b!.id, sortOrder: 2 }]);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    expect(r.headers.get('etag')).not.toBe(before);
    expect(await ids(h)).toEqual([c!.id, a!.id, b!.id]);
    const list = (await h.json('GET', strategiesPath('f', 'development'))).body;
    expect(list.map((s: { id: string; sortOrder: number }) => [s.id, s.sortOrder])).toEqual([[c!.id, 0], [a!.id, 1], [b!.id, 2]]);
  });

  test('the client API serves the strategies in the new order', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development', { name: 'userWithId', parameters: { userIds: 'u1' } });
    const b = await addStrategy(h, 'f', 'development', { name: 'remoteAddress', parameters: { IPs: '10.0.0.1' } });
    const token = (await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['*'], environment: 'development' })).body.secret;
    const names = async () => (await h.json('GET', '/api/client/features/f', undefined, { token })).body.strategies.map((s: { name: string }) => s.name);
    expect(await names()).toEqual(['userWithId', 'remoteAddress']);
    expect((await h.req('POST', sortPath(), [{ id: b.id, sortOrder: 0 }, { id: a.id, sortOrder: 1 }])).status).toBe(200);
    expect(await names()).toEqual(['remoteAddress', 'userWithId']);
  });

  test('a partial list moves only those; other fields are untouched', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development', { name: 'flexibleRollout', parameters: { rollout: 30 }, title: 'a' });
    const b = await addStrategy(h, 'f', 'development');
    expect((await h.req('POST', sortPath(), [{ id: a.id, sortOrder: 5 }])).status).toBe(200);
    const strategies = (await environmentOf(h, 'f', 'development')).strategies;
    expect(strategies).toEqual([b, { ...a, sortOrder: 5 }]);
  });

  test('an empty list, or the current places, is a 200 that writes nothing', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    await expectNoChange(h, async () => expect((await h.req('POST', sortPath(), [])).status).toBe(200));
    await expectNoChange(h, async () => expect((await h.req('POST', sortPath(), [{ id: a.id, sortOrder: a.sortOrder }])).status).toBe(200));
  });

  test('If-Match: a stale version is 412 and changes nothing, the current one is accepted', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    await addStrategy(h, 'f', 'development');
    const etag = (await h.json('GET', '/api/admin/projects/default/features/f')).headers.get('etag')!;
    await expectNoChange(h, async () => expectError(await h.json('POST', sortPath(), [{ id: a.id, sortOrder: 9 }], { headers: { 'If-Match': '"1"' } }), 412, 'PreconditionFailed'));
    expect((await h.req('POST', sortPath(), [{ id: a.id, sortOrder: 9 }], { headers: { 'If-Match': etag } })).status).toBe(200);
  });

  test('an unknown id, or one of another environment, is a 404 that moves none of the others', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    const p = await addStrategy(h, 'f', 'production');
    await expectNoChange(h, async () => expectError(await h.json('POST', sortPath(), [{ id: a.id, sortOrder: 3 }, { id: 'nope', sortOrder: 0 }]), 404, 'NotFoundError', /nope/));
    await expectNoChange(h, async () => expectError(await h.json('POST', sortPath(), [{ id: p.id, sortOrder: 3 }]), 404, 'NotFoundError'));
  });

  test('unknown flag, environment or project: 404; archived flag: 400; nothing written', async ({ h }) => {
    await createFlag(h, 'gone');
    await h.req('DELETE', '/api/admin/projects/default/features/gone');
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', sortPath('nope'), []), 404, 'NotFoundError');
      expectError(await h.json('POST', sortPath('f', 'staging'), []), 404, 'NotFoundError');
      expectError(await h.json('POST', sortPath('f', 'development', 'nope'), []), 404, 'NotFoundError');
      expectError(await h.json('POST', sortPath('gone'), []), 400, 'ArchivedFeatureError');
    });
  });

  test('bad bodies are 400 naming the property and change nothing', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    const bodies: [unknown, RegExp][] = [
      [{ id: a.id, sortOrder: 1 }, /array/],
      [[{ id: a.id }], /sortOrder/],
      [[{ sortOrder: 1 }], /id/],
      [[{ id: a.id, sortOrder: '1' }], /sortOrder/],
      [[{ id: a.id, sortOrder: 1.5 }], /integer/],
      [[{ id: a.id, sortOrder: 1, extra: true }], /extra/],
      [[{ id: '', sortOrder: 1 }], /id/],
      [[{ id: 'x'.repeat(101), sortOrder: 1 }], /id/],
      [[{ id: a.id, sortOrder: 1 }, { id: a.id, sortOrder: 2 }], /unique/],
      [[null], /./],
      [Array.from({ length: 1001 }, (_, i) => ({ id: `s${i}`, sortOrder: i })), /at most 1000/],
    ];
    await expectNoChange(h, async () => {
      for (const [body, message] of bodies) expectError(await h.json('POST', sortPath(), body), 400, 'ValidationError', message);
      expectError(await h.json('POST', sortPath(), '[{"id":'), 400, 'ValidationError');
      expect((await h.req('POST', sortPath(), '[]', { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    });
  });

  test('client and frontend tokens are refused 403 and change nothing', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    for (const type of ['client', 'frontend']) {
      const token = (await h.json('POST', '/api/admin/api-tokens', { tokenName: type, type, projects: ['*'], environment: 'development' })).body.secret;
      await expectNoChange(h, async () => expectError(await h.json('POST', sortPath(), [{ id: a.id, sortOrder: 4 }], { token }), 403, 'NoAccessError'));
    }
  });

  test('the history shows the move with both sides', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    expect((await h.req('POST', sortPath(), [{ id: a.id, sortOrder: 9 }])).status).toBe(200);
    const [latest] = (await h.json('GET', '/api/admin/events?project=default&feature=f')).body.events;
    expect(latest).toMatchObject({ type: 'strategies.sorted', feature: 'f', environment: 'development', before: [{ id: a.id, sortOrder: 0 }], after: [{ id: a.id, sortOrder: 9 }] });
  });

  test('the new order survives a restart and is in the dump', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    const b = await addStrategy(h, 'f', 'development');
    expect((await h.req('POST', sortPath(), [{ id: a.id, sortOrder: 7 }, { id: b.id, sortOrder: 3 }])).status).toBe(200);
    await h.restart();
    expect((await environmentOf(h, 'f', 'development')).strategies.map((s) => [s.id, s.sortOrder])).toEqual([[b.id, 3], [a.id, 7]]);
    const dump = await (await h.req('GET', '/api/admin/state')).text();
    expect(findById(JSON.parse(dump), a.id)).toMatchObject({ id: a.id, sortOrder: 7 });
    expect(findById(JSON.parse(dump), b.id)).toMatchObject({ id: b.id, sortOrder: 3 });
  });
});

describe('strategy variants, checked and weighted like flag variants', () => {
  const variant = (name: string, weightType: string, weight = 0) => ({ name, weightType, weight, stickiness: 'default' });

  test('stored weights total 1000: fix kept, the rest split over variable ones, remainder to the first', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development', { name: 'default', variants: [variant('a', 'variable', 1), variant('b', 'fix', 100), variant('c', 'variable', 999), variant('d', 'variable')] });
    expect(s.variants.map((x) => [x.name, x.weight])).toEqual([['a', 300], ['b', 100], ['c', 300], ['d', 300]]);
    const three = await addStrategy(h, 'f', 'development', { name: 'default', variants: [variant('a', 'variable'), variant('b', 'variable'), variant('c', 'variable')] });
    expect(three.variants.map((x) => x.weight)).toEqual([334, 333, 333]);
  });

  test('PUT and PATCH store distributed weights too', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    const put = await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { name: 'default', variants: [variant('a', 'variable'), variant('b', 'variable')] });
    expect(put.status).toBe(200);
    expect(put.body.variants.map((x: { weight: number }) => x.weight)).toEqual([500, 500]);
    const patched = await h.json('PATCH', `${strategiesPath('f', 'development')}/${s.id}`, [{ op: 'add', path: '/variants/-', value: variant('c', 'fix', 400) }]);
    expect(patched.status).toBe(200);
    expect(patched.body.variants.map((x: { weight: number }) => x.weight)).toEqual([300, 300, 400]);
    expect((await environmentOf(h, 'f', 'development')).strategies[0]!.variants).toEqual(patched.body.variants);
  });

  test('no variable variant, fix total of 1000 or more: 400 naming the rule, on add, put and patch; nothing written', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development', { name: 'default', variants: [variant('a', 'variable')] });
    const bad: [unknown[], RegExp][] = [
      [[variant('a', 'fix', 500)], /at least one variant with weightType "variable"/],
      [[variant('a', 'fix', 600), variant('b', 'fix', 400), variant('c', 'variable')], /must total less than 1000, got 1000/],
      [[variant('a', 'fix', 1000), variant('b', 'variable')], /must total less than 1000/],
      [[variant('a', 'variable'), variant('a', 'variable')], /unique/],
      [[variant('a', 'variable', 1001)], /at most 1000/],
      [[variant('a', 'weird')], /weightType/],
    ];
    await expectNoChange(h, async () => {
      for (const [variants, message] of bad) {
        expectError(await h.json('POST', strategiesPath('f', 'development'), { name: 'default', variants }), 400, 'ValidationError', message);
        expectError(await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { name: 'default', variants }), 400, 'ValidationError', message);
        expectError(await h.json('PATCH', `${strategiesPath('f', 'development')}/${s.id}`, [{ op: 'replace', path: '/variants', value: variants }]), 400, 'ValidationError', message);
      }
    });
  });

  test('weighted variants survive a restart', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development', { name: 'default', variants: [variant('a', 'fix', 250), variant('b', 'variable')] });
    await h.restart();
    expect((await environmentOf(h, 'f', 'development')).strategies).toEqual([s]);
    expect(s.variants.map((x) => x.weight)).toEqual([250, 750]);
  });
});

describe('POST .../environments/:environment/strategies/copy', () => {
  const copyPath = (to = 'production', flag = 'f', project = 'default') => `${strategiesPath(flag, to, project)}/copy`;

  test('copies every strategy of the source, in order, with new ids, after those already there; the target is not enabled', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development', { name: 'flexibleRollout', parameters: { rollout: 25 }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }], sortOrder: 4 });
    const b = await addStrategy(h, 'f', 'development', { name: 'userWithId', parameters: { userIds: 'x' }, title: 'users', sortOrder: 1 });
    const there = await addStrategy(h, 'f', 'production', { name: 'default', sortOrder: 6, disabled: true });
    const r = await h.json('POST', copyPath(), { fromEnvironment: 'development' });
    expect(r.status).toBe(200);
    const { id: _b, ...bRest } = b;
    const { id: _a, ...aRest } = a;
    expect(r.body).toEqual([{ ...bRest, id: expect.any(String), sortOrder: 7 }, { ...aRest, id: expect.any(String), sortOrder: 8 }]);
    expect(new Set([r.body[0].id, r.body[1].id, a.id, b.id]).size).toBe(4);
    const production = await environmentOf(h, 'f', 'production');
    expect(production.strategies).toEqual([there, ...r.body]);
    expect(production.enabled).toBe(false);
    expect((await environmentOf(h, 'f', 'development')).strategies).toEqual([b, a]);
    expect(r.headers.get('etag')).toBe((await h.json('GET', '/api/admin/projects/default/features/f')).headers.get('etag'));
  });

  test('strategyIds copies only those; an empty source or list copies nothing and writes nothing', async ({ h }) => {
    await addStrategy(h, 'f', 'development');
    const b = await addStrategy(h, 'f', 'development', { name: 'remoteAddress', parameters: { IPs: '10.0.0.1' } });
    const r = await h.json('POST', copyPath(), { fromEnvironment: 'development', strategyIds: [b.id] });
    expect(r.status).toBe(200);
    expect(r.body.map((s: { name: string }) => s.name)).toEqual(['remoteAddress']);
    await createFlag(h, 'bare');
    await expectNoChange(h, async () => {
      const none = await h.json('POST', copyPath(), { fromEnvironment: 'development', strategyIds: [] });
      expect({ status: none.status, body: none.body }).toEqual({ status: 200, body: [] });
      const empty = await h.json('POST', copyPath('production', 'bare'), { fromEnvironment: 'development' });
      expect({ status: empty.status, body: empty.body }).toEqual({ status: 200, body: [] });
    });
  });

  test('errors change nothing: same environment 400, unknown source, target, flag or strategy id 404, bad bodies 400, archived 400, stale If-Match 412', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    await createFlag(h, 'gone');
    await h.req('DELETE', '/api/admin/projects/default/features/gone');
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', copyPath('development'), { fromEnvironment: 'development' }), 400, 'ValidationError', /fromEnvironment/);
      expectError(await h.json('POST', copyPath(), { fromEnvironment: 'staging' }), 404, 'NotFoundError', /staging/);
      expectError(await h.json('POST', copyPath('staging'), { fromEnvironment: 'development' }), 404, 'NotFoundError');
      expectError(await h.json('POST', copyPath('production', 'nope'), { fromEnvironment: 'development' }), 404, 'NotFoundError');
      expectError(await h.json('POST', copyPath('production', 'f', 'nope'), { fromEnvironment: 'development' }), 404, 'NotFoundError');
      expectError(await h.json('POST', copyPath(), { fromEnvironment: 'development', strategyIds: [a.id, 'nope'] }), 404, 'NotFoundError', /nope/);
      expectError(await h.json('POST', copyPath('production', 'gone'), { fromEnvironment: 'development' }), 400, 'ArchivedFeatureError');
      expectError(await h.json('POST', copyPath(), { fromEnvironment: 'development' }, { headers: { 'If-Match': '"1"' } }), 412, 'PreconditionFailed');
      const bodies: [unknown, RegExp][] = [
        [{}, /fromEnvironment/], [{ fromEnvironment: 5 }, /fromEnvironment/], [{ fromEnvironment: '__proto__' }, /fromEnvironment/],
        [{ fromEnvironment: '*' }, /fromEnvironment/], [{ fromEnvironment: 'x'.repeat(101) }, /fromEnvironment/],
        [{ fromEnvironment: 'development', strategyIds: 'a' }, /strategyIds/], [{ fromEnvironment: 'development', strategyIds: [''] }, /strategyIds/],
        [{ fromEnvironment: 'development', strategyIds: Array.from({ length: 1001 }, (_, i) => `s${i}`) }, /at most 1000/],
        [{ fromEnvironment: 'development', extra: 1 }, /extra/], [[], /./],
      ];
      for (const [body, message] of bodies) expectError(await h.json('POST', copyPath(), body), 400, 'ValidationError', message);
    });
  });

  test('the strategies limit refuses the whole copy', async ({ openHarness }) => {
    const h = await openHarness({ LIMIT_STRATEGIES_PER_ENVIRONMENT: '2' });
    await createFlag(h, 'f');
    await addStrategy(h, 'f', 'development');
    await addStrategy(h, 'f', 'development');
    await addStrategy(h, 'f', 'production');
    await expectNoChange(h, async () => {
      const r = await h.json('POST', copyPath(), { fromEnvironment: 'development' });
      expect({ status: r.status, name: r.body.name }).toEqual({ status: 400, name: 'ExceedsLimitError' });
    });
  });

  test('a client token is refused 403; the copies survive a restart and are in the dump', async ({ h }) => {
    await addStrategy(h, 'f', 'development', { name: 'default', variants: [{ name: 'v', weightType: 'variable', weight: 0 }] });
    const token = (await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['*'], environment: 'production' })).body.secret;
    await expectNoChange(h, async () => expectError(await h.json('POST', copyPath(), { fromEnvironment: 'development' }, { token }), 403, 'NoAccessError'));
    const copies = (await h.json('POST', copyPath(), { fromEnvironment: 'development' })).body;
    await h.restart();
    expect((await environmentOf(h, 'f', 'production')).strategies).toEqual(copies);
    expect(findById(JSON.parse(await (await h.req('GET', '/api/admin/state')).text()), copies[0].id)).toMatchObject({ name: 'default', variants: [{ name: 'v', weight: 1000 }] });
  });
});
