/**
 * A project's first search index built ahead, in slices (`SearchIndexes.warm`, `FlagTable.warm`): what the warm
 * build keeps is what a read would have built; a read during the build (or after a write under it) answers
 * as a fresh table does; the build yields between slices, so other work runs while it goes on.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as v from 'valibot';
import { describe, expect } from 'vitest';
import { FlagTable, type FlagTablePage } from '../../../src/queries/flag-table/flag-table.query.js';
import { SearchIndexes } from '../../../src/queries/search/search-index.js';
import { FlagTableQuerySchema } from '../../../src/schemas/flag-table.schema.js';
import { toggleFlags } from '../../../src/use-cases/bulk-flags.use-cases.js';
import { ADMIN, seededName, seedTable } from '../../helpers/flag-table-seed.js';
import { harnessTest, test } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';
import { HEAVY_TEST_MS } from '../../helpers/wait.js';

const FLAGS = 20_000;

/** A table over indexes of its own, and its page for `raw` (the URL state) at a fixed moment. */
function tableOf(h: Harness) {
  const indexes = new SearchIndexes(() => h.registry.projectIds());
  const table = new FlagTable(h.registry, indexes);
  const page = (raw: Record<string, string> = {}): FlagTablePage => {
    const result = table.page(h.registry.project('default')!.state, v.parse(FlagTableQuerySchema, raw), Date.parse('2030-01-01T00:00:00Z'));
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };
  return { indexes, table, page };
}

const state = (h: Harness) => h.registry.project('default')!.state;

/**
 * One harness of {@link FLAGS} seeded flags for the tests that only read it (each checks the project's version is
 * unchanged at its end): seeding 20,000 flags costs about 1.5 s of CPU, paid once instead of once per test.
 */
const seededTest = harnessTest({ scope: 'file', arrange: (h) => seedTable(h.registry, 'default', FLAGS) });

describe('the warm build of a first index', () => {
  seededTest('keeps the index a read would build: the same entries and text, found by the same searches', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    const seeded = state(h).version;
    const warmed = tableOf(h);
    await warmed.indexes.warm('default', state(h));
    const kept = warmed.indexes.index('default', state(h));
    // Kept, not built again by the read.
    expect(warmed.indexes.index('default', state(h))).toBe(kept);
    const fresh = tableOf(h).indexes.index('default', state(h));
    expect(kept.version).toBe(fresh.version);
    expect(kept.text).toBe(fresh.text);
    expect(Array.from(kept.starts)).toEqual(Array.from(fresh.starts));
    expect(kept.base.map((e) => e.flag)).toEqual(fresh.base.map((e) => e.flag));
    for (const raw of [{}, { q: 'checkout' }, { q: 'number 1999' }, { sort: 'name', offset: '150' }] as Record<string, string>[]) expect(warmed.page(raw)).toEqual(tableOf(h).page(raw));
    expect(state(h).version).toBe(seeded);
  });

  seededTest('yields between slices: other work runs before the build is done', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    const seeded = state(h).version;
    // Slices of no time: a yield every 256 flags.
    const indexes = new SearchIndexes(() => h.registry.projectIds(), 0);
    let done = false;
    const warming = indexes.warm('default', state(h)).then(() => { done = true; });
    let turns = 0;
    while (!done) {
      await nextTurn();
      turns += 1;
    }
    await warming;
    expect(turns).toBeGreaterThan(FLAGS / 256 / 2);
    expect(indexes.index('default', state(h)).base).toHaveLength(FLAGS);
    expect(state(h).version).toBe(seeded);
  });

  seededTest('a page asked while the build runs finishes it and answers as a fresh table', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    const seeded = state(h).version;
    const { indexes, page } = tableOf(h);
    const warming = indexes.warm('default', state(h));
    await nextTurn();
    const first = page({ q: 'billing' });
    expect(first).toEqual(tableOf(h).page({ q: 'billing' }));
    const built = indexes.index('default', state(h));
    await warming;
    // The warm build, finished by the read, is not kept over it a second time.
    expect(indexes.index('default', state(h))).toBe(built);
    expect(state(h).version).toBe(seeded);
  });

  test('a write under the build: it starts over, and pages show the write', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    await seedTable(h.registry, 'default', FLAGS);
    const { indexes, page } = tableOf(h);
    const warming = indexes.warm('default', state(h));
    await nextTurn();
    const write = toggleFlags(h.registry, { projectId: 'default', features: [seededName(FLAGS - 1)], environment: 'production', enabled: false }, ADMIN);
    const created = h.registry.project('default')!.send({ type: 'flag.create', name: 'made-while-warming', description: 'checkout late', flagType: 'release', impressionData: false }, 'test');
    expect((await write).ok).toBe(true);
    expect((await created).ok).toBe(true);
    await warming;
    const kept = indexes.index('default', state(h));
    expect(kept.version).toBe(state(h).version);
    expect(kept.base.map((e) => e.flag.name)).toEqual([...state(h).flags.keys()]);
    expect(page({ q: 'checkout late' }).rows.map((r) => r.name)).toEqual(['made-while-warming']);
    for (const raw of [{}, { q: 'checkout' }, { enabled: 'development:on', sort: 'name' }] as Record<string, string>[]) expect(page(raw)).toEqual(tableOf(h).page(raw));
  });
});

test('FlagTable.warm builds every project\'s first page ahead: the first page reads the kept index and order', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
  await seedTable(h.registry, 'default', 2000);
  const { indexes, table, page } = tableOf(h);
  await table.warm();
  const kept = indexes.index('default', state(h));
  expect(kept.orders.size).toBe(1);
  const order = [...kept.orders.values()][0]!.positions;
  expect(page().rows.map((r) => r.name)).toEqual(tableOf(h).page().rows.map((r) => r.name));
  // The page used the order the warm-up sorted, not one of its own.
  expect(indexes.index('default', state(h)).orders.size).toBe(1);
  expect([...indexes.index('default', state(h)).orders.values()][0]!.positions).toBe(order);
});
