/**
 * A request naming a project (or a flag) this node does not know yet, made a moment ago on another node: a
 * load balancer sends "create the project" to one node and "create its first flag" to the next. The node
 * catches up with the database before it answers 404.
 */
import { expect, test, vi } from 'vitest';
import { clusterForTest } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

async function twoNodes(): Promise<[Harness, Harness]> {
  const current = await clusterForTest(2);
  return current.nodes as [Harness, Harness];
}

test('a write into a project another node just created waits for this node to learn it, then succeeds', async () => {
  const [a, b] = await twoNodes();
  const release = b.registry.node.sequencer.hold();
  expect((await a.json('POST', '/api/admin/projects', { id: 'fresh', name: 'Fresh' })).status).toBe(201);
  expect(b.registry.project('fresh')).toBeUndefined();
  const created = b.json('POST', '/api/admin/projects/fresh/features', { name: 'first' });
  // b cannot learn anything while held: the answer must wait for it, not be a 404 from b's older state.
  const early = await Promise.race([created.then((r) => r.status), new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')))]);
  expect(early).toBe('waiting');
  release();
  expect((await created).status).toBe(201);
});

test('a flag another node just created is found by a route that names the flag alone', async () => {
  const [a, b] = await twoNodes();
  const release = b.registry.node.sequencer.hold();
  expect((await a.json('POST', '/api/admin/projects/default/features', { name: 'tagged' })).status).toBe(201);
  const tagged = b.json('POST', '/api/admin/features/tagged/tags', { type: 'simple', value: 'team-a' });
  release();
  expect((await tagged).status).toBe(201);
});

test('a project unknown on every node is still a 404', async () => {
  const [, b] = await twoNodes();
  const answer = await b.json('POST', '/api/admin/projects/nowhere/features', { name: 'x' });
  expect(answer.status).toBe(404);
  expect(answer.body.message).toBe('Could not find project "nowhere"');
});
