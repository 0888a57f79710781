/**
 * The SDK poll's ETag (`"<query hash>:<revision>"`) for the same content on every node: an SDK a load balancer
 * moves between nodes keeps getting 304s while nothing it sees changed.
 */
import { expect, test, vi } from 'vitest';
import { clusterForTest } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

// b answers before a change the token cannot see, a only after it (fails when each node keeps the revision it
// first computed this content at: the same content with two ETags, a full 200 at every move).
test('nodes that were first asked at different revisions give one ETag for one content at one revision', async () => {
  const current = await clusterForTest(2);
  const [a, b] = current.nodes as [Harness, Harness];
  const token = (await a.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['default'] })).body.secret as string;
  expect((await a.json('POST', '/api/admin/projects/default/features', { name: 'f' })).status).toBe(201);
  await expect.poll(() => b.registry.feed.revision).toBe(a.registry.feed.revision);
  const onB = await b.req('GET', '/api/client/features', undefined, { token });
  // A change the token does not see (another project), after b answered and before a is first asked.
  expect((await a.json('POST', '/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);
  await expect.poll(() => b.registry.feed.revision).toBe(a.registry.feed.revision);
  const onA = await a.req('GET', '/api/client/features', undefined, { token });
  const againOnB = await b.req('GET', '/api/client/features', undefined, { token });
  expect(onB.status).toBe(200);
  expect(onA.headers.get('etag')).toBe(againOnB.headers.get('etag'));
  const moved = await b.req('GET', '/api/client/features', undefined, { token, headers: { 'if-none-match': onA.headers.get('etag')! } });
  expect(moved.status).toBe(304);
});
