/**
 * The console's flag table query (`src/queries/flag-table.query.ts`) over a real registry: flags made through
 * the API (or, for 10,000 of them, through the project's actor and the bulk use cases), the table read with
 * its URL state parsed by the page's schema. The rows, the marks, each filter, sort and paging; then a
 * differential check at 10,000 flags against a plain filter-and-sort of the committed flags, before and after
 * writes that the search indexes carry over (switches, a type change, tags, new flags, deleted ones).
 */
import * as v from 'valibot';
import { describe, expect } from 'vitest';
import type { Flag } from '../../src/domain/types.js';
import { FlagTable, type FlagTablePage } from '../../src/queries/flag-table.query.js';
import { FeatureSearch } from '../../src/queries/search.query.js';
import { FlagTableQuerySchema, type FlagTableQuery } from '../../src/schemas/flag-table.schema.js';
import { clockPast } from '../helpers/clock.js';
import { ADMIN, seededName, seedTable } from '../helpers/flag-table-seed.js';
import { test } from '../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';
import { clientToken, nodeMetricsBody, postMetrics } from '../http/usage/usage-fixtures.js';
import { toggleFlags } from '../../src/use-cases/bulk-flags.use-cases.js';

const DAY = 24 * 3600 * 1000;

/** The table of `h`'s app data, over a search's indexes (as the app shares them). */
function tableOf(h: Harness) {
  const search = new FeatureSearch(h.registry);
  const table = new FlagTable(h.registry, search.indexes);
  const page = (raw: Record<string, string | string[]> = {}, now = Date.now()): FlagTablePage => {
    const result = table.page(h.registry.project('default')!.state, v.parse(FlagTableQuerySchema, raw), now);
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };
  return { search, table, page, names: (raw: Record<string, string | string[]> = {}, now?: number) => page({ limit: '100', ...raw }, now).rows.map((r) => r.name) };
}

async function tag(h: Harness, flag: string, type: string, value: string) {
  const r = await h.json('PUT', '/api/admin/projects/default/tags', { features: [flag], tags: { addedTags: [{ type, value }], removedTags: [] } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

async function markStale(h: Harness, flag: string) {
  expect((await h.req('POST', '/api/admin/projects/default/stale', { features: [flag], stale: true })).status).toBe(202);
}

/** Until the clock has moved past this millisecond: the next write gets a later time. */
const nextMillisecond = () => clockPast();

describe('a page', () => {
  test('a row: name, description, type, created, last seen, mark, lifecycle stage (pre-live: reported from production while off there), tags, and per environment on/off, enabled strategy, strategy count; one row alone', async ({ h }) => {
    await createFlag(h, 'checkout', { description: 'New basket', type: 'experiment' });
    await tag(h, 'checkout', 'simple', 'beta');
    await addStrategy(h, 'checkout', 'development');
    await addStrategy(h, 'checkout', 'development', { name: 'default', disabled: true });
    await switchOn(h, 'checkout', 'development');
    await addStrategy(h, 'checkout', 'production', { name: 'default', disabled: true });
    await postMetrics(h, await clientToken(h, 'production'), nodeMetricsBody({ checkout: { yes: 3, no: 1, variants: {} } }));
    await h.registry.usage.flush();
    const { body: detail, headers } = await h.json('GET', flagPath('checkout'));
    const { page } = tableOf(h);
    expect(page()).toEqual({
      total: 1, offset: 0, limit: 50,
      environments: [{ name: 'development', type: 'development' }, { name: 'production', type: 'production' }],
      rows: [{
        name: 'checkout', description: 'New basket', type: 'experiment', createdAt: detail.createdAt, lastSeenAt: expect.any(String),
        mark: 'fresh', stage: 'pre-live', archivedAt: null, tags: [{ type: 'simple', value: 'beta' }], version: Number(headers.get('etag')!.replaceAll('"', '')),
        shown: `${headers.get('etag')!.replaceAll('"', '')}:pre-live`,
        environments: [
          { name: 'development', enabled: true, hasEnabledStrategy: true, strategyCount: 2 },
          { name: 'production', enabled: false, hasEnabledStrategy: false, strategyCount: 1 },
        ],
      }],
    });
    expect(Date.parse(page().rows[0]!.lastSeenAt!)).toBeGreaterThanOrEqual(Date.parse(detail.createdAt));
    const { table } = tableOf(h);
    const state = h.registry.project('default')!.state;
    expect(table.row(state, 'checkout')).toEqual({ ok: true, value: page().rows[0] });
    expect(table.row(state, 'nothing')).toEqual({ ok: false, error: expect.objectContaining({ kind: 'NotFoundError', message: 'Could not find feature flag "nothing" in project "default"' }) });
  });

  test('marks: stale, potentially stale past the type’s lifetime (release and experiment 40 days, operational 7, never for kill-switch and permission), archived', async ({ h }) => {
    for (const type of ['release', 'experiment', 'operational', 'kill-switch', 'permission']) await createFlag(h, type, { type });
    await createFlag(h, 'marked', { type: 'kill-switch' });
    await markStale(h, 'marked');
    await createFlag(h, 'gone');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    const { page } = tableOf(h);
    const marks = (now: number) => Object.fromEntries(page({}, now).rows.map((r) => [r.name, r.mark]));
    const now = Date.now();
    expect(marks(now)).toEqual({ release: 'fresh', experiment: 'fresh', operational: 'fresh', 'kill-switch': 'fresh', permission: 'fresh', marked: 'stale' });
    expect(marks(now + 8 * DAY)).toMatchObject({ release: 'fresh', experiment: 'fresh', operational: 'potentially-stale' });
    expect(marks(now + 41 * DAY)).toEqual({ release: 'potentially-stale', experiment: 'potentially-stale', operational: 'potentially-stale', 'kill-switch': 'fresh', permission: 'fresh', marked: 'stale' });
    expect(page({ archived: 'true' }).rows.map((r) => [r.name, r.mark, typeof r.archivedAt])).toEqual([['gone', 'archived', 'string']]);
  });

  test('filters: free text in name or description (case-insensitive, literal), type, staleness, tag, on/off per environment, archived; combined', async ({ h }) => {
    await createFlag(h, 'Checkout-v2', { description: 'New BASKET (50%)', type: 'release' });
    await createFlag(h, 'login', { description: 'sso', type: 'operational' });
    await createFlag(h, 'banner', { type: 'kill-switch' });
    await createFlag(h, 'old', { type: 'release' });
    await markStale(h, 'old');
    await tag(h, 'login', 'simple', 'beta');
    await tag(h, 'banner', 'simple', 'beta');
    await tag(h, 'banner', 'simple', 'team-a');
    await addStrategy(h, 'login', 'production');
    await switchOn(h, 'login', 'production');
    await addStrategy(h, 'banner', 'development');
    await switchOn(h, 'banner', 'development');
    const { names } = tableOf(h);
    const set = async (raw: Record<string, string | string[]>, now?: number) => new Set(names(raw, now));
    expect(await set({ q: 'checkout' })).toEqual(new Set(['Checkout-v2']));
    expect(await set({ q: ' basket (50%) ' })).toEqual(new Set(['Checkout-v2']));
    expect(await set({ q: 'SSO' })).toEqual(new Set(['login']));
    expect(await set({ q: 'o' })).toEqual(new Set(['Checkout-v2', 'login', 'old']));
    expect(await set({ type: ['release', 'kill-switch'] })).toEqual(new Set(['Checkout-v2', 'banner', 'old']));
    expect(await set({ stale: 'stale' })).toEqual(new Set(['old']));
    expect(await set({ stale: 'potentially-stale' }, Date.now() + 8 * DAY)).toEqual(new Set(['login']));
    expect(await set({ stale: ['fresh', 'stale'] }, Date.now() + 8 * DAY)).toEqual(new Set(['Checkout-v2', 'banner', 'old']));
    expect(await set({ tag: 'simple:beta' })).toEqual(new Set(['login', 'banner']));
    expect(await set({ tag: ['simple:beta', 'simple:team-a'] })).toEqual(new Set(['banner']));
    expect(await set({ enabled: 'production:on' })).toEqual(new Set(['login']));
    expect(await set({ enabled: ['production:off', 'development:off'] })).toEqual(new Set(['Checkout-v2', 'old']));
    expect(await set({ q: 'n', tag: 'simple:beta', enabled: 'development:on', type: 'kill-switch' })).toEqual(new Set(['banner']));
    expect(await set({ archived: 'true' })).toEqual(new Set());
    expect(tableOf(h).page({ tag: 'simple:nobody' })).toMatchObject({ rows: [], total: 0 });
  });

  test('an environment the project is not connected to is a 400 naming `enabled`', async ({ h }) => {
    const { table } = tableOf(h);
    const result = table.page(h.registry.project('default')!.state, v.parse(FlagTableQuerySchema, { enabled: 'staging:on' }));
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ kind: 'ValidationError', message: '"enabled": project "default" has no environment "staging"' }) });
  });

  test('sort by name, type, createdAt (default: newest first) and lastSeenAt (never seen last), then createdAt and name; pages with a total', async ({ h }) => {
    for (const [name, type] of [['b', 'release'], ['a', 'operational'], ['c', 'experiment']] as const) {
      await createFlag(h, name, { type });
      await nextMillisecond();
    }
    await postMetrics(h, await clientToken(h), nodeMetricsBody({ c: { yes: 1, no: 0, variants: {} } }));
    await h.registry.usage.flush();
    const { names, page } = tableOf(h);
    expect(names()).toEqual(['c', 'a', 'b']);
    expect(names({ order: 'asc' })).toEqual(['b', 'a', 'c']);
    expect(names({ sort: 'name' })).toEqual(['a', 'b', 'c']);
    expect(names({ sort: 'name', order: 'desc' })).toEqual(['c', 'b', 'a']);
    expect(names({ sort: 'type' })).toEqual(['c', 'a', 'b']);
    expect(names({ sort: 'lastSeenAt' })).toEqual(['c', 'b', 'a']);
    expect(names({ sort: 'lastSeenAt', order: 'asc' })).toEqual(['c', 'b', 'a']);
    expect(page({ sort: 'name', offset: '1', limit: '1' })).toMatchObject({ total: 3, offset: 1, limit: 1, rows: [{ name: 'b' }] });
    expect(page({ offset: '5' })).toMatchObject({ total: 3, rows: [] });
  });
});

/** What the table must answer, computed plainly from the committed flags. */
function expected(flags: Flag[], query: FlagTableQuery, now: number, lastSeen: (name: string) => string | null): { names: string[]; total: number } {
  const lifetime: Record<string, number | null> = { release: 40, experiment: 40, operational: 7, 'kill-switch': null, permission: null };
  const staleness = (f: Flag) => (f.stale ? 'stale' : lifetime[f.type] !== null && Date.parse(f.createdAt) + lifetime[f.type]! * DAY < now ? 'potentially-stale' : 'fresh');
  const kept = flags.filter((f) => f.archived === query.archived
    && (!query.q || `${f.name}\u0001${f.description}`.toLowerCase().includes(query.q))
    && (query.type.length === 0 || (query.type as string[]).includes(f.type))
    && (query.stale.length === 0 || (query.stale as string[]).includes(staleness(f)))
    && query.tag.every((w) => (f.tags ?? []).some((t) => t.type === w.type && t.value === w.value))
    && query.enabled.every((e) => (f.environments[e.environment]?.enabled ?? false) === e.on));
  const cmp = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
  const sign = query.order === 'desc' ? -1 : 1;
  const key = (f: Flag) => (query.sort === 'lastSeenAt' ? lastSeen(f.name) : query.sort === 'createdAt' ? f.createdAt : f[query.sort]);
  kept.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const byKey = ka === null || kb === null ? cmp(ka, kb) : sign * cmp(ka, kb);
    if (query.sort === 'createdAt') return byKey || cmp(a.name, b.name);
    return byKey || cmp(a.createdAt, b.createdAt) || cmp(a.name, b.name);
  });
  return { names: kept.slice(query.offset, query.offset + query.limit).map((f) => f.name), total: kept.length };
}

describe('at 10,000 flags', () => {
  const QUERIES: Record<string, string | string[]>[] = [
    {}, { order: 'asc' }, { sort: 'name', offset: '4990' }, { sort: 'name', order: 'desc' }, { sort: 'type', offset: '2000' }, { sort: 'type', order: 'desc' }, { sort: 'lastSeenAt', limit: '100' },
    { q: 'checkout' }, { q: 'NUMBER 42', sort: 'name' }, { q: 'banner', type: 'release' }, { type: ['operational', 'permission'], sort: 'name', offset: '100' },
    { stale: 'stale' }, { stale: 'potentially-stale', sort: 'name' }, { stale: 'fresh', enabled: 'development:on' }, { tag: 'team:cart' },
    { enabled: ['development:on', 'production:off'], sort: 'name', order: 'desc', offset: '50' }, { archived: 'true', sort: 'name' }, { archived: 'true', stale: 'stale' },
  ];

  test('every query answers as a plain filter-and-sort of the flags, before and after writes the indexes carry over', { timeout: HEAVY_TEST_MS }, async ({ h }) => {
    await seedTable(h.registry, 'default', 10_000);
    await postMetrics(h, await clientToken(h), nodeMetricsBody({ [seededName(7)]: { yes: 1, no: 0, variants: {} }, [seededName(9001)]: { yes: 0, no: 2, variants: {} } }));
    await h.registry.usage.flush();
    const { page, search } = tableOf(h);
    const check = (label: string) => {
      const flags = [...h.registry.project('default')!.state.flags.values()];
      for (const now of [Date.now(), Date.now() + 8 * DAY, Date.now() + 41 * DAY]) {
        for (const raw of QUERIES) {
          const answer = page(raw, now);
          const want = expected(flags, v.parse(FlagTableQuerySchema, raw), now, (name) => h.registry.usage.counts.seen('default', name).lastSeenAt);
          expect({ names: answer.rows.map((r) => r.name), total: answer.total }, `${label} ${JSON.stringify(raw)}`).toEqual(want);
        }
      }
      // The search API reads the same indexes and orders.
      const searched = search.search({ sortBy: 'name', offset: 5000, limit: 10 });
      expect(searched.features.map((f) => f.name), label).toEqual(flags.filter((f) => !f.archived).map((f) => f.name).sort().slice(5000, 5010));
    };
    check('seeded');
    const actor = h.registry.project('default')!;
    expect((await toggleFlags(h.registry, { projectId: 'default', features: [seededName(1), seededName(3)], environment: 'development', enabled: true }, ADMIN)).ok).toBe(true);
    check('after switching two flags');
    expect((await actor.send({ type: 'flag.update', feature: seededName(4), description: 'Now a CHECKOUT flag', flagType: 'release', stale: false, impressionData: false }, 'test')).ok).toBe(true);
    check('after changing a type and a description');
    for (const name of ['zz-new', 'aa-new', 'flag-005111-b']) {
      expect((await actor.send({ type: 'flag.create', name, description: 'banner made later', flagType: 'operational', impressionData: false }, 'test')).ok).toBe(true);
    }
    check('after new flags');
    expect((await actor.send({ type: 'flag.delete-archived', features: [seededName(0), seededName(5000)] }, 'test')).ok).toBe(true);
    check('after deleting archived flags');
  });
});
