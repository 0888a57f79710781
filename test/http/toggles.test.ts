/**
 * Seed 4.13 and 4.16 through HTTP: `/on`, `/off` and the environment default strategy, with the `/on`
 * fallback to the default strategy (API-DECISIONS "Enable, disable, default strategy").
 */
import { describe, expect } from 'vitest';
import { UUID, expectError, expectNoChange as noChange } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { addStrategy, createFlag, envPath, environmentOf, flagPath } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const P = '/api/admin/projects/default';
const defaultStrategy = (env: string, project = 'default') => `/api/admin/projects/${project}/environments/${env}/default-strategy`;

/** Every test starts with flag `f`. */
const test = harnessTest({ arrange: (h) => createFlag(h, 'f') });

const seq = (h: Harness) => h.registry.project('default')!.seq;

const expectNoChange = (h: Harness, act: () => Promise<unknown>, flag = 'f') => noChange(h, act, flag);

describe('POST .../on and .../off (4.13)', () => {
  test('/on answers 200 with no body and enables only that environment; repeating changes nothing', async ({ h }) => {
    await addStrategy(h, 'f', 'development');
    const r = await h.req('POST', `${envPath('f', 'development')}/on`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    expect((await environmentOf(h, 'f', 'development')).enabled).toBe(true);
    expect((await environmentOf(h, 'f', 'production')).enabled).toBe(false);
    await expectNoChange(h, async () => expect((await h.req('POST', `${envPath('f', 'development')}/on`)).status).toBe(200));
  });

  test('/off answers 200 with no body and disables; repeating changes nothing; strategies stay', async ({ h }) => {
    const s = await addStrategy(h, 'f', 'development');
    await h.req('POST', `${envPath('f', 'development')}/on`);
    const r = await h.req('POST', `${envPath('f', 'development')}/off`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    const env = await environmentOf(h, 'f', 'development');
    expect(env.enabled).toBe(false);
    expect(env.strategies.map((x) => x.id)).toEqual([s.id]);
    await expectNoChange(h, async () => expect((await h.req('POST', `${envPath('f', 'development')}/off`)).status).toBe(200));
  });

  test('/off on a disabled environment without strategies is a 200 that changes nothing', async ({ h }) => {
    await expectNoChange(h, async () => expect((await h.req('POST', `${envPath('f', 'production')}/off`)).status).toBe(200));
  });

  test('/on without any strategy and no default strategy: 409 InvalidOperationError, nothing changes', async ({ h }) => {
    await expectNoChange(h, async () => expectError(await h.json('POST', `${envPath('f', 'development')}/on`), 409, 'InvalidOperationError', /strategy/));
  });

  test('/on with only disabled strategies and no default strategy: 409', async ({ h }) => {
    await addStrategy(h, 'f', 'development', { name: 'default', disabled: true });
    await expectNoChange(h, async () => expectError(await h.json('POST', `${envPath('f', 'development')}/on`), 409, 'InvalidOperationError'));
  });

  test('the list and overview show the enabled environment', async ({ h }) => {
    await addStrategy(h, 'f', 'production');
    await h.req('POST', `${envPath('f', 'production')}/on`);
    const list = (await h.json('GET', `${P}/features`)).body.features[0].environments;
    expect(list.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, true]);
    const overview = (await h.json('GET', P)).body.features[0].environments;
    expect(overview.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, true]);
  });

  test('404 for an unknown flag, environment or project; 400 for a bad environment name; nothing changes', async ({ h }) => {
    await addStrategy(h, 'f', 'development');
    await expectNoChange(h, async () => {
      for (const action of ['on', 'off']) {
        expectError(await h.json('POST', `${envPath('nope', 'development')}/${action}`), 404, 'NotFoundError', /nope/);
        expectError(await h.json('POST', `${envPath('f', 'qa')}/${action}`), 404, 'NotFoundError', /qa/);
        expectError(await h.json('POST', `/api/admin/projects/nope/features/f/environments/development/${action}`), 404, 'NotFoundError');
        expectError(await h.json('POST', `${envPath('f', 'x'.repeat(101))}/${action}`), 400, 'ValidationError', /environment/);
        expectError(await h.json('POST', `${envPath('f', '%C3%A9')}/${action}`), 400, 'ValidationError', /environment/);
        expectError(await h.json('POST', `${envPath('f', '*')}/${action}`), 400, 'ValidationError', /environment/);
      }
    });
  });

  test('412 for a stale If-Match; the current ETag is accepted', async ({ h }) => {
    await addStrategy(h, 'f', 'development');
    const tag = (await h.json('GET', flagPath('f'))).headers.get('etag')!;
    await expectNoChange(h, async () => expectError(await h.json('POST', `${envPath('f', 'development')}/on`, undefined, { headers: { 'if-match': '"1"' } }), 412, 'PreconditionFailed'));
    expect((await h.req('POST', `${envPath('f', 'development')}/on`, undefined, { headers: { 'if-match': tag } })).status).toBe(200);
    await expectNoChange(h, async () => expectError(await h.json('POST', `${envPath('f', 'development')}/off`, undefined, { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'));
  });

  test('400 ArchivedFeatureError on an archived flag', async ({ h }) => {
    await addStrategy(h, 'f', 'development');
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', `${envPath('f', 'development')}/on`), 400, 'ArchivedFeatureError');
      expectError(await h.json('POST', `${envPath('f', 'development')}/off`), 400, 'ArchivedFeatureError');
    });
  });
});

describe('POST .../environments/:environment/default-strategy (4.16)', () => {
  test('answers 200 with the stored strategy request and shows it in the overview', async ({ h }) => {
    const body = { name: 'flexibleRollout', parameters: { rollout: 25, stickiness: 'userId', groupId: 'anything' }, constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] };
    const r = await h.json('POST', defaultStrategy('production'), body);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'userId', groupId: 'anything' } });
    expect(r.body.constraints).toEqual([{ contextName: 'appName', operator: 'IN', values: ['web'], caseInsensitive: false, inverted: false }]);
    const overview = (await h.json('GET', P)).body;
    expect(overview.environments).toEqual([
      { environment: 'development', defaultStrategy: null },
      { environment: 'production', defaultStrategy: r.body },
    ]);
  });

  test('/on without an enabled strategy adds the default strategy with the flag name as groupId and enables', async ({ h }) => {
    await h.json('POST', defaultStrategy('production'), { name: 'flexibleRollout', parameters: { rollout: 25, groupId: 'anything' } });
    await addStrategy(h, 'f', 'production', { name: 'default', disabled: true });
    const r = await h.req('POST', `${envPath('f', 'production')}/on`);
    expect(r.status).toBe(200);
    const env = await environmentOf(h, 'f', 'production');
    expect(env.enabled).toBe(true);
    expect(env.strategies).toHaveLength(2);
    expect(env.strategies[1]).toMatchObject({ id: expect.stringMatching(UUID), name: 'flexibleRollout', disabled: false, sortOrder: 1, parameters: { rollout: '25', groupId: 'f', stickiness: 'default' } });
    // development has no default strategy: still 409.
    expectError(await h.json('POST', `${envPath('f', 'development')}/on`), 409, 'InvalidOperationError');
  });

  test('/on with an enabled strategy does not add the default strategy', async ({ h }) => {
    await h.json('POST', defaultStrategy('development'), { name: 'userWithId', parameters: { userIds: '1' } });
    const own = await addStrategy(h, 'f', 'development');
    await h.req('POST', `${envPath('f', 'development')}/on`);
    expect((await environmentOf(h, 'f', 'development')).strategies.map((s) => s.id)).toEqual([own.id]);
  });

  test('`*` sets the default strategy of every environment of the project', async ({ h }) => {
    const r = await h.json('POST', defaultStrategy('*'), { name: 'default' });
    expect(r.status).toBe(200);
    const overview = (await h.json('GET', P)).body;
    expect(overview.environments.map((e: { defaultStrategy: unknown }) => e.defaultStrategy)).toEqual([r.body, r.body]);
    for (const env of ['development', 'production']) {
      expect((await h.req('POST', `${envPath('f', env)}/on`)).status).toBe(200);
      expect((await environmentOf(h, 'f', env)).strategies.map((s) => s.name)).toEqual(['default']);
    }
  });

  test('a later default strategy replaces the earlier one', async ({ h }) => {
    await h.json('POST', defaultStrategy('development'), { name: 'default' });
    await h.json('POST', defaultStrategy('development'), { name: 'userWithId', parameters: { userIds: 'a' } });
    await h.req('POST', `${envPath('f', 'development')}/on`);
    expect((await environmentOf(h, 'f', 'development')).strategies.map((s) => s.name)).toEqual(['userWithId']);
  });

  test.for<[string, string, unknown, number, string]>([
    ['an unknown environment', 'qa', { name: 'default' }, 404, 'NotFoundError'],
    ['a bad environment name', 'a%20b', { name: 'default' }, 400, 'ValidationError'],
    ['an unknown strategy name', 'development', { name: 'nope' }, 400, 'ValidationError'],
    ['an unknown field', 'development', { name: 'default', extra: true }, 400, 'ValidationError'],
    ['a bad constraint', 'development', { name: 'default', constraints: [{ contextName: 'a', operator: 'NUM_EQ', value: 'x' }] }, 400, 'ValidationError'],
    ['no body', 'development', undefined, 400, 'ValidationError'],
  ])('%s: refused, nothing changes', async ([_label, env, body, status, name], { h }) => {
    const before = seq(h);
    const overview = (await h.json('GET', P)).body;
    expectError(await h.json('POST', defaultStrategy(env), body), status, name);
    expect(seq(h)).toBe(before);
    expect((await h.json('GET', P)).body).toEqual(overview);
  });

  test('404 for an unknown project, 401 without a token', async ({ h }) => {
    expectError(await h.json('POST', defaultStrategy('development', 'nope'), { name: 'default' }), 404, 'NotFoundError');
    expectError(await h.json('POST', defaultStrategy('development'), { name: 'default' }, { token: null }), 401, 'AuthenticationRequired');
    expect((await h.json('GET', P)).body.environments.map((e: { defaultStrategy: unknown }) => e.defaultStrategy)).toEqual([null, null]);
  });
});

describe('shouldActivateDisabledStrategies (Unleash 6.10)', () => {
  const on = (flag: string, query = '') => `${envPath(flag, 'development')}/on${query}`;
  const ACTIVATE = '?shouldActivateDisabledStrategies=true';

  test('=true enables the environment\'s disabled strategies with the flag; without it they stay disabled (409 with no default strategy)', async ({ h }) => {
    const off1 = await addStrategy(h, 'f', 'development', { name: 'default', disabled: true });
    const off2 = await addStrategy(h, 'f', 'development', { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'f' }, disabled: true });
    await expectNoChange(h, async () => expectError(await h.json('POST', on('f')), 409, 'InvalidOperationError', /no enabled strategy/));
    await expectNoChange(h, async () => expectError(await h.json('POST', on('f', '?shouldActivateDisabledStrategies=false')), 409, 'InvalidOperationError'));
    expect((await h.req('POST', on('f', ACTIVATE))).status).toBe(200);
    const env = await environmentOf(h, 'f', 'development');
    expect(env.enabled).toBe(true);
    expect(env.strategies.map((s) => [s.id, s.disabled])).toEqual([[off1.id, false], [off2.id, false]]);
    expect((await environmentOf(h, 'f', 'production')).enabled).toBe(false);
    // Replayed from the log as decided.
    await h.restart();
    expect(await environmentOf(h, 'f', 'development')).toEqual(env);
  });

  test('with a default strategy set: without the flag it is added beside the disabled one; with it, the disabled one is enabled instead', async ({ h }) => {
    expect((await h.req('POST', defaultStrategy('development'), { name: 'default' })).status).toBe(200);
    await createFlag(h, 'g');
    const disabledF = await addStrategy(h, 'f', 'development', { name: 'userWithId', parameters: { userIds: '1' }, disabled: true });
    const disabledG = await addStrategy(h, 'g', 'development', { name: 'userWithId', parameters: { userIds: '1' }, disabled: true });
    expect((await h.req('POST', on('f'))).status).toBe(200);
    const f = await environmentOf(h, 'f', 'development');
    expect(f.strategies.map((s) => [s.name, s.disabled ?? false])).toEqual([['userWithId', true], ['default', false]]);
    expect((await h.req('POST', on('g', ACTIVATE))).status).toBe(200);
    const g = await environmentOf(h, 'g', 'development');
    expect(g.enabled).toBe(true);
    expect(g.strategies.map((s) => [s.id, s.disabled])).toEqual([[disabledG.id, false]]);
    expect(disabledF.disabled).toBe(true);
  });

  test('on an enabled environment it still enables the disabled strategies (one change); again, nothing changes', async ({ h }) => {
    await addStrategy(h, 'f', 'development');
    const disabled = await addStrategy(h, 'f', 'development', { name: 'default', disabled: true });
    expect((await h.req('POST', on('f'))).status).toBe(200);
    const before = seq(h);
    expect((await h.req('POST', on('f', ACTIVATE))).status).toBe(200);
    expect(seq(h)).toBe(before + 1);
    expect((await environmentOf(h, 'f', 'development')).strategies.find((s) => s.id === disabled.id)?.disabled).toBe(false);
    await expectNoChange(h, async () => expect((await h.req('POST', on('f', ACTIVATE))).status).toBe(200));
  });

  test('the bulk /on takes it too, all or none', async ({ h }) => {
    await createFlag(h, 'g');
    await addStrategy(h, 'f', 'development', { name: 'default', disabled: true });
    await addStrategy(h, 'g', 'development', { name: 'default', disabled: true });
    const bulk = `${P}/bulk_features/environments/development/on`;
    await expectNoChange(h, async () => expectError(await h.json('POST', bulk, { features: ['f', 'g'] }), 409, 'InvalidOperationError'));
    expect((await h.req('POST', `${bulk}${ACTIVATE}`, { features: ['f', 'g'] })).status).toBe(200);
    for (const flag of ['f', 'g']) {
      const env = await environmentOf(h, flag, 'development');
      expect([env.enabled, env.strategies.map((s) => s.disabled)]).toEqual([true, [false]]);
    }
  });

  test('a value other than true or false, or given twice, is a 400 that changes nothing', async ({ h }) => {
    await addStrategy(h, 'f', 'development', { name: 'default', disabled: true });
    for (const query of ['?shouldActivateDisabledStrategies=yes', '?shouldActivateDisabledStrategies=', '?shouldActivateDisabledStrategies=true&shouldActivateDisabledStrategies=true']) {
      await expectNoChange(h, async () => expectError(await h.json('POST', on('f', query)), 400, 'ValidationError', /"shouldActivateDisabledStrategies"/));
      await expectNoChange(h, async () => expectError(await h.json('POST', `${P}/bulk_features/environments/development/on${query}`, { features: ['f'] }), 400, 'ValidationError', /"shouldActivateDisabledStrategies"/));
    }
  });
});
