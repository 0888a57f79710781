/**
 * Work only one node does happens once across nodes and moves when its node stops: addon deliveries here (a
 * webhook on loopback gets each event once, whichever node committed it), and the snapshot lease.
 */
import { afterEach, expect, test } from 'vitest';
import { cluster, type Cluster } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { receiver, type Receiver } from '../helpers/receiver.js';

const FAST = { UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', ADDON_RETRY_FIRST_MS: '10', ADDON_RETRY_MAX_MS: '40' };
let current: Cluster | null = null;
let r: Receiver | null = null;
afterEach(async () => {
  await current?.close();
  await r?.close();
  current = null;
  r = null;
});

const namesAt = (at: Receiver) => at.received.map((x) => (x.json as { featureName: string }).featureName);
const create = async (node: Harness, name: string) => expect((await node.json('POST', '/api/admin/projects/default/features', { name })).status).toBe(201);

test('an addon gets each event once from several nodes, and from the next node once the one delivering stops', async () => {
  current = await cluster(2, FAST, { deliver: true });
  const [a, b] = current.nodes as [Harness, Harness];
  r = await receiver();
  const created = await a.json('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: `${r.url}/hook` }, events: ['feature-created'] });
  expect(created.status).toBe(201);
  await create(a, 'one');
  await create(b, 'two');
  await create(a, 'three');
  await expect.poll(() => namesAt(r!).sort()).toEqual(['one', 'three', 'two']);
  // Whichever node delivers, the other does not: after a later event, still one request per event.
  await create(b, 'four');
  await expect.poll(() => namesAt(r!).sort()).toEqual(['four', 'one', 'three', 'two']);

  // Stop both one after the other: the survivor takes the lease and delivers what comes next.
  await a.close();
  await create(b, 'five');
  await expect.poll(() => namesAt(r!).filter((name) => name === 'five'), { timeout: 15_000 }).toEqual(['five']);
  expect(namesAt(r!)).toHaveLength(5);
});
