/**
 * The project as it was, the comparison of two moments and the filtered history, over a real app and a real
 * LevelDB: changes sent through the API at controlled times (Date faked: records are stamped with `new Date()`),
 * then read back through the queries, before and after a restart.
 */
import { describe, expect, onTestFinished, vi } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, featuresPath, flagPath, strategiesPath, switchOn } from '../../helpers/flags.js';
import { compareMoments, isMomentError, projectAt } from '../../../src/queries/history/past-project.query.js';
import { flagTimeline, projectHistory } from '../../../src/queries/history/history.query.js';

/** 10:00 on a day after the project's creation (which is stamped with the real clock). */
const T = (hhmm: string) => `2099-01-01T${hhmm}:00.000Z`;

function at(time: string): void {
  vi.setSystemTime(new Date(time));
}

/**
 * 10:00 checkout created; 10:10 a 10% rollout to userId in [a, b] in development; 10:20 development on;
 * 10:30 the rollout to 50% and [a, c]; 10:40 search created, checkout archived; 10:50 checkout deleted.
 */
async function story(h: Harness): Promise<void> {
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => { vi.useRealTimers(); });
  at(T('10:00'));
  await createFlag(h, 'checkout', { description: 'v1' });
  at(T('10:10'));
  const constraints = [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }];
  const s = await addStrategy(h, 'checkout', 'development', { name: 'flexibleRollout', parameters: { rollout: 10, stickiness: 'default', groupId: 'checkout' }, constraints });
  at(T('10:20'));
  await switchOn(h, 'checkout');
  at(T('10:30'));
  const put = await h.req('PUT', `${strategiesPath('checkout', 'development')}/${s.id}`, { name: 'flexibleRollout', parameters: { rollout: 50, stickiness: 'default', groupId: 'checkout' }, constraints: [{ ...constraints[0], values: ['a', 'c'] }] });
  expect(put.status).toBe(200);
  at(T('10:40'));
  await createFlag(h, 'search');
  expect((await h.req('DELETE', flagPath('checkout'))).status).toBe(202);
  at(T('10:50'));
  expect((await h.req('POST', `${featuresPath().replace('/features', '')}/delete`, { features: ['checkout'] })).status).toBe(200);
}

const ok = <T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result.error)}`);
  return result.value;
};

/** What the past views show of the story; asserted before and after a restart. */
async function expectThePast(h: Harness): Promise<void> {
  const before = ok(await projectAt(h.registry, 'default', T('09:59')));
  expect(before.flags).toEqual([]);

  const at1015 = ok(await projectAt(h.registry, 'default', T('10:15')));
  expect(at1015.at).toBe(T('10:10'));
  const checkout = at1015.flags.find((f) => f.name === 'checkout')!;
  expect(checkout.description).toBe('v1');
  expect(checkout.environments['development']!.enabled).toBe(false);
  expect(checkout.environments['development']!.strategies[0]!.parameters['rollout']).toBe('10');

  // A moment exactly on a record's time shows that record.
  const at1030 = ok(await projectAt(h.registry, 'default', T('10:30')));
  const later = at1030.flags.find((f) => f.name === 'checkout')!;
  expect(later.environments['development']!.enabled).toBe(true);
  expect(later.environments['development']!.strategies[0]!.parameters['rollout']).toBe('50');

  const now = ok(await projectAt(h.registry, 'default', T('23:00')));
  expect(now.flags.map((f) => f.name)).toEqual(['search']);
  expect(now.seq).toBe(h.registry.project('default')!.seq);

  const changed = ok(await compareMoments(h.registry, 'default', T('10:15'), '2099-01-01T10:35:00+00:00'));
  expect(changed.flags.map((f) => [f.name, f.status])).toEqual([['checkout', 'changed']]);
  expect(changed.flags[0]!.changes.map((c) => c.text)).toEqual([
    'development: off → on',
    'development › flexibleRollout › rollout: 10 → 50',
    'development › flexibleRollout › constraint userId IN › values: +[c] −[b]',
  ]);
  const whole = ok(await compareMoments(h.registry, 'default', T('10:35'), T('10:45')));
  expect(whole.flags.map((f) => [f.name, f.status])).toEqual([['checkout', 'archived'], ['search', 'created']]);
  const gone = ok(await compareMoments(h.registry, 'default', T('10:15'), T('11:00')));
  expect(gone.flags.map((f) => [f.name, f.status])).toEqual([['checkout', 'deleted'], ['search', 'created']]);
  expect(ok(await compareMoments(h.registry, 'default', T('10:51'), T('12:00'))).flags).toEqual([]);
}

describe('the project as it was, and two moments compared', () => {
  test('states at several moments, the comparison, after a restart too', async ({ h }) => {
    await story(h);
    await expectThePast(h);
    await h.restart();
    await expectThePast(h);
  });

  test('a moment before the project existed, and a date that is not one, are typed errors', async ({ h }) => {
    await story(h);
    const early = await projectAt(h.registry, 'default', '2000-01-01T00:00:00Z');
    expect(early.ok).toBe(false);
    if (early.ok) return;
    expect(early.error.kind).toBe('NotFoundError');
    expect(isMomentError(early.error) && early.error.reason).toBe('before-project');
    expect(early.error.message).toMatch(/did not exist yet at 2000-01-01T00:00:00.000Z: it was created at /);
    const bad = await projectAt(h.registry, 'default', 'yesterday');
    expect(!bad.ok && bad.error.kind).toBe('ValidationError');
    const unknown = await projectAt(h.registry, 'nope', T('10:00'));
    expect(!unknown.ok && unknown.error.kind).toBe('NotFoundError');
  });
});

describe('the history with its diffs and filters', () => {
  test('newest first, each entry with the fields it moved; by flag, kind, person and time', async ({ h }) => {
    await story(h);
    const all = ok(await projectHistory(h.registry, 'default', { limit: 100 }));
    expect(all.entries.map((e) => e.type)).toEqual([
      'flag.deleted', 'flag.archived', 'flag.created', 'strategy.updated', 'flag.enabled', 'strategy.added', 'flag.created', 'project.created',
    ]);
    const update = all.entries.find((e) => e.type === 'strategy.updated')!;
    expect(update.kind).toBe('strategy');
    expect(update.changes.map((c) => c.text)).toEqual([
      'development › flexibleRollout › rollout: 10 → 50',
      'development › flexibleRollout › constraint userId IN › values: +[c] −[b]',
    ]);
    expect(update.changes[0]).toMatchObject({ path: 'development › flexibleRollout › rollout', before: '10', after: '50' });

    const switches = ok(await projectHistory(h.registry, 'default', { kinds: ['switch'] }));
    expect(switches.entries.map((e) => [e.type, e.changes[0]!.text])).toEqual([['flag.enabled', 'development: off → on']]);
    const bySystem = ok(await projectHistory(h.registry, 'default', { by: 'system' }));
    expect(bySystem.entries.map((e) => e.type)).toEqual(['project.created']);
    const admin = all.entries[0]!.by;
    expect(ok(await projectHistory(h.registry, 'default', { by: admin })).entries).toHaveLength(7);
    const window = ok(await projectHistory(h.registry, 'default', { from: T('10:10'), to: '2099-01-01T11:30:00+01:00' }));
    expect(window.entries.map((e) => [e.type, e.at])).toEqual([['strategy.updated', T('10:30')], ['flag.enabled', T('10:20')], ['strategy.added', T('10:10')]]);
    expect(ok(await projectHistory(h.registry, 'default', { to: '1999-01-01T00:00:00Z' })).entries).toEqual([]);

    const timeline = ok(await flagTimeline(h.registry, 'default', 'search'));
    expect(timeline.entries.map((e) => [e.type, e.changes.map((c) => c.text)])).toEqual([['flag.created', ['flag: (none) → created (release)']]]);
    const paged = ok(await flagTimeline(h.registry, 'default', 'checkout', { offset: 1, limit: 2 }));
    expect(paged.entries.map((e) => e.type)).toEqual(['flag.archived', 'strategy.updated']);
    expect(paged.hasMore).toBe(true);
    const bad = await projectHistory(h.registry, 'default', { from: 'soon' });
    expect(!bad.ok && bad.error.message).toMatch(/^from must be a date and time/);
  });

  test('the history endpoint still answers its own page shape', async ({ h }) => {
    await story(h);
    const page = await h.json('GET', '/api/admin/events?project=default&feature=checkout&limit=2');
    expect(page.status).toBe(200);
    expect(page.body.events.map((e: { type: string }) => e.type)).toEqual(['flag.deleted', 'flag.archived']);
    expect(page.body.events[0]).not.toHaveProperty('changes');
  });
});
