/**
 * A read of the admin API or a console page on one node shows every write another node answered before it;
 * the SDKs' reads carry their revision instead (client-ahead.test.ts).
 */
import { afterEach, expect, test } from 'vitest';
import { cluster, type Cluster } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';

const FEATURES = '/api/admin/projects/default/features';
let current: Cluster | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

test('a write answered on one node is in the next admin read on another, even when that node has not heard of it yet', async () => {
  current = await cluster(2);
  const [a, b] = current.nodes as [Harness, Harness];
  const token = (await a.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] })).body.secret as string;
  await expect.poll(() => b.registry.feed.revision).toBe(a.registry.feed.revision);
  const resume = b.registry.deafen();
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
