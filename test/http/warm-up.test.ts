/**
 * What a start builds in the background once it listens (`app.warm()`, `src/http/warm-up.ts`): the past-view
 * checkpoints of a project with a long log, when they fit the byte budget (`PAST_VIEW_CHECKPOINT_BYTES`), and
 * none when they would not; past views read afterwards are the states they were.
 */
import { expect } from 'vitest';
import { projectAt } from '../../src/queries/past-project.query.js';
import { clockPast } from '../helpers/clock.js';
import { test } from '../helpers/fixtures.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

/** 40 flags, then description edits until the project's log holds `records` records (group commit, 200 at a time). */
async function longLog(h: Harness, records: number): Promise<void> {
  const actor = h.registry.project('default')!;
  for (let i = 0; i < 40; i += 1) await actor.send({ type: 'flag.create', name: `f${i}`, description: '', flagType: 'release', impressionData: false }, 'test');
  await actor.send({ type: 'default-strategy.set', environment: 'development', strategy: { name: 'default' } }, 'test');
  while (actor.seq < records) {
    const sends = Array.from({ length: 200 }, (_, j) => actor.send({ type: 'flag.update', feature: `f${j % 40}`, description: `round ${actor.seq + j}`, flagType: 'release', stale: false, impressionData: false }, 'test'));
    for (const sent of await Promise.all(sends)) expect(sent.ok).toBe(true);
  }
}

test('a start builds the checkpoints of a long log ahead; past views read them', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
  await longLog(h, 4500);
  const middle = (await h.json('GET', '/api/admin/projects/default/features/f7')).body as { description: string };
  const at = new Date().toISOString();
  // Moments are milliseconds: a write in the same millisecond as `at` would belong to it.
  await clockPast(at);
  await longLog(h, 5000);
  expect(h.registry.pastCheckpoints.bytes).toBe(0);
  await h.app.warm();
  expect(h.registry.pastCheckpoints.bytes).toBeGreaterThan(0);
  const past = await projectAt(h.registry, 'default', at);
  expect(past.ok && past.value.flags.find((f) => f.name === 'f7')!.description).toBe(middle.description);
});

test('checkpoints that would not fit the budget are not built at start', { timeout: HEAVY_TEST_MS }, async ({ openHarness }) => {
  const h = await openHarness({ PAST_VIEW_CHECKPOINT_BYTES: '2000' });
  await longLog(h, 4500);
  await h.app.warm();
  expect(h.registry.pastCheckpoints.bytes).toBe(0);
});
