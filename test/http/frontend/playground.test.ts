/**
 * `POST /api/admin/playground` through HTTP (CLIENT-API "Playground"): Unleash 6.10's answer shape, with the
 * result of each strategy, constraint and segment; who may call it; malformed bodies.
 */
import { describe, expect } from 'vitest';
import { harnessTest } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createUser, personalToken } from '../access/access-fixtures.js';
import { buildWorld, createSegment, frontendToken, tokenOf } from './frontend-fixtures.js';

/** `buildWorld`, plus `mixed`: a 100% rollout behind `plan IN pro` and the segment `nordics`, `userWithId` alice, a disabled default strategy. */
async function arrange(h: Harness): Promise<void> {
  await buildWorld(h);
  const segments = (await h.json('GET', '/api/admin/segments')).body.segments as { id: number; name: string }[];
  const nordics = segments.find((s) => s.name === 'nordics')!.id;
  await createSegment(h, 'unused', []);
  await createFlag(h, 'mixed');
  await addStrategy(h, 'mixed', 'development', {
    name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'mixed' },
    constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }], segments: [nordics],
    variants: [{ name: 'green', weightType: 'variable', weight: 1000, stickiness: 'default', payload: { type: 'json', value: '{"a":1}' } }],
  });
  await addStrategy(h, 'mixed', 'development', { name: 'userWithId', parameters: { userIds: 'alice' } });
  await addStrategy(h, 'mixed', 'development', { name: 'default', disabled: true });
  await switchOn(h, 'mixed');
}

const test = harnessTest({ arrange });

/** The least context a playground body must carry (Unleash requires `appName`). */
const APP = { appName: 'playground-test' };
const play = (h: Harness, body: unknown, token?: string) => h.json('POST', '/api/admin/playground', body, token === undefined ? {} : { token });

type Feature = Record<string, any>;
const byName = (features: Feature[]) => Object.fromEntries(features.map((f) => [f.name, f]));

describe('the answer', () => {
  test("Unleash 6.10's shape: input echoed, every active flag of the projects with its project", async ({ h }) => {
    const res = await play(h, { environment: 'development', projects: '*', context: { appName: 'web', userId: 'bob', properties: { plan: 'pro' } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.input).toEqual({ environment: 'development', projects: '*', context: { appName: 'web', userId: 'bob', properties: { plan: 'pro' } } });
    const features = byName(res.body.features);
    expect(Object.keys(features).sort()).toEqual(['half', 'mixed', 'off', 'on', 'only-alice', 'other-on', 'prod-only', 'pro', 'segmented'].sort());
    expect(features['other-on']!.projectId).toBe('other');
    expect(features['on']).toMatchObject({
      projectId: 'default', isEnabled: true, isEnabledInCurrentEnvironment: true,
      variant: { name: 'blue', enabled: true, payload: { type: 'string', value: 'sky' } },
      variants: [expect.objectContaining({ name: 'blue' })],
      strategies: { result: true, data: [expect.objectContaining({ name: 'default', result: { enabled: true, evaluationStatus: 'complete' } })] },
    });
    expect(features['off']).toMatchObject({ isEnabled: false, isEnabledInCurrentEnvironment: false });
    expect(features['prod-only']).toMatchObject({ isEnabled: false, isEnabledInCurrentEnvironment: false, strategies: { data: [] } });
    const strategy = features['on']!.strategies.data[0];
    expect(strategy.links.edit).toBe(`/projects/default/features/on/strategies/edit?environmentId=development&strategyId=${strategy.id}`);
    const listed = await play(h, { environment: 'development', projects: ['other', 'nope'], context: APP });
    expect(listed.status).toBe(200);
    expect(listed.body.features.map((f: Feature) => f.name)).toEqual(['other-on']);
    expect((await play(h, { environment: 'production', projects: ['default'], context: APP })).body.features.find((f: Feature) => f.name === 'prod-only').isEnabled).toBe(true);
  });

  test('per strategy, constraint and segment: the segment fails, then the constraint, then the user list decides', async ({ h }) => {
    const mixedFor = async (context: unknown) => {
      const res = await play(h, { environment: 'development', projects: ['default'], context: { appName: 'web', ...(context as object) } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return byName(res.body.features)['mixed']!;
    };
    // pro in Denmark: the constraint holds, the segment does not.
    const bob = await mixedFor({ userId: 'bob', properties: { plan: 'pro', country: 'dk' } });
    const [rollout, users, disabled] = bob.strategies.data;
    expect(rollout).toMatchObject({
      name: 'flexibleRollout', disabled: false, result: { enabled: false, evaluationStatus: 'complete' },
      constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'], result: true }],
      segments: [{ name: 'nordics', result: false, constraints: [{ contextName: 'country', operator: 'IN', values: ['no', 'se'], result: false }] }],
    });
    expect(users).toMatchObject({ name: 'userWithId', parameters: { userIds: 'alice' }, result: { enabled: false, evaluationStatus: 'complete' } });
    expect(disabled).toMatchObject({ name: 'default', disabled: true, result: { evaluationStatus: 'unevaluated' } });
    expect(bob).toMatchObject({ isEnabled: false, isEnabledInCurrentEnvironment: true, variant: { name: 'disabled', enabled: false } });
    // pro in Norway: the rollout strategy is true and its own variants decide.
    const carol = await mixedFor({ userId: 'carol', properties: { plan: 'pro', country: 'no' } });
    expect(carol.strategies.data[0]).toMatchObject({
      result: { enabled: true, evaluationStatus: 'complete', variant: { name: 'green', enabled: true, payload: { type: 'json', value: '{"a":1}' } } },
      constraints: [{ result: true }], segments: [{ result: true, constraints: [{ result: true }] }],
    });
    expect(carol).toMatchObject({ isEnabled: true, strategies: { result: true }, variant: { name: 'green', enabled: true }, variants: [expect.objectContaining({ name: 'green' })] });
    // alice on the free plan in Norway: the constraint fails, the segment holds, the user list says yes.
    const alice = await mixedFor({ userId: 'alice', properties: { plan: 'free', country: 'no' } });
    expect(alice.strategies.data[0]).toMatchObject({ result: { enabled: false }, constraints: [{ result: false }], segments: [{ result: true }] });
    expect(alice.strategies.data[1]).toMatchObject({ result: { enabled: true, evaluationStatus: 'complete' } });
    expect(alice).toMatchObject({ isEnabled: true, strategies: { result: true }, variant: { name: 'disabled', enabled: false, feature_enabled: true } });
  });
});

describe('who may call it, and what it refuses', () => {
  test('READ: admin tokens and every root role 200; client and frontend tokens 403; unknown 401', async ({ h }) => {
    const body = { environment: 'development', projects: '*', context: APP };
    for (const rootRole of [1, 2, 3]) {
      const token = await personalToken(h, await createUser(h, { username: `u${rootRole}`, rootRole }));
      expect((await play(h, body, token)).status).toBe(200);
    }
    for (const token of [await tokenOf(h, { type: 'client', environment: 'development' }), await frontendToken(h)]) {
      const res = await play(h, body, token);
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('READ');
    }
    expect((await play(h, body, '*:*.unknown')).status).toBe(401);
  });

  test.for([
    [{}, 'environment'],
    [{ context: APP }, 'environment'],
    [{ environment: '*', context: APP }, 'environment'],
    // As Unleash's playgroundRequestSchema: a context is required, and in it a non-empty appName.
    [{ environment: 'development' }, 'appName'],
    [{ environment: 'development', context: { userId: 'bob' } }, 'appName'],
    [{ environment: 'development', context: { appName: '' } }, 'appName'],
    [{ environment: 'development', projects: 'all', context: APP }, 'projects'],
    [{ environment: 'development', projects: ['__proto__'], context: APP }, 'projects'],
    [{ environment: 'development', context: { appName: 'web', userId: 'x'.repeat(1_000_000) } }, 'userId'],
    [{ environment: 'development', context: { appName: 'web', properties: { constructor: 'x' } } }, 'constructor'],
    [{ environment: 'development', context: { appName: 'web', properties: [] } }, 'properties'],
  ] as const)('refuses %j with a 400 naming %s', async ([body, what], { h }) => {
    const before = await h.json('GET', '/api/admin/projects/default/features');
    const res = await play(h, body);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
    expect(res.body.message).toContain(what);
    expect((await h.json('GET', '/api/admin/projects/default/features')).body).toEqual(before.body);
  });

  test('an unknown environment answers every flag off there', async ({ h }) => {
    const res = await play(h, { environment: 'staging', context: APP });
    expect(res.status).toBe(200);
    expect(res.body.features.every((f: Feature) => !f.isEnabled && !f.isEnabledInCurrentEnvironment)).toBe(true);
  });
});
