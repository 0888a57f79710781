/**
 * A read of the admin API or a console page on one node shows every write another node answered before it;
 * the SDKs' reads carry their revision instead (client-ahead.test.ts).
 */
import { expect, test, vi } from 'vitest';
import { clusterForTest } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

const FEATURES = '/api/admin/projects/default/features';
test('a write answered on one node is in the next admin read on another, even when that node has not heard of it yet', async () => {
  const current = await clusterForTest(2);
  const [a, b] = current.nodes as [Harness, Harness];
  const token = (await a.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] })).body.secret as string;
  await expect.poll(() => b.registry.feed.revision).toBe(a.registry.feed.revision);
  const resume = b.registry.node.deafen();
  expect((await a.json('POST', FEATURES, { name: 'fresh', description: 'v1' })).status).toBe(201);
  // b has not heard of it: its SDK answer (which never waits for the database) does not have it yet...
  expect((await b.json('GET', '/api/client/features', undefined, { token })).body.features).toEqual([]);
  // ...but an admin read catches up first.
  const read = await b.json('GET', `${FEATURES}/fresh`);
  expect(read.status).toBe(200);
  expect(read.body.description).toBe('v1');
  expect((await a.json('PATCH', `${FEATURES}/fresh`, [{ op: 'replace', path: '/description', value: 'v2' }])).status).toBe(200);
  expect((await b.json('GET', `${FEATURES}/fresh`)).body.description).toBe('v2');
  resume();
});

test('a token or a user made on one node is known at once on another that has not heard of it yet', async () => {
  const current = await clusterForTest(2);
  const [a, b] = current.nodes as [Harness, Harness];
  await expect.poll(() => b.registry.feed.revision).toBe(a.registry.feed.revision);
  const resume = b.registry.node.deafen();
  try {
    const admin = (await a.json('POST', '/api/admin/api-tokens', { tokenName: 'script', type: 'admin' })).body.secret as string;
    const listed = await b.json('GET', '/api/admin/projects', undefined, { token: admin });
    expect(listed.status).toBe(200);
    const created = await a.json('POST', '/api/admin/user-admin', { username: 'ops', password: 'tulip-harbour-88', rootRole: 1 });
    expect(created.status).toBe(201);
    const signedIn = await b.req('POST', '/auth/simple/login', { username: 'ops', password: 'tulip-harbour-88' }, { token: null });
    expect(signedIn.status).toBe(200);
  } finally {
    resume();
  }
});

test('a burst of unknown tokens costs the database a few reads of its head, not one per request', async () => {
  const current = await clusterForTest(2);
  const [, b] = current.nodes as [Harness, Harness];
  // The real shared log, counted (store is private to the registry: reached for, not replaced).
  const shared = (b.registry as unknown as { store: { shared: { head: () => Promise<number> } } }).store.shared;
  const head = vi.spyOn(shared, 'head');
  const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => b.req('GET', '/api/admin/projects', undefined, { token: `*:*.no-such-token-${i}` })));
  expect(answers.map((r) => r.status)).toEqual(Array(100).fill(401));
  // One read already running when the burst came, and the one every later request shares.
  expect(head.mock.calls.length).toBeLessThanOrEqual(5);
  head.mockRestore();
});
