/**
 * A segment deleted on one node while strategies naming it are added on another: either the delete is refused
 * (409, the segment stays and is used) or it succeeds and no strategy on any node names it, as on one node.
 */
import { expect, test, vi } from 'vitest';
import { clusterForTest } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

const strategies = (flag: string, environment: string) => `/api/admin/projects/default/features/${flag}/environments/${environment}/strategies`;

/** Every segment id a strategy of `on` references. */
function references(on: Harness): number[] {
  const ids: number[] = [];
  for (const project of on.registry.projectIds()) {
    for (const flag of on.registry.project(project)!.state.flags.values()) {
      for (const entry of Object.values(flag.environments)) for (const s of entry.strategies) ids.push(...s.segments);
    }
  }
  return ids;
}

test('strategies added on one node while another deletes their segment never name a deleted segment', async () => {
  const current = await clusterForTest(2);
  const [a, b] = current.nodes as [Harness, Harness];
  for (const flag of ['f', 'g']) expect((await a.json('POST', '/api/admin/projects/default/features', { name: flag })).status).toBe(201);
  const outcomes = new Set<number>();
  for (let round = 0; round < 6; round += 1) {
    const created = await a.json('POST', '/api/admin/segments', { name: `race-${round}`, constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }] });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    await expect.poll(() => b.registry.service.state.segments[id] !== undefined).toBe(true);
    const add = (i: number) => b.json('POST', strategies(i % 2 === 0 ? 'f' : 'g', i % 3 === 0 ? 'production' : 'development'), { name: 'default', segments: [id] });
    const before = Array.from({ length: 15 }, (_, i) => add(i));
    for (let tick = 0; tick < round * 3; tick += 1) await new Promise((resolve) => setImmediate(resolve));
    const deleted = a.json('DELETE', `/api/admin/segments/${id}`);
    const after = Array.from({ length: 15 }, (_, i) => add(i + 100));
    const adds = await Promise.all([...before, ...after]);
    const { status } = await deleted;
    outcomes.add(status);
    for (const r of adds) expect([200, 400]).toContain(r.status);
    await expect.poll(() => a.registry.feed.revision === b.registry.feed.revision).toBe(true);
    for (const node of [a, b]) {
      const users = references(node).filter((ref) => ref === id);
      if (status === 204) expect(users).toEqual([]);
      else expect(users.length).toBeGreaterThan(0);
    }
  }
  expect([...outcomes].every((s) => s === 204 || s === 409)).toBe(true);
});
