/**
 * The console's history phase (issue 31 §4): the past view and the comparison of two moments on a project of
 * 10,000 flags with 100,000 commands in its log, each under a second. The project is built in process through
 * its actor (group commit, 500 commands at a time; the records' times spread over the build), the registry is
 * reopened (recovered from disk, as after a restart), then the queries the history pages call are timed
 * in process: for reference a past view with no checkpoint (a replay from the snapshot before it); then, reopened again,
 * the checkpoints built in the background as a server start does, with a past view mid-log and one near the
 * end asked at once; then {@link SAMPLES} past views and comparisons at moments spread over the whole log.
 *
 * Run alone: `node --import tsx bench/console-history.ts [--flags 10000] [--commands 100000] [--samples 100]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HistoryQuery } from '../src/actors/past/history.js';
import { Registry } from '../src/actors/registry.js';
import type { ProjectCommand } from '../src/domain/commands.js';
import { compareMoments, projectAt } from '../src/queries/history/past-project.query.js';
import type { ScaleRow } from './scale.js';

export interface ConsoleHistoryOptions {
  workDir: string;
  flags: number;
  commands: number;
  samples: number;
}

const SAMPLES = 100;
const GOAL_MS = 1000;
const PROJECT = 'default';

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The commands of the build: each flag created, given a gradual rollout, then switched, re-rolled and described in turn. */
function* commands(flags: number, total: number): Generator<ProjectCommand> {
  for (let i = 0; i < flags; i += 1) yield { type: 'flag.create', name: `flag-${i}`, description: '', flagType: 'release', impressionData: false };
  for (let i = 0; i < flags; i += 1) {
    yield { type: 'strategy.add', feature: `flag-${i}`, environment: 'development', strategy: { name: 'flexibleRollout', parameters: { rollout: '10', stickiness: 'default', groupId: `flag-${i}` }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'], caseInsensitive: false, inverted: false }] } };
  }
  for (let n = 2 * flags, round = 0; n < total; round += 1) {
    for (let i = 0; i < flags && n < total; i += 1, n += 1) {
      const feature = `flag-${i}`;
      switch (round % 4) {
        case 0: yield { type: 'flag.enable', feature, environment: 'development' }; break;
        case 1: yield { type: 'flag.update', feature, description: `round ${round}`, flagType: 'release', stale: round % 8 === 1, impressionData: false }; break;
        case 2: yield { type: 'flag.disable', feature, environment: 'development' }; break;
        default: yield { type: 'flag.update', feature, description: `round ${round}`, flagType: 'experiment', stale: false, impressionData: false };
      }
    }
  }
}

async function build(registry: Registry, flags: number, total: number): Promise<void> {
  const actor = registry.project(PROJECT)!;
  let batch: Promise<unknown>[] = [];
  for (const command of commands(flags, total)) {
    batch.push(actor.send(command, 'user:1'));
    if (batch.length === 500) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}

async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await run();
  return [performance.now() - start, value];
}

const row = (measure: string, value: string, met?: boolean): ScaleRow => ({ measure, value, goal: met === undefined ? '' : `< ${GOAL_MS} ms`, met });

/** Builds the project, reopens it, and times the past view and the comparison; one row per figure. */
export async function runConsoleHistory(options: ConsoleHistoryOptions): Promise<ScaleRow[]> {
  const dataDir = join(options.workDir, 'history-data');
  const open = () => Registry.open({ dataDir, initEnvironments: ['development', 'production'] });
  let registry = await open();
  const [buildMs] = await timed(() => build(registry, options.flags, options.commands));
  const records = registry.project(PROJECT)!.seq;
  await registry.close();
  registry = await open();
  const rows: ScaleRow[] = [row(`build ${options.flags} flags, ${records} log records (in process)`, `${(buildMs / 1000).toFixed(1)} s`)];
  try {
    const past = registry.past(PROJECT);
    if (!past.ok) throw new Error(past.error.message);
    // Moments are spread from the first flag's creation to the last record (read without warming anything).
    const newest = async (query: Omit<HistoryQuery, 'offset' | 'limit'>) => {
      const page = await past.value.history({ ...query, offset: 0, limit: 1 });
      if (!page.ok) throw new Error(page.error.message);
      return Date.parse(page.value.events[0]!.at);
    };
    const lowest = await newest({ feature: 'flag-0', types: new Set(['flag.created']) });
    const highest = await newest({});
    const moment = (i: number) => new Date(lowest + ((highest - lowest) * (i + 0.5)) / options.samples).toISOString();
    const mid = moment(Math.floor(options.samples / 2));
    const late = moment(options.samples - 1);
    const [coldMs, cold] = await timed(() => projectAt(registry, PROJECT, mid));
    if (!cold.ok) throw new Error(cold.error.message);
    rows.push(row('reference: a past view mid-log with no checkpoint and no start-up warm-up (from the snapshot before it)', `${coldMs.toFixed(0)} ms`));
    // As a server start does (`warm-up.ts`): checkpoints built in the background; views asked at once wait for them.
    await registry.close();
    registry = await open();
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = registry.past(PROJECT);
    if (!started.ok) throw new Error(started.error.message);
    const warming = timed(() => started.value.warm());
    const [firstMs, first] = await timed(() => projectAt(registry, PROJECT, mid));
    const [lateMs, lateView] = await timed(() => projectAt(registry, PROJECT, late));
    if (!first.ok || !lateView.ok) throw new Error('past view failed');
    rows.push(row('first past view at once after a start, mid-log (start-up checkpoints still being built)', `${firstMs.toFixed(0)} ms`, firstMs < GOAL_MS));
    rows.push(row('then a past view near the end of the log', `${lateMs.toFixed(0)} ms`, lateMs < GOAL_MS));
    const [warmMs] = await warming;
    rows.push(row('checkpoints built to the end of the log by the start-up warm-up', `${warmMs.toFixed(0)} ms`));
    const views: number[] = [];
    const comparisons: number[] = [];
    const order = Array.from({ length: options.samples }, (_, i) => (i * 7919) % options.samples);
    let changed = 0;
    for (const i of order) {
      const [ms, view] = await timed(() => projectAt(registry, PROJECT, moment(i)));
      if (!view.ok || view.value.flags.length === 0) throw new Error(`past view at ${moment(i)}: ${view.ok ? 'no flag' : view.error.message}`);
      views.push(ms);
      const j = (i + Math.ceil(options.samples / 3)) % options.samples;
      const [cms, comparison] = await timed(() => compareMoments(registry, PROJECT, moment(Math.min(i, j)), moment(Math.max(i, j))));
      if (!comparison.ok) throw new Error(comparison.error.message);
      changed += comparison.value.flags.length;
      comparisons.push(cms);
    }
    global.gc?.();
    const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
    rows.push(row('checkpoint bytes as estimated for the budget (PAST_VIEW_CHECKPOINT_BYTES)', `${(registry.pastCheckpoints.bytes / 2 ** 20).toFixed(0)} MiB`));
    for (const [what, list] of [['past view of the whole project', views], ['comparison of two moments', comparisons]] as const) {
      const sorted = [...list].sort((a, b) => a - b);
      const p99 = percentile(sorted, 99);
      const figures = [50, 90, 99].map((p) => percentile(sorted, p).toFixed(0)).join(' / ');
      rows.push(row(`${what}, ${options.samples} moments over the log: p50 / p90 / p99`, `${figures} ms`, p99 < GOAL_MS));
    }
    rows.push(row('flags differing per comparison (mean)', String(Math.round(changed / options.samples))));
    rows.push(row('heap held by the checkpoints (after the samples; run with --expose-gc)', `${heapMiB.toFixed(0)} MiB`));
  } finally {
    await registry.close();
  }
  return rows;
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const workDir = await mkdtemp(join(os.tmpdir(), 'flagpole-bench-history-'));
  try {
    const rows = await runConsoleHistory({ workDir, flags: arg('flags', 10_000), commands: arg('commands', 100_000), samples: arg('samples', SAMPLES) });
    process.stdout.write(`| measure | value | goal | met? |\n| --- | --- | --- | --- |\n${rows.map((r) => `| ${r.measure} | ${r.value} | ${r.goal} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`).join('\n')}\n`);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
