/**
 * A node that no other node has been seen writing beside decides a write on its own state, without reading
 * the database's head first, and commits it only if no other node committed since (`CommitOptions.basis`).
 * When another node did, in any scope, the write is decided again once this node has caught up: the answer
 * is the one a node that knew everything would give.
 */
import { expect, test, vi } from 'vitest';
import { clusterForTest } from '../helpers/cluster.js';
import type { SharedLog } from '../../snapshots/shared-log.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

const FEATURES = '/api/admin/projects/default/features';
/** Two nodes, `b` caught up with `a` and deciding on its own state (no other node seen writing for a while). */
async function quietNodes(): Promise<[Harness, Harness]> {
  const current = await clusterForTest(2);
  const [a, b] = current.nodes as [Harness, Harness];
  expect((await b.json('POST', FEATURES, { name: 'b-own' })).status).toBe(201);
  expect((await b.json('POST', `${FEATURES}/b-own/environments/development/strategies`, { name: 'default' })).status).toBe(200);
  await expect.poll(() => a.registry.feed.revision === b.registry.feed.revision).toBe(true);
  await expect.poll(() => b.registry.node.sequencer.optimistic).toBe(true);
  return [a, b];
}

/** Reads of `node`'s shared log, counted (the store is private to the registry: reached for, not replaced). */
function sharedReads(node: Harness): { heads: () => number; records: () => number; restore: () => void } {
  const shared = (node.registry as unknown as { store: { shared: SharedLog } }).store.shared;
  const head = vi.spyOn(shared, 'head');
  const since = vi.spyOn(shared, 'since');
  return { heads: () => head.mock.calls.length, records: () => since.mock.calls.length, restore: () => vi.restoreAllMocks() };
}

test('a node writing alone decides on its own state and publishes its own records: its writes read neither the head nor the log', async () => {
  const [, b] = await quietNodes();
  const reads = sharedReads(b);
  try {
    // Told of its own commits (every commit notifies every node): its records are not read back.
    const toggles = Array.from({ length: 40 }, (_, i) => b.json('POST', `${FEATURES}/b-own/environments/development/${i % 2 === 0 ? 'on' : 'off'}`));
    expect((await Promise.all(toggles)).map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    // Not following (no read of the head every few seconds): no write reads it either.
    const resume = b.registry.node.deafen();
    const heads = reads.heads();
    for (let i = 0; i < 10; i += 1) expect((await b.json('POST', FEATURES, { name: `alone-${i}` })).status).toBe(201);
    resume();
    expect(reads.heads() - heads).toBe(0);
    expect(reads.records()).toBe(0);
  } finally {
    reads.restore();
  }
});

test('a flag another node created after this node last heard is toggled, not a 404 from the older state', async () => {
  const [a, b] = await quietNodes();
  const resume = b.registry.node.deafen();
  try {
    expect((await a.json('POST', FEATURES, { name: 'made-on-a' })).status).toBe(201);
    expect((await a.json('POST', `${FEATURES}/made-on-a/environments/development/strategies`, { name: 'default' })).status).toBe(200);
    expect(b.registry.project('default')!.state.flags.has('made-on-a')).toBe(false);
    // b's first decision (unknown flag: nothing to write) is checked against the database, refused, and made again.
    expect((await b.json('POST', `${FEATURES}/made-on-a/environments/development/on`)).status).toBe(200);
    expect(b.registry.node.sequencer.optimistic).toBe(false);
  } finally {
    resume();
  }
  await expect.poll(async () => (await a.json('GET', `${FEATURES}/made-on-a`)).body.environments?.find((e: { name: string }) => e.name === 'development')?.enabled).toBe(true);
});

test('a segment another node deleted in another scope is refused to a strategy, never named by one', async () => {
  const [a, b] = await quietNodes();
  const created = await a.json('POST', '/api/admin/segments', { name: 'beta', constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }] });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  await expect.poll(() => b.registry.service.state.segments[id] !== undefined).toBe(true);
  await expect.poll(() => b.registry.node.sequencer.optimistic).toBe(true);
  const resume = b.registry.node.deafen();
  try {
    expect((await a.json('DELETE', `/api/admin/segments/${id}`)).status).toBe(204);
    // b still holds the segment; its write would name it, but another node committed since b's state.
    expect(b.registry.service.state.segments[id]).toBeDefined();
    const added = await b.json('POST', `${FEATURES}/b-own/environments/development/strategies`, { name: 'default', segments: [id] });
    expect(added.status).toBe(400);
  } finally {
    resume();
  }
  await expect.poll(() => a.registry.feed.revision === b.registry.feed.revision).toBe(true);
  for (const node of [a, b]) {
    const strategies = node.registry.project('default')!.state.flags.get('b-own')!.environments['development']!.strategies;
    expect(strategies.flatMap((s) => s.segments)).not.toContain(id);
  }
});
