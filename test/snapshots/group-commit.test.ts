import { expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { ok } from './fixtures.js';
import { storeOf } from '../helpers/store-of.js';

test('concurrent commands, in one project or several, share synced batches (group commit)', async ({ h }) => {
  await ok(h, 'POST', '/api/admin/projects', { id: 'beta', name: 'Beta' });
  const before = { ...storeOf(h.registry).stats };
  const creates = ['default', 'beta'].flatMap((project) =>
    Array.from({ length: 40 }, (_, i) => h.json('POST', `/api/admin/projects/${project}/features`, { name: `f${i}` })));
  const answers = await Promise.all(creates);
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
  const batches = storeOf(h.registry).stats.batches - before.batches;
  const ops = storeOf(h.registry).stats.ops - before.ops;
  expect(ops).toBe(80);
  // One fsync per write would be 80 batches; the first command of each project opens a batch, the rest join.
  expect(batches).toBeLessThanOrEqual(4);
  expect(h.registry.project('default')!.state.flags.size + h.registry.project('beta')!.state.flags.size).toBe(80);
});
