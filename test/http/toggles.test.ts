/**
 * Seed 4.13 and 4.16 through HTTP: `/on`, `/off` and the environment default strategy, with the `/on`
 * fallback to the default strategy (API-DECISIONS "Enable, disable, default strategy").
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { harness, type Harness } from '../helpers/harness.js';
import { UUID, expectError, expectNoChange as noChange } from '../helpers/expect.js';

const P = '/api/admin/projects/default';
const flagPath = (name: string) => `${P}/features/${name}`;
const envPath = (env: string, flag = 'f') => `${flagPath(flag)}/environments/${env}`;
const defaultStrategy = (env: string, project = 'default') => `/api/admin/projects/${project}/environments/${env}/default-strategy`;

let h: Harness;
beforeEach(async () => {
  h = await harness();
  expect((await h.json('POST', `${P}/features`, { name: 'f' })).status).toBe(201);
});
afterEach(async () => { await h.close(); });

const seq = () => h.registry.project('default')!.seq;

const expectNoChange = (act: () => Promise<unknown>, flag = 'f') => noChange(h, act, flag);

async function environment(env: string, flag = 'f') {
  const detail = (await h.json('GET', flagPath(flag))).body;
  return detail.environments.find((e: { name: string }) => e.name === env) as { enabled: boolean; strategies: { id: string; name: string; parameters: Record<string, string>; disabled: boolean }[] };
}

async function addStrategy(env: string, body: Record<string, unknown> = { name: 'default' }, flag = 'f') {
  const r = await h.json('POST', `${envPath(env, flag)}/strategies`, body);
  expect(r.status).toBe(200);
  return r.body as { id: string };
}

describe('POST .../on and .../off (4.13)', () => {
  test('/on answers 200 with no body and enables only that environment; repeating changes nothing', async () => {
    await addStrategy('development');
    const r = await h.req('POST', `${envPath('development')}/on`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    expect((await environment('development')).enabled).toBe(true);
    expect((await environment('production')).enabled).toBe(false);
    await expectNoChange(async () => expect((await h.req('POST', `${envPath('development')}/on`)).status).toBe(200));
  });

  test('/off answers 200 with no body and disables; repeating changes nothing; strategies stay', async () => {
    const s = await addStrategy('development');
    await h.req('POST', `${envPath('development')}/on`);
    const r = await h.req('POST', `${envPath('development')}/off`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    const env = await environment('development');
    expect(env.enabled).toBe(false);
    expect(env.strategies.map((x) => x.id)).toEqual([s.id]);
    await expectNoChange(async () => expect((await h.req('POST', `${envPath('development')}/off`)).status).toBe(200));
  });

  test('/off on a disabled environment without strategies is a 200 that changes nothing', async () => {
    await expectNoChange(async () => expect((await h.req('POST', `${envPath('production')}/off`)).status).toBe(200));
  });

  test('/on without any strategy and no default strategy: 409 InvalidOperationError, nothing changes', async () => {
    await expectNoChange(async () => expectError(await h.json('POST', `${envPath('development')}/on`), 409, 'InvalidOperationError', /strategy/));
  });

  test('/on with only disabled strategies and no default strategy: 409', async () => {
    await addStrategy('development', { name: 'default', disabled: true });
    await expectNoChange(async () => expectError(await h.json('POST', `${envPath('development')}/on`), 409, 'InvalidOperationError'));
  });

  test('the list and overview show the enabled environment', async () => {
    await addStrategy('production');
    await h.req('POST', `${envPath('production')}/on`);
    const list = (await h.json('GET', `${P}/features`)).body.features[0].environments;
    expect(list.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, true]);
    const overview = (await h.json('GET', P)).body.features[0].environments;
    expect(overview.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, true]);
  });

  test('404 for an unknown flag, environment or project; 400 for a bad environment name; nothing changes', async () => {
    await addStrategy('development');
    await expectNoChange(async () => {
      for (const action of ['on', 'off']) {
        expectError(await h.json('POST', `${envPath('development', 'nope')}/${action}`), 404, 'NotFoundError', /nope/);
        expectError(await h.json('POST', `${envPath('qa')}/${action}`), 404, 'NotFoundError', /qa/);
        expectError(await h.json('POST', `/api/admin/projects/nope/features/f/environments/development/${action}`), 404, 'NotFoundError');
        expectError(await h.json('POST', `${envPath('x'.repeat(101))}/${action}`), 400, 'ValidationError', /environment/);
        expectError(await h.json('POST', `${envPath('%C3%A9')}/${action}`), 400, 'ValidationError', /environment/);
        expectError(await h.json('POST', `${envPath('*')}/${action}`), 400, 'ValidationError', /environment/);
      }
    });
  });

  test('412 for a stale If-Match; the current ETag is accepted', async () => {
    await addStrategy('development');
    const tag = (await h.json('GET', flagPath('f'))).headers.get('etag')!;
    await expectNoChange(async () => expectError(await h.json('POST', `${envPath('development')}/on`, undefined, { headers: { 'if-match': '"1"' } }), 412, 'PreconditionFailed'));
    expect((await h.req('POST', `${envPath('development')}/on`, undefined, { headers: { 'if-match': tag } })).status).toBe(200);
    await expectNoChange(async () => expectError(await h.json('POST', `${envPath('development')}/off`, undefined, { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'));
  });

  test('400 ArchivedFeatureError on an archived flag', async () => {
    await addStrategy('development');
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(async () => {
      expectError(await h.json('POST', `${envPath('development')}/on`), 400, 'ArchivedFeatureError');
      expectError(await h.json('POST', `${envPath('development')}/off`), 400, 'ArchivedFeatureError');
    });
  });
});

describe('POST .../environments/:environment/default-strategy (4.16)', () => {
  test('answers 200 with the stored strategy request and shows it in the overview', async () => {
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

  test('/on without an enabled strategy adds the default strategy with the flag name as groupId and enables', async () => {
    await h.json('POST', defaultStrategy('production'), { name: 'flexibleRollout', parameters: { rollout: 25, groupId: 'anything' } });
    await addStrategy('production', { name: 'default', disabled: true });
    const r = await h.req('POST', `${envPath('production')}/on`);
    expect(r.status).toBe(200);
    const env = await environment('production');
    expect(env.enabled).toBe(true);
    expect(env.strategies).toHaveLength(2);
    expect(env.strategies[1]).toMatchObject({ id: expect.stringMatching(UUID), name: 'flexibleRollout', disabled: false, sortOrder: 1, parameters: { rollout: '25', groupId: 'f', stickiness: 'default' } });
    // development has no default strategy: still 409.
    expectError(await h.json('POST', `${envPath('development')}/on`), 409, 'InvalidOperationError');
  });

  test('/on with an enabled strategy does not add the default strategy', async () => {
    await h.json('POST', defaultStrategy('development'), { name: 'userWithId', parameters: { userIds: '1' } });
    const own = await addStrategy('development');
    await h.req('POST', `${envPath('development')}/on`);
    expect((await environment('development')).strategies.map((s) => s.id)).toEqual([own.id]);
  });

  test('`*` sets the default strategy of every environment of the project', async () => {
    const r = await h.json('POST', defaultStrategy('*'), { name: 'default' });
    expect(r.status).toBe(200);
    const overview = (await h.json('GET', P)).body;
    expect(overview.environments.map((e: { defaultStrategy: unknown }) => e.defaultStrategy)).toEqual([r.body, r.body]);
    for (const env of ['development', 'production']) {
      expect((await h.req('POST', `${envPath(env)}/on`)).status).toBe(200);
      expect((await environment(env)).strategies.map((s) => s.name)).toEqual(['default']);
    }
  });

  test('a later default strategy replaces the earlier one', async () => {
    await h.json('POST', defaultStrategy('development'), { name: 'default' });
    await h.json('POST', defaultStrategy('development'), { name: 'userWithId', parameters: { userIds: 'a' } });
    await h.req('POST', `${envPath('development')}/on`);
    expect((await environment('development')).strategies.map((s) => s.name)).toEqual(['userWithId']);
  });

  test.each([
    ['an unknown environment', 'qa', { name: 'default' }, 404, 'NotFoundError'],
    ['a bad environment name', 'a%20b', { name: 'default' }, 400, 'ValidationError'],
    ['an unknown strategy name', 'development', { name: 'nope' }, 400, 'ValidationError'],
    ['an unknown field', 'development', { name: 'default', extra: true }, 400, 'ValidationError'],
    ['a bad constraint', 'development', { name: 'default', constraints: [{ contextName: 'a', operator: 'NUM_EQ', value: 'x' }] }, 400, 'ValidationError'],
    ['no body', 'development', undefined, 400, 'ValidationError'],
  ])('%s: refused, nothing changes', async (_label, env, body, status, name) => {
    const before = seq();
    const overview = (await h.json('GET', P)).body;
    expectError(await h.json('POST', defaultStrategy(env), body), status, name);
    expect(seq()).toBe(before);
    expect((await h.json('GET', P)).body).toEqual(overview);
  });

  test('404 for an unknown project, 401 without a token', async () => {
    expectError(await h.json('POST', defaultStrategy('development', 'nope'), { name: 'default' }), 404, 'NotFoundError');
    expectError(await h.json('POST', defaultStrategy('development'), { name: 'default' }, { token: null }), 401, 'AuthenticationRequired');
    expect((await h.json('GET', P)).body.environments.map((e: { defaultStrategy: unknown }) => e.defaultStrategy)).toEqual([null, null]);
  });
});
