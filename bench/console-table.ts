/**
 * The console's flag table at scale, in process (`npx tsx bench/console-table.ts [flags]`, default 100,000):
 * a registry on a fresh data directory, one project seeded through its actor (varied types, descriptions, tags,
 * stale, archived and enabled flags), then the server-side time of `FlagTable.page` for the first page, a
 * search and a filter: the first call after the seed (indexes and orders built) and then p50/p99 of repeated
 * calls. The page itself (HTML over HTTP) is measured once it exists; this is the query it calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v from 'valibot';
import { Registry } from '../src/actors/registry.js';
import type { Principal } from '../src/auth/permissions.js';
import { FlagTable } from '../src/queries/flag-table.query.js';
import { SearchIndexes } from '../src/queries/search-index.js';
import { FlagTableQuerySchema } from '../src/schemas/flag-table.schema.js';
import { changeTags, createTagType } from '../src/use-cases/tags.use-cases.js';
import { archiveFlags, markFlagsStale, toggleFlags } from '../src/use-cases/bulk-flags.use-cases.js';

const TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission'] as const;
const WORDS = ['checkout', 'search', 'billing', 'login', 'profile', 'cart', 'export', 'Banner', 'pricing', 'onboarding'];
const BATCH = 2000;
const RUNS = 200;
const ADMIN: Principal = { kind: 'admin', name: 'bench' };

/** `flag-000042`: names sort as they were made. */
export const seededName = (k: number): string => `flag-${String(k).padStart(6, '0')}`;

/**
 * Creates `count` flags in `project` through its actor, in batches, then tags every 10th from the second (`team:<word>`),
 * marks every 20th stale, archives every 50th and switches every 3rd on in `development`, through the bulk use cases.
 */
export async function seedTable(registry: Registry, project: string, count: number): Promise<void> {
  const actor = registry.project(project)!;
  for (let from = 0; from < count; from += BATCH) {
    const sends = Array.from({ length: Math.min(BATCH, count - from) }, (_, j) => {
      const k = from + j;
      return actor.send({ type: 'flag.create', name: seededName(k), description: `${WORDS[k % WORDS.length]} flag number ${k}`, flagType: TYPES[k % TYPES.length]!, impressionData: false }, 'bench');
    });
    for (const decision of await Promise.all(sends)) if (!decision.ok) throw new Error(decision.error.message);
  }
  const every = (n: number, start = 0) => Array.from({ length: Math.ceil((count - start) / n) }, (_, i) => seededName(start + i * n));
  const expectOk = (r: { ok: boolean }) => { if (!r.ok) throw new Error(JSON.stringify(r)); };
  if (!registry.service.state.tagTypes.some((t) => t.name === 'team')) {
    expectOk(await createTagType(registry, { name: 'team', description: '', icon: null, color: null }, ADMIN));
  }
  for (let w = 0; w < WORDS.length; w += 1) {
    const features = every(10, 1).filter((_, i) => i % WORDS.length === w);
    if (features.length > 0) expectOk(await changeTags(registry, { projectId: project, features, added: [{ type: 'team', value: WORDS[w]!.toLowerCase() }], removed: [] }, ADMIN));
  }
  expectOk(await markFlagsStale(registry, { projectId: project, features: every(20), stale: true }, ADMIN));
  expectOk(await archiveFlags(registry, { projectId: project, features: every(50) }, ADMIN));
  // Switching on without a strategy adds the environment's default strategy (as the console offers to).
  expectOk(await actor.send({ type: 'default-strategy.set', environment: 'development', strategy: { name: 'default' } }, 'bench'));
  const on = every(3).filter((_, i) => (i * 3) % 50 !== 0);
  for (let i = 0; i < on.length; i += BATCH) expectOk(await toggleFlags(registry, { projectId: project, features: on.slice(i, i + BATCH), environment: 'development', enabled: true }, ADMIN));
}

const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`;

/** One line of the report: wall-clock and CPU (this process, all threads) p50/p99. */
function report(what: string, extra: string, wall: { p50: number; p99: number }, cpu: { p50: number; p99: number }): void {
  process.stdout.write(`${what.padEnd(38)} ${extra.padEnd(30)} wall p50 ${ms(wall.p50)} p99 ${ms(wall.p99)}   cpu p50 ${ms(cpu.p50)} p99 ${ms(cpu.p99)}\n`);
}

/** p50 and p99 of `samples` (ms). */
function percentiles(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 100_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'flagpole-console-table-'));
  const registry = await Registry.open({ dataDir, initEnvironments: ['development', 'production'] });
  try {
    const seedStart = performance.now();
    await seedTable(registry, 'default', count);
    process.stdout.write(`seeded ${count} flags in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`);
    const table = new FlagTable(registry, new SearchIndexes(() => registry.projectIds()));
    const cases: [string, Record<string, string | string[]>][] = [
      ['first page (createdAt desc)', {}],
      ['first page by name', { sort: 'name' }],
      ['search "checkout"', { q: 'checkout' }],
      ['search "number 4242"', { q: 'number 4242' }],
      ['filter release + on in development', { type: 'release', enabled: 'development:on' }],
      ['filter potentially stale + tag', { stale: 'potentially-stale', tag: 'team:cart' }],
    ];
    const later = Date.now() + 45 * 24 * 3600 * 1000;
    for (const [what, raw] of cases) {
      const query = v.parse(FlagTableQuerySchema, raw);
      const state = registry.project('default')!.state;
      const time = () => {
        const cpu = process.cpuUsage();
        const start = performance.now();
        const page = table.page(state, query, later);
        if (!page.ok) throw new Error(page.error.message);
        const used = process.cpuUsage(cpu);
        return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000, total: page.value.total };
      };
      const first = time();
      const samples = Array.from({ length: RUNS }, time);
      const wall = percentiles(samples.map((s) => s.wall));
      const cpu = percentiles(samples.map((s) => s.cpu));
      report(what, `total ${String(first.total).padStart(6)}  first ${ms(first.wall)}`, wall, cpu);
    }
    // After one write the index is built for the new state version (its orders carried over).
    const afterWrite: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < 20; i += 1) {
      const r = await toggleFlags(registry, { projectId: 'default', features: [seededName(1)], environment: 'development', enabled: i % 2 === 0 }, ADMIN);
      if (!r.ok) throw new Error(r.error.message);
      const cpu = process.cpuUsage();
      const start = performance.now();
      table.page(registry.project('default')!.state, v.parse(FlagTableQuerySchema, {}), later);
      const used = process.cpuUsage(cpu);
      afterWrite.push({ wall: performance.now() - start, cpu: (used.user + used.system) / 1000 });
    }
    report('first page after a switch', '', percentiles(afterWrite.map((s) => s.wall)), percentiles(afterWrite.map((s) => s.cpu)));
    // After a new flag: the orders take it in by binary search, the text grows by its part.
    const afterCreate: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < 20; i += 1) {
      const r = await registry.project('default')!.send({ type: 'flag.create', name: `late-${i}`, description: 'made after the seed', flagType: 'release', impressionData: false }, 'bench');
      if (!r.ok) throw new Error(r.error.message);
      const cpu = process.cpuUsage();
      const start = performance.now();
      table.page(registry.project('default')!.state, v.parse(FlagTableQuerySchema, { q: 'seed' }), later);
      const used = process.cpuUsage(cpu);
      afterCreate.push({ wall: performance.now() - start, cpu: (used.user + used.system) / 1000 });
    }
    report('search after a new flag', '', percentiles(afterCreate.map((s) => s.wall)), percentiles(afterCreate.map((s) => s.cpu)));
  } finally {
    await registry.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
