/**
 * Work only one node does happens once across nodes and moves when its node stops: addon deliveries (a
 * webhook on loopback gets each event once, whichever node committed it); under the snapshot lease, snapshots
 * (with the log trimming after them) and the sweep of expired sessions from the store. A lifecycle stage
 * that SDK reports on two nodes move a flag into at once is recorded once (decided in the project's mailbox).
 */
import { afterEach, expect, test, vi } from 'vitest';
import { cluster, type Cluster } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS, untilState } from '../helpers/wait.js';
import { receiver, type Receiver } from '../helpers/receiver.js';
import { storeOf } from '../helpers/store-of.js';
import { keys } from '../../snapshots/keys.js';
import { clientToken, nodeMetricsBody, postMetrics } from '../http/usage/usage-fixtures.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

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
  await expect.poll(() => namesAt(r!).sort(), untilState()).toEqual(['one', 'three', 'two']);
  // Whichever node delivers, the other does not: after a later event, still one request per event.
  await create(b, 'four');
  await expect.poll(() => namesAt(r!).sort(), untilState()).toEqual(['four', 'one', 'three', 'two']);

  // Stop both one after the other: the survivor takes the lease and delivers what comes next. Closing drops a
  // delivery still being recorded (it goes again at the next start), so `a` closes once the deliverer has handled all.
  await expect.poll(() => [a, b].flatMap((n) => n.registry.deliveries.backlogs()).every((x) => x.waiting === 0), untilState()).toBe(true);
  await a.close();
  await create(b, 'five');
  await expect.poll(() => namesAt(r!).filter((name) => name === 'five'), untilState()).toEqual(['five']);
  expect(namesAt(r!)).toHaveLength(5);
});

/** Whether `node` holds the snapshot lease now. */
const holdsSnapshotLease = (node: Harness): boolean => node.registry['node'].snapshotLease?.held ?? false;

/** The node of `nodes` holding the snapshot lease, once one does, and the other. */
async function leaseHolder(nodes: [Harness, Harness]): Promise<[Harness, Harness]> {
  await expect.poll(() => nodes.filter(holdsSnapshotLease).length, untilState()).toBe(1);
  return holdsSnapshotLease(nodes[0]) ? nodes : [nodes[1], nodes[0]];
}

test('snapshots are written by the node holding the snapshot lease only, and by the other once it stops', async () => {
  current = await cluster(2, { SNAPSHOT_EVERY: '3', LOG_RETENTION: '2' });
  const [holder, other] = await leaseHolder(current.nodes as [Harness, Harness]);
  const written = new Map<Harness, number>([[holder, 0], [other, 0]]);
  for (const node of [holder, other]) {
    const metrics = node.registry.observers.snapshot;
    node.registry.observers.snapshot = (ms, bytes) => { written.set(node, written.get(node)! + 1); metrics?.(ms, bytes); };
  }
  for (let i = 0; i < 12; i += 1) await create(i % 2 === 0 ? holder : other, `flag-${i}`);
  await expect.poll(() => written.get(holder), untilState()).toBeGreaterThan(0);
  expect(written.get(other)).toBe(0);

  await holder.close();
  await expect.poll(() => holdsSnapshotLease(other), untilState()).toBe(true);
  for (let i = 12; i < 20; i += 1) await create(other, `flag-${i}`);
  await expect.poll(() => written.get(other), untilState()).toBeGreaterThan(0);
});

test('expired sessions are swept from the store by the node holding the snapshot lease; the other only forgets its own', async () => {
  current = await cluster(2, { SESSION_IDLE_MINUTES: '60' });
  const [holder, other] = await leaseHolder(current.nodes as [Harness, Harness]);
  const t0 = Date.now();
  await holder.registry.sessions.create('on-holder', { userId: 1, tokenHash: null, passwordStamp: 'stamp', createdAt: t0, lastUsedAt: t0 });
  await other.registry.sessions.create('on-other', { userId: 1, tokenHash: null, passwordStamp: 'stamp', createdAt: t0, lastUsedAt: t0 });
  const stored = async () => (await Promise.all(['on-holder', 'on-other'].map((hash) => storeOf(other.registry).get(keys.session(hash))))).filter((v) => v !== undefined).length;
  const later = t0 + 2 * 60 * 60_000;
  // The other node's sweep, two hours on: it forgets the session it held, and leaves the store to the holder.
  await other.registry.sessions['sweep'](later);
  expect(other.registry.sessions.size).toBe(0);
  expect(await stored()).toBe(2);
  await holder.registry.sessions['sweep'](later);
  expect(await stored()).toBe(0);
  expect(holder.registry.sessions.size).toBe(0);
});

test('a flag reported from production on two nodes at once enters its stage once', async () => {
  current = await cluster(2);
  const [a, b] = current.nodes as [Harness, Harness];
  await create(a, 'checkout');
  const token = await clientToken(a, 'production');
  await expect.poll(async () => (await b.req('GET', '/api/client/features', undefined, { token })).status, untilState()).toBe(200);
  const report = (node: Harness) => postMetrics(node, token, nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }));
  await Promise.all([report(a), report(b), report(a), report(b)]);
  for (const node of [a, b]) {
    await expect.poll(async () => ((await node.json('GET', '/api/admin/projects/default/features/checkout')).body.lifecycle as { stage: string }).stage, untilState()).toBe('pre-live');
    const types = ((await node.json('GET', '/api/admin/events?project=default&feature=checkout')).body.events as { type: string }[]).map((e) => e.type);
    expect(types.filter((type) => type === 'flag.stages-entered')).toHaveLength(1);
  }
});
