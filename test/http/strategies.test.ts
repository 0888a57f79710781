/**
 * Seed 4.9 to 4.12 through HTTP: add, list, replace, patch and delete strategies, their defaults and
 * validation, and the invariant "enabled implies an enabled strategy" (API-DECISIONS "Strategies").
 */
import { describe, expect } from 'vitest';
import { UUID, expectError, expectNoChange as noChange } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { addStrategy, createFlag, environmentOf, flagPath, strategiesPath, switchOn } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const P = '/api/admin/projects/default';

/** Every test starts with flag `f`. */
const test = harnessTest({ arrange: (h) => createFlag(h, 'f') });

const expectNoChange = (h: Harness, act: () => Promise<unknown>, flag = 'f') => noChange(h, act, flag);

describe('POST .../strategies (4.9 add)', () => {
  test('answers 200 with the stored strategy and its defaults; sortOrder counts up', async ({ h }) => {
    const r = await h.json('POST', strategiesPath('f', 'development'), { name: 'default' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.stringMatching(UUID), name: 'default', title: null, disabled: false, sortOrder: 0,
      constraints: [], parameters: {}, variants: [], segments: [],
    });
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect((await addStrategy(h, 'f', 'development')).sortOrder).toBe(1);
    expect((await addStrategy(h, 'f', 'development', { name: 'default', sortOrder: 10 })).sortOrder).toBe(10);
    expect((await addStrategy(h, 'f', 'development')).sortOrder).toBe(11);
    expect((await addStrategy(h, 'f', 'production', { name: 'default' })).sortOrder).toBe(0);
  });

  test('keeps every given field; numbers in parameters become strings', async ({ h }) => {
    for (const name of ['seg-1', 'seg-2']) expect((await h.json('POST', '/api/admin/segments', { name, constraints: [] })).status).toBe(201);
    const body = {
      name: 'flexibleRollout', title: 'half', disabled: true, sortOrder: 3,
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['1', '2'], inverted: true },
        { contextName: 'age', operator: 'NUM_GT', value: 18 },
        { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-05-01T12:00:00Z' },
        { contextName: 'version', operator: 'SEMVER_GT', value: '1.2.3-beta.1' },
      ],
      parameters: { rollout: 50, stickiness: 'userId', groupId: 'g' },
      variants: [{ name: 'v', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"a":1}' } }],
      segments: [1, 2],
    };
    const s = await addStrategy(h, 'f', 'development', body);
    expect(s).toEqual({
      ...body, id: expect.stringMatching(UUID),
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['1', '2'], inverted: true, caseInsensitive: false },
        { contextName: 'age', operator: 'NUM_GT', value: '18', inverted: false, caseInsensitive: false },
        { contextName: 'currentTime', operator: 'DATE_AFTER', value: '2024-05-01T12:00:00Z', inverted: false, caseInsensitive: false },
        { contextName: 'version', operator: 'SEMVER_GT', value: '1.2.3-beta.1', inverted: false, caseInsensitive: false },
      ],
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'g' },
    });
    expect((await environmentOf(h, 'f', 'development')).strategies).toEqual([s]);
  });

  test('flexibleRollout gets rollout "100", stickiness "default" and the flag name as groupId', async ({ h }) => {
    expect((await addStrategy(h, 'f', 'development', { name: 'flexibleRollout' })).parameters).toEqual({ rollout: '100', stickiness: 'default', groupId: 'f' });
    expect((await addStrategy(h, 'f', 'development', { name: 'flexibleRollout', parameters: null })).parameters).toEqual({ rollout: '100', stickiness: 'default', groupId: 'f' });
  });

  test('adding never enables the environment', async ({ h }) => {
    await addStrategy(h, 'f', 'development');
    await addStrategy(h, 'f', 'development', { name: 'flexibleRollout' });
    expect((await environmentOf(h, 'f', 'development')).enabled).toBe(false);
  });

  test.for<[string, unknown, RegExp]>([
    ['an unknown strategy name', { name: 'gradualRolloutRandom' }, /"name": could not find strategy type with name "gradualRolloutRandom"/],
    ['a missing name', { parameters: {} }, /"name": is required/],
    ['parameters as an array', { name: 'default', parameters: ['a'] }, /"parameters"/],
    ['a nested parameter value', { name: 'default', parameters: { a: { b: 1 } } }, /"parameters.a"/],
    ['a rollout above 100', { name: 'flexibleRollout', parameters: { rollout: 101 } }, /"parameters.rollout"/],
    ['a rollout that is not a number', { name: 'flexibleRollout', parameters: { rollout: 'half' } }, /"parameters.rollout"/],
    ['IN without values', { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN' }] }, /"constraints.0.values"/],
    ['IN with only empty values', { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: [''] }] }, /"constraints.0.values"/],
    ['STR_CONTAINS without values', { name: 'default', constraints: [{ contextName: 'x', operator: 'STR_CONTAINS', values: [] }] }, /"constraints.0/],
    ['NUM_GT with text', { name: 'default', constraints: [{ contextName: 'n', operator: 'NUM_GT', value: 'ten' }] }, /"constraints.0.value"/],
    ['DATE_AFTER with a bad date', { name: 'default', constraints: [{ contextName: 'd', operator: 'DATE_AFTER', value: '2024-13-01' }] }, /"constraints.0.value"/],
    ['SEMVER_EQ with a loose version', { name: 'default', constraints: [{ contextName: 'v', operator: 'SEMVER_EQ', value: 'v1.2' }] }, /"constraints.0.value"/],
    ['a value over 100 characters', { name: 'default', constraints: [{ contextName: 'u', operator: 'IN', values: ['x'.repeat(101)] }] }, /"constraints.0.values.0"/],
    ['an unknown operator', { name: 'default', constraints: [{ contextName: 'u', operator: 'LIKE', values: ['a'] }] }, /"constraints.0.operator"/],
    ['an unknown field', { name: 'default', weight: 5 }, /"weight": is not a known property/],
    ['disabled as a string', { name: 'default', disabled: 'no' }, /"disabled"/],
    ['a fractional sortOrder', { name: 'default', sortOrder: 1.5 }, /"sortOrder"/],
    ['duplicate strategy variant names', { name: 'default', variants: [{ name: 'a', weight: 1, weightType: 'variable', stickiness: 'd' }, { name: 'a', weight: 1, weightType: 'variable', stickiness: 'd' }] }, /unique/],
    ['a strategy variant weight over 1000', { name: 'default', variants: [{ name: 'a', weight: 1001, weightType: 'variable', stickiness: 'd' }] }, /"variants.0.weight"/],
    ['segments of strings', { name: 'default', segments: ['1'] }, /"segments.0"/],
  ])('400 ValidationError for %s; nothing changes', async ([_label, body, message], { h }) => {
    await expectNoChange(h, async () => expectError(await h.json('POST', strategiesPath('f', 'development'), body), 400, 'ValidationError', message));
  });

  test('404 for an unknown flag, project or environment, or one the project does not use', async ({ h }) => {
    expect((await h.json('POST', '/api/admin/environments', { name: 'staging' })).status).toBe(201);
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', strategiesPath('nope', 'development'), { name: 'default' }), 404, 'NotFoundError', /nope/);
      expectError(await h.json('POST', `/api/admin/projects/nope/features/f/environments/development/strategies`, { name: 'default' }), 404, 'NotFoundError');
      expectError(await h.json('POST', strategiesPath('f', 'qa'), { name: 'default' }), 404, 'NotFoundError', /qa/);
      expectError(await h.json('POST', strategiesPath('f', 'staging'), { name: 'default' }), 404, 'NotFoundError', /staging/);
    });
  });

  test('412 with a stale If-Match', async ({ h }) => {
    const tag = (await h.json('GET', flagPath('f'))).headers.get('etag')!;
    const first = await h.json('POST', strategiesPath('f', 'development'), { name: 'default' }, { headers: { 'if-match': tag } });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).not.toBe(tag);
    await expectNoChange(h, async () => expectError(await h.json('POST', strategiesPath('f', 'development'), { name: 'default' }, { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'));
  });
});

describe('GET .../strategies', () => {
  test('lists the strategies of one environment in sortOrder', async ({ h }) => {
    const late = await addStrategy(h, 'f', 'development', { name: 'default', sortOrder: 9 });
    const early = await addStrategy(h, 'f', 'development', { name: 'default', sortOrder: 2 });
    await addStrategy(h, 'f', 'production', { name: 'default' });
    const r = await h.json('GET', strategiesPath('f', 'development'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual([early, late]);
    expectError(await h.json('GET', strategiesPath('f', 'qa')), 404, 'NotFoundError');
    expectError(await h.json('GET', strategiesPath('nope', 'development')), 404, 'NotFoundError');
  });
});

describe('PUT .../strategies/:strategyId (4.10)', () => {
  test('replaces the strategy, keeping its id and sortOrder', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development', { name: 'flexibleRollout', title: 'old', sortOrder: 4, parameters: { rollout: 10 } });
    const r = await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { id: 'ignored', name: 'userWithId', parameters: { userIds: '1,2' }, sortOrder: 99 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: s.id, name: 'userWithId', title: null, disabled: false, sortOrder: 4, constraints: [], parameters: { userIds: '1,2' }, variants: [], segments: [] });
    expect((await environmentOf(h, 'f', 'development')).strategies).toEqual([r.body]);
  });

  test('disabling the last enabled strategy disables the environment; enabling it again does not enable it', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    await switchOn(h, 'f', 'development');
    expect((await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { name: 'default', disabled: true })).status).toBe(200);
    expect((await environmentOf(h, 'f', 'development')).enabled).toBe(false);
    await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { name: 'default', disabled: false });
    expect((await environmentOf(h, 'f', 'development')).enabled).toBe(false);
  });

  test('disabling one of two enabled strategies keeps the environment enabled', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    await addStrategy(h, 'f', 'development');
    await switchOn(h, 'f', 'development');
    await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { name: 'default', disabled: true });
    expect((await environmentOf(h, 'f', 'development')).enabled).toBe(true);
  });

  test('404 for an unknown id, or the id of another environment or flag; 400 for a bad body; nothing changes', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    expect((await h.json('POST', `${P}/features`, { name: 'g' })).status).toBe(201);
    const other = await addStrategy(h, 'f', 'production', { name: 'default' });
    const ofG = await addStrategy(h, 'g', 'development', { name: 'default' });
    await expectNoChange(h, async () => {
      expectError(await h.json('PUT', `${strategiesPath('f', 'development')}/00000000-0000-4000-8000-000000000000`, { name: 'default' }), 404, 'NotFoundError');
      expectError(await h.json('PUT', `${strategiesPath('f', 'development')}/${other.id}`, { name: 'default' }), 404, 'NotFoundError');
      expectError(await h.json('PUT', `${strategiesPath('f', 'development')}/${ofG.id}`, { name: 'default' }), 404, 'NotFoundError');
      expectError(await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { name: 'nope' }), 400, 'ValidationError', /"name"/);
      expectError(await h.json('PUT', `${strategiesPath('f', 'development')}/${'x'.repeat(101)}`, { name: 'default' }), 400, 'ValidationError', /strategyId/);
    });
  });

  test('412 with a stale If-Match', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    const tag = (await h.json('GET', flagPath('f'))).headers.get('etag')!;
    await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { name: 'default', title: 'a' });
    await expectNoChange(h, async () => expectError(await h.json('PUT', `${strategiesPath('f', 'development')}/${s.id}`, { name: 'default', title: 'b' }, { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'));
  });
});

describe('PATCH .../strategies/:strategyId (4.11)', () => {
  test('applies operations; a number at /parameters/rollout is stored as a string', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development', { name: 'flexibleRollout', parameters: { rollout: '10' } });
    const r = await h.json('PATCH', `${strategiesPath('f', 'development')}/${s.id}`, [
      { op: 'replace', path: '/parameters/rollout', value: 75 },
      { op: 'add', path: '/constraints/-', value: { contextName: 'userId', operator: 'IN', values: ['1'] } },
      { op: 'replace', path: '/title', value: 'three quarters' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: s.id, title: 'three quarters', parameters: { rollout: '75', groupId: 'f', stickiness: 'default' } });
    expect(r.body.constraints).toEqual([{ contextName: 'userId', operator: 'IN', values: ['1'], caseInsensitive: false, inverted: false }]);
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect((await environmentOf(h, 'f', 'development')).strategies).toEqual([r.body]);
  });

  test('disabling the last enabled strategy by patch disables the environment', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    await switchOn(h, 'f', 'development');
    await h.json('PATCH', `${strategiesPath('f', 'development')}/${s.id}`, [{ op: 'replace', path: '/disabled', value: true }]);
    expect((await environmentOf(h, 'f', 'development')).enabled).toBe(false);
    expectError(await h.json('POST', `${flagPath('f')}/environments/development/on`), 409, 'InvalidOperationError');
  });

  test.for<[string, unknown, number, string, RegExp]>([
    ['a changed id', [{ op: 'replace', path: '/id', value: 'other' }], 400, 'ValidationError', /"id"/],
    ['an invalid result', [{ op: 'replace', path: '/name', value: 'magic' }], 400, 'ValidationError', /"name"/],
    ['a rollout of 200', [{ op: 'replace', path: '/parameters/rollout', value: 200 }], 400, 'ValidationError', /"parameters.rollout"/],
    ['removing the id', [{ op: 'remove', path: '/id' }], 400, 'ValidationError', /"id"/],
    ['an unknown field', [{ op: 'add', path: '/weight', value: 1 }], 400, 'ValidationError', /"weight"/],
    ['__proto__', [{ op: 'add', path: '/parameters/__proto__', value: { polluted: '1' } }], 400, 'ValidationError', /__proto__/],
    ['constructor/prototype', [{ op: 'add', path: '/constructor/prototype/polluted', value: 1 }], 400, 'ValidationError', /"0.path"/],
    ['a hostile from', [{ op: 'move', from: '/constructor', path: '/title' }], 400, 'ValidationError', /"0.from"/],
    ['a missing target', [{ op: 'replace', path: '/parameters/nothing/deeper', value: 1 }], 400, 'ValidationError', /JSON Patch/],
    ['a failed test', [{ op: 'replace', path: '/title', value: 'x' }, { op: 'test', path: '/title', value: 'y' }], 409, 'PatchTestFailed', /test/],
  ])('%s: refused, nothing changes', async ([_label, body, status, name, message], { h }) => {
    const s = await addStrategy(h, 'f', 'development', { name: 'flexibleRollout' });
    await expectNoChange(h, async () => expectError(await h.json('PATCH', `${strategiesPath('f', 'development')}/${s.id}`, body), status, name, message));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('404 for an unknown strategy or environment; 412 for a stale If-Match', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    const tag = (await h.json('GET', flagPath('f'))).headers.get('etag')!;
    const patch = [{ op: 'replace', path: '/title', value: 't' }];
    await expectNoChange(h, async () => {
      expectError(await h.json('PATCH', `${strategiesPath('f', 'development')}/unknown`, patch), 404, 'NotFoundError');
      expectError(await h.json('PATCH', `${strategiesPath('f', 'production')}/${s.id}`, patch), 404, 'NotFoundError');
      expectError(await h.json('PATCH', `${strategiesPath('f', 'qa')}/${s.id}`, patch), 404, 'NotFoundError');
    });
    await h.json('PATCH', `${strategiesPath('f', 'development')}/${s.id}`, patch);
    await expectNoChange(h, async () => expectError(await h.json('PATCH', `${strategiesPath('f', 'development')}/${s.id}`, patch, { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'));
  });
});

describe('DELETE .../strategies/:strategyId (4.12)', () => {
  test('answers 200 with no body and removes only that strategy', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    const b = await addStrategy(h, 'f', 'development');
    const r = await h.req('DELETE', `${strategiesPath('f', 'development')}/${a.id}`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    expect((await environmentOf(h, 'f', 'development')).strategies.map((s) => s.id)).toEqual([b.id]);
  });

  test('deleting the last enabled strategy disables the environment, also when disabled ones remain', async ({ h }) => {
    const enabled = await addStrategy(h, 'f', 'development');
    const disabled = await addStrategy(h, 'f', 'development', { name: 'default', disabled: true });
    await switchOn(h, 'f', 'development');
    await h.req('DELETE', `${strategiesPath('f', 'development')}/${enabled.id}`);
    const env = await environmentOf(h, 'f', 'development');
    expect(env.enabled).toBe(false);
    expect(env.strategies.map((s) => s.id)).toEqual([disabled.id]);
  });

  test('deleting one of two enabled strategies keeps the environment enabled', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    await addStrategy(h, 'f', 'development');
    await switchOn(h, 'f', 'development');
    await h.req('DELETE', `${strategiesPath('f', 'development')}/${a.id}`);
    expect((await environmentOf(h, 'f', 'development')).enabled).toBe(true);
  });

  test('404 for an unknown or already deleted strategy, another environment, an unknown flag; 412 for a stale If-Match', async ({ h }) => {
    const a = await addStrategy(h, 'f', 'development');
    const tag = (await h.json('GET', flagPath('f'))).headers.get('etag')!;
    const b = await addStrategy(h, 'f', 'development');
    await expectNoChange(h, async () => {
      expectError(await h.json('DELETE', `${strategiesPath('f', 'production')}/${a.id}`), 404, 'NotFoundError');
      expectError(await h.json('DELETE', `${strategiesPath('nope', 'development')}/${a.id}`), 404, 'NotFoundError');
      expectError(await h.json('DELETE', `${strategiesPath('f', 'development')}/${b.id}`, undefined, { headers: { 'if-match': tag } }), 412, 'PreconditionFailed');
    });
    expect((await h.req('DELETE', `${strategiesPath('f', 'development')}/${a.id}`)).status).toBe(200);
    await expectNoChange(h, async () => expectError(await h.json('DELETE', `${strategiesPath('f', 'development')}/${a.id}`), 404, 'NotFoundError'));
  });
});
