/**
 * Feature lifecycle through the HTTP pipeline (Unleash 6.10's `GET .../lifecycle`, `POST .../lifecycle/complete`
 * and `/uncomplete`, and `lifecycle` on the flag): a new flag is initial; SDK metrics from a development
 * environment make it pre-live and, once on in production, metrics from there make it live; complete and
 * uncomplete are durable commands in the history; archive shows archived and revive starts again at initial;
 * stages survive restarts (from the log and from a snapshot); bad input, unknown flags and callers without
 * `UPDATE_FEATURE` are refused and write nothing.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange, positions } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../../helpers/flags.js';
import { createUser, grant, MEMBER, personalToken, READER } from '../access/access-fixtures.js';
import { clientToken, nodeMetricsBody, postMetrics } from '../usage/usage-fixtures.js';

const test = harnessTest({ arrange: (h) => createFlag(h, 'checkout') });
const snapshotting = harnessTest({ env: { SNAPSHOT_EVERY: '1' }, arrange: (h) => createFlag(h, 'checkout') });

const lifecyclePath = (flag: string, project = 'default') => `${flagPath(flag, project)}/lifecycle`;
const stagesOf = async (h: Harness, flag = 'checkout') => {
  const r = await h.json('GET', lifecyclePath(flag));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { stage: string; status?: string; enteredStageAt: string }[];
};
const stageNames = async (h: Harness, flag = 'checkout') => (await stagesOf(h, flag)).map((s) => s.status ? `${s.stage}:${s.status}` : s.stage);
const currentOf = async (h: Harness, flag = 'checkout') => (await h.json('GET', flagPath(flag))).body.lifecycle as { stage: string; status?: string; enteredStageAt: string };

/** Posts one SDK report of `flags` with `token`: once answered, the stages it entered are recorded. */
async function report(h: Harness, token: string, ...flags: string[]): Promise<void> {
  await postMetrics(h, token, nodeMetricsBody(Object.fromEntries(flags.map((f) => [f, { yes: 1, no: 0, variants: {} }]))));
}

/** Flag `checkout` gets a strategy in production and is switched on there. */
async function onInProduction(h: Harness): Promise<void> {
  await addStrategy(h, 'checkout', 'production');
  await switchOn(h, 'checkout', 'production');
}

const complete = (h: Harness, body: unknown, flag = 'checkout', token?: string) => h.json('POST', `${lifecyclePath(flag)}/complete`, body, token ? { token } : {});
const uncomplete = (h: Harness, flag = 'checkout', token?: string) => h.json('POST', `${lifecyclePath(flag)}/uncomplete`, undefined, token ? { token } : {});

describe('stages from creation and SDK metrics', () => {
  test('a new flag is initial, entered when it was created, on the lifecycle list and the flag', async ({ h }) => {
    const created = (await h.json('GET', flagPath('checkout'))).body.createdAt as string;
    expect(await stagesOf(h)).toEqual([{ stage: 'initial', enteredStageAt: created }]);
    expect(await currentOf(h)).toEqual({ stage: 'initial', enteredStageAt: created });
  });

  test('metrics from development make it pre-live; from production while off, nothing more; once on there, live', async ({ h }) => {
    const development = await clientToken(h, 'development');
    const production = await clientToken(h, 'production');
    const etag = (await h.req('GET', flagPath('checkout'))).headers.get('etag');

    await report(h, development, 'checkout');
    expect(await stageNames(h)).toEqual(['initial', 'pre-live']);
    expect((await currentOf(h)).stage).toBe('pre-live');
    // Usage moves no version: the flag's ETag is the same.
    expect((await h.req('GET', flagPath('checkout'))).headers.get('etag')).toBe(etag);

    // Reports that enter no new stage write nothing.
    const at = positions(h);
    await report(h, development, 'checkout');
    await report(h, production, 'checkout');
    expect(positions(h)).toBe(at);
    expect(await stageNames(h)).toEqual(['initial', 'pre-live']);

    await onInProduction(h);
    await report(h, production, 'checkout');
    const stages = await stagesOf(h);
    expect(stages.map((s) => s.stage)).toEqual(['initial', 'pre-live', 'live']);
    expect(await currentOf(h)).toEqual({ stage: 'live', enteredStageAt: stages[2]!.enteredStageAt });
  });

  test('a flag first reported from production while on enters pre-live and live at once; names that are no flag are ignored', async ({ h }) => {
    await onInProduction(h);
    await report(h, await clientToken(h, 'production'), 'checkout', 'no-such-flag');
    const stages = await stagesOf(h);
    expect(stages.map((s) => s.stage)).toEqual(['initial', 'pre-live', 'live']);
    expect(stages[1]!.enteredStageAt).toBe(stages[2]!.enteredStageAt);
  });

  test('an archived flag enters no stage from metrics; revived, it starts again at initial (as Unleash) and moves on with reports', async ({ h }) => {
    const development = await clientToken(h, 'development');
    await report(h, development, 'checkout');
    await createFlag(h, 'retired');
    for (const flag of ['checkout', 'retired']) expect((await h.req('DELETE', flagPath(flag))).status).toBe(202);
    expect(await currentOf(h)).toMatchObject({ stage: 'archived' });
    expect(await stageNames(h)).toEqual(['initial', 'pre-live', 'archived']);

    await expectNoChange(h, () => report(h, development, 'retired'));
    expect(await stageNames(h, 'retired')).toEqual(['initial', 'archived']);

    const archivedAt = Date.now();
    expect((await h.json('POST', '/api/admin/projects/default/revive', { features: ['checkout'] })).status).toBe(200);
    expect(await stageNames(h)).toEqual(['initial']);
    const current = await currentOf(h);
    expect(current.stage).toBe('initial');
    expect(Date.parse(current.enteredStageAt)).toBeGreaterThanOrEqual(archivedAt - 1000);
    await report(h, development, 'checkout');
    expect(await stageNames(h)).toEqual(['initial', 'pre-live']);
  });
});

describe('complete and uncomplete', () => {
  test('complete: 200 without a body; the flag is completed with its status, in the history with what was kept', async ({ h }) => {
    const r = await h.req('POST', `${lifecyclePath('checkout')}/complete`, { status: 'kept', statusValue: 'blue' });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    const stages = await stagesOf(h);
    expect(stages.map((s) => s.stage)).toEqual(['initial', 'completed']);
    expect(stages[1]).toEqual({ stage: 'completed', status: 'kept', enteredStageAt: expect.any(String) });
    expect(await currentOf(h)).toEqual(stages[1]);

    const history = await h.json('GET', '/api/admin/events?project=default&feature=checkout');
    expect(history.body.events[0]).toMatchObject({ type: 'flag.completed', feature: 'checkout', by: expect.stringMatching(/^admin-token:/), before: null, after: { status: 'kept', statusValue: 'blue' } });
  });

  test('completing again replaces the status and keeps the moment; the same status again records nothing', async ({ h }) => {
    expect((await complete(h, { status: 'kept' })).status).toBe(200);
    const first = (await stagesOf(h))[1]!;
    expect((await complete(h, { status: 'discarded' })).status).toBe(200);
    expect((await stagesOf(h))[1]).toEqual({ stage: 'completed', status: 'discarded', enteredStageAt: first.enteredStageAt });
    await expectNoChange(h, async () => expect((await complete(h, { status: 'discarded' })).status).toBe(200), 'checkout');
  });

  test('uncomplete: back to the stage its usage reached; again, nothing is written', async ({ h }) => {
    await report(h, await clientToken(h, 'development'), 'checkout');
    expect((await complete(h, { status: 'kept' })).status).toBe(200);
    expect((await currentOf(h)).stage).toBe('completed');
    const r = await uncomplete(h);
    expect(r.status).toBe(200);
    expect(await stageNames(h)).toEqual(['initial', 'pre-live']);
    expect((await currentOf(h)).stage).toBe('pre-live');
    await expectNoChange(h, async () => expect((await uncomplete(h)).status).toBe(200), 'checkout');
    const types = (await h.json('GET', '/api/admin/events?project=default&feature=checkout')).body.events.map((e: { type: string }) => e.type);
    expect(types.slice(0, 3)).toEqual(['flag.uncompleted', 'flag.completed', 'flag.stages-entered']);
  });

  test('a completed flag that is archived shows archived; revived, it is at initial and no longer completed', async ({ h }) => {
    expect((await complete(h, { status: 'kept' })).status).toBe(200);
    expect((await h.req('DELETE', flagPath('checkout'))).status).toBe(202);
    expect((await currentOf(h)).stage).toBe('archived');
    expectError(await complete(h, { status: 'discarded' }), 400, 'ArchivedFeatureError');
    expectError(await uncomplete(h), 400, 'ArchivedFeatureError');
    expect((await h.json('POST', '/api/admin/projects/default/revive', { features: ['checkout'] })).status).toBe(200);
    expect((await currentOf(h)).stage).toBe('initial');
  });

  test('stage changes are nothing an SDK is served: the client delta since before them is a 304', async ({ h }) => {
    const sdk = await clientToken(h, 'development');
    const first = await h.req('GET', '/api/client/delta', undefined, { token: sdk });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    await report(h, sdk, 'checkout');
    expect((await complete(h, { status: 'kept' })).status).toBe(200);
    expect((await uncomplete(h)).status).toBe(200);
    expect(await stageNames(h)).toEqual(['initial', 'pre-live']);
    expect((await h.req('GET', '/api/client/delta', undefined, { token: sdk, headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  test('a clone starts at initial', async ({ h }) => {
    expect((await complete(h, { status: 'kept' })).status).toBe(200);
    expect((await h.json('POST', `${flagPath('checkout')}/clone`, { name: 'checkout-2' })).status).toBe(201);
    expect(await stageNames(h, 'checkout-2')).toEqual(['initial']);
  });
});

describe('refused', () => {
  test('a bad body is a 400 naming the property, and writes nothing', async ({ h }) => {
    for (const [body, message] of [
      [{ status: 'done' }, /status.*kept, discarded/],
      [{}, /status/],
      [{ status: 'kept', statusValue: 7 }, /statusValue/],
      [{ status: 'kept', extra: true }, /extra/],
    ] as const) {
      await expectNoChange(h, async () => expectError(await complete(h, body), 400, 'ValidationError', message), 'checkout');
    }
  });

  test('an unknown flag or project is a 404', async ({ h }) => {
    expectError(await h.json('GET', lifecyclePath('nope')), 404, 'NotFoundError', /nope/);
    await expectNoChange(h, async () => {
      expectError(await complete(h, { status: 'kept' }, 'nope'), 404, 'NotFoundError', /nope/);
      expectError(await uncomplete(h, 'nope'), 404, 'NotFoundError', /nope/);
    });
    expectError(await h.json('GET', lifecyclePath('checkout', 'elsewhere')), 404, 'NotFoundError');
  });

  test('If-Match of another version is a 412', async ({ h }) => {
    const r = await h.json('POST', `${lifecyclePath('checkout')}/complete`, { status: 'kept' }, { headers: { 'if-match': '"999"' } });
    expectError(r, 412, 'PreconditionFailed');
  });

  test('complete and uncomplete need UPDATE_FEATURE: a Reader and a client token are refused, a Member may', async ({ h }) => {
    const reader = await createUser(h, { email: 'r@example.com', rootRole: 3 });
    await grant(h, 'default', reader, READER);
    const member = await createUser(h, { email: 'm@example.com', rootRole: 3 });
    await grant(h, 'default', member, MEMBER);
    const readerToken = await personalToken(h, reader);
    const sdk = await clientToken(h);
    await expectNoChange(h, async () => {
      expectError(await complete(h, { status: 'kept' }, 'checkout', readerToken), 403, 'NoAccessError', /UPDATE_FEATURE/);
      expectError(await uncomplete(h, 'checkout', readerToken), 403, 'NoAccessError', /UPDATE_FEATURE/);
      expectError(await complete(h, { status: 'kept' }, 'checkout', sdk), 403, 'NoAccessError');
    }, 'checkout');
    expect((await h.json('GET', lifecyclePath('checkout'), undefined, { token: readerToken })).status).toBe(200);
    expect((await complete(h, { status: 'kept' }, 'checkout', await personalToken(h, member))).status).toBe(200);
  });
});

describe('across restarts', () => {
  async function liveAndCompleted(h: Harness) {
    await onInProduction(h);
    await report(h, await clientToken(h, 'production'), 'checkout');
    expect((await complete(h, { status: 'kept', statusValue: 'v2' })).status).toBe(200);
    return stagesOf(h);
  }

  test('replayed from the log: the same stages, moments and status', async ({ h }) => {
    const before = await liveAndCompleted(h);
    await h.restart();
    expect(await stagesOf(h)).toEqual(before);
    expect((await uncomplete(h)).status).toBe(200);
    await h.restart();
    expect((await currentOf(h)).stage).toBe('live');
  });

  snapshotting('read from a snapshot: the same stages, moments and status', async ({ h }) => {
    const before = await liveAndCompleted(h);
    await h.registry.project('default')!.snapshot();
    await h.restart();
    expect(await stagesOf(h)).toEqual(before);
    expect(await currentOf(h)).toMatchObject({ stage: 'completed', status: 'kept' });
  });
});
