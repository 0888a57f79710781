/**
 * The story both history test files read (the page harness's and chromium's): a few changes through the admin API
 * with the moments between them taken from the clock.
 */
import { expect } from 'vitest';
import { addStrategy, createFlag, strategiesPath, switchOn } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';
import { clockPast } from '../helpers/clock.js';

/** A moment strictly between the last write and the next one (the clock waited past on both sides). */
export async function moment(): Promise<string> {
  await clockPast();
  const now = new Date().toISOString();
  await clockPast(now);
  return now;
}

/**
 * checkout created with a 10% rollout to userId in [a, b] in development (then `beforeSwitch`); development
 * switched on, search created (then `afterSwitch`); the rollout to 50% and [a, c].
 *
 * @example const { beforeSwitch } = await story(h); await pages.get(`/projects/default/at?t=${beforeSwitch}`);
 */
export async function story(h: Harness): Promise<{ beforeSwitch: string; afterSwitch: string }> {
  await createFlag(h, 'checkout', { description: 'The <b>new</b> checkout' });
  const constraints = [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }];
  const s = await addStrategy(h, 'checkout', 'development', { name: 'flexibleRollout', parameters: { rollout: 10, stickiness: 'default', groupId: 'checkout' }, constraints });
  const beforeSwitch = await moment();
  await switchOn(h, 'checkout');
  await createFlag(h, 'search');
  const afterSwitch = await moment();
  const put = await h.req('PUT', `${strategiesPath('checkout', 'development')}/${s.id}`, { name: 'flexibleRollout', parameters: { rollout: 50, stickiness: 'default', groupId: 'checkout' }, constraints: [{ ...constraints[0], values: ['a', 'c'] }] });
  expect(put.status).toBe(200);
  return { beforeSwitch, afterSwitch };
}
