/**
 * `npm run bench`: builds (via the npm script), starts the production server on a fresh temporary data
 * directory, seeds it, drives each scenario with autocannon (alternating with a `--vs` server when given, at
 * the same time as an `--against` build),
 * measures the scale figures on a second fresh server, then prints the report and writes `bench/results.md`.
 * See docs/benchmark.md.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { targetFromUrl, type Target } from './client.js';
import { runLoad, type LoadResult } from './load.js';
import { parseOptions, scaleSizes, USAGE, type BenchOptions } from './options.js';
import { renderReport, type ScenarioRow } from './report.js';
import { runAbuse } from './abuse.js';
import { runConsoleCold } from './console-cold.js';
import { runConsoleHistory } from './console-history.js';
import { runConsoleTable } from './console-table.js';
import { runScale, type ScaleRow } from './scale.js';
import { runNodes } from './nodes.js';
import { runStoreComparison } from './store-compare.js';
import { runStreams } from './streams.js';
import { runUsage } from './usage.js';
import { runAddons } from './addons.js';
import { HOT_FLAGS, HOT_PROJECT, SCENARIOS, seedHotProject, type Scenario, type ScenarioContext } from './scenarios.js';
import { BENCH_TOKEN, DEFAULT_ENTRY, freePort, killStartedServers, startServer, stopServer, type RunningServer } from './server.js';

const RESULTS_FILE = fileURLToPath(new URL('./results.md', import.meta.url));
const WARMUP_SECONDS = 1;

const log = (message: string): void => void process.stderr.write(`${message}\n`);

/** One side of the comparison: where it is and what its scenarios share. */
interface Side {
  target: Target;
  context: ScenarioContext;
}

async function main(): Promise<void> {
  let options: BenchOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2), SCENARIOS.map((s) => s.name));
  } catch (error) {
    log(`${(error as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') return log(USAGE);
  const entry = options.server ?? DEFAULT_ENTRY;
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: run \`npm run build\` first (npm run bench does)`);

  const workDir = await mkdtemp(join(os.tmpdir(), 'flagpole-bench-'));
  const only = options.only;
  const scenarios = only ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
  const notes: string[] = [];
  const date = new Date();
  try {
    const rows = scenarios.length > 0 ? await runScenarios(entry, workDir, scenarios, options, notes) : [];
    const sizes = scaleSizes(options.flags);
    let scale: ScaleRow[] = [];
    if (sizes.length > 0) {
      log(`scale: sizes ${sizes.join(', ')} on a fresh server`);
      scale = await runScale({ entry, workDir, sizes, duration: options.duration });
    }
    if (options.abuse) {
      const flags = Math.min(options.flags || 10_000, 20_000);
      log(`abuse: /health while abusive requests run, ${flags} flags on a fresh server`);
      scale = [...scale, ...(await runAbuse({ entry, workDir, flags, seconds: Math.max(3, Math.min(options.duration, 5)) }))];
    }
    if (options.usage) {
      log('usage: admin writes while 1000 SDK instances post metrics, on a fresh server');
      scale = [...scale, ...(await runUsage({ entry, workDir, duration: Math.max(3, Math.min(options.duration, 10)), connections: options.connections, instances: 1000 }))];
    }
    if (options.addons) {
      log('addons: toggles while a webhook addon\'s receiver answers, hangs or fails, on a fresh server');
      scale = [...scale, ...(await runAddons({ entry, workDir, duration: Math.max(3, Math.min(options.duration, 10)), connections: options.connections }))];
    }
    let streams: ScaleRow[] = [];
    if (options.streams.length > 0) {
      log(`streams: ${options.streams.join(', ')} SSE clients, each size on a fresh server`);
      streams = await runStreams({ entry, workDir, sizes: options.streams, toggles: options.streamToggles, duration: Math.max(3, Math.min(options.duration, 10)), connections: options.connections });
    }
    let storeRows: ScaleRow[] = [];
    if (options.store === 'pg') {
      log('store: toggle, addStrategy, createFlag on LevelDB and on PostgreSQL, alternately, fresh servers');
      storeRows = await runStoreComparison({ entry, workDir, duration: options.duration, connections: options.connections, log });
    }
    let nodeRows: ScaleRow[] = [];
    if (options.nodes > 0) {
      log(`nodes: ${options.nodes} nodes on one PostgreSQL and one node alone, ${options.nodeRounds} rounds`);
      nodeRows = await runNodes({ entry, against: options.against, workDir, nodes: options.nodes, rounds: options.nodeRounds, writes: options.quick ? 30 : 100, duration: options.duration, connections: options.connections, log });
    }
    let consoleRows: ScaleRow[] = [];
    if (options.console) consoleRows = await runConsolePhase(entry, workDir, options);
    if (options.connections !== 32) notes.push(`targets are stated for 32 connections; this run used ${options.connections}`);
    if (options.vs) notes.push(`other = ${options.vs}; ratio = flagpole req/s ÷ other req/s; the two ran alternately, never at once`);
    if (options.against) notes.push(`other = ${options.against}, started beside flagpole; each scenario ran on both at once, ${options.connections} connections each, so compare the server CPU per request (req/s splits the machine between them)`);
    const report = renderReport({ date, options: { ...options, vsToken: options.vsToken === undefined ? undefined : '(set)' }, scenarios: rows, scale, streams, stores: storeRows, nodes: nodeRows, console: consoleRows, notes }, 'other');
    process.stdout.write(`\n${report}`);
    await writeFile(RESULTS_FILE, report);
    log(`written to ${RESULTS_FILE}`);
    await rm(workDir, { recursive: true, force: true });
  } catch (error) {
    log(`benchmark failed; server logs and data kept in ${workDir}`);
    throw error;
  }
}

/**
 * The console's pages at scale, in this process (the pages call queries, not HTTP): the project page at
 * `--flags` flags (10,000 when the scale phase is skipped), its first page and search after restarts of the
 * server (`console-cold.ts`), then the past view and the comparison on a project
 * of 10,000 flags and 100,000 commands (fewer samples with --quick).
 */
async function runConsolePhase(entry: string, workDir: string, options: BenchOptions): Promise<ScaleRow[]> {
  const flags = options.flags || 10_000;
  log(`console: the project page at ${flags} flags, in process`);
  const table = await runConsoleTable({ workDir, flags, runs: options.quick ? 50 : 200 });
  const restarts = options.quick ? 3 : 5;
  log(`console: the first project page and search after ${restarts} restarts of the server, ${flags} flags`);
  const cold = await runConsoleCold({ workDir, flags, restarts, entry });
  const history = { flags: 10_000, commands: 100_000, samples: options.quick ? 30 : 100 };
  log(`console: the past view and the comparison, ${history.flags} flags and ${history.commands} commands, in process`);
  const past = await runConsoleHistory({ workDir, ...history });
  return [...table, ...cold, ...past];
}

/** Starts flagpole, seeds both sides, and runs every scenario on each side in turn (A B, then B A, ...). */
async function runScenarios(
  entry: string,
  workDir: string,
  scenarios: Scenario[],
  options: BenchOptions,
  notes: string[],
): Promise<ScenarioRow[]> {
  const dataDir = join(workDir, 'data');
  await mkdir(dataDir);
  const server = await startServer({ entry, dataDir, port: await freePort(), logFile: join(workDir, 'server.log') });
  log(`flagpole started (pid ${server.pid}) in ${server.startMs.toFixed(0)} ms on ${server.url}, data in ${dataDir}`);
  let against: RunningServer | undefined;
  try {
    if (options.against) {
      const againstDir = join(workDir, 'data-against');
      await mkdir(againstDir);
      against = await startServer({ entry: options.against, dataDir: againstDir, port: await freePort(), logFile: join(workDir, 'server-against.log') });
      log(`other (${options.against}) started (pid ${against.pid}) on ${against.url}`);
    }
    const runId = `b${Date.now().toString(36)}`;
    const sides: Side[] = [];
    const targets = [targetFromUrl('flagpole', server.url, BENCH_TOKEN)];
    if (options.vs) targets.push(targetFromUrl('other', options.vs, options.vsToken));
    if (against) targets.push(targetFromUrl('other', against.url, BENCH_TOKEN));
    const pids = new Map([['flagpole', server.pid], ...(against ? [['other', against.pid] as const] : [])]);
    for (const target of targets) {
      log(`${target.label}: seeding ${HOT_FLAGS} flags with a strategy into project ${HOT_PROJECT}`);
      const hot = await seedHotProject(target, runId);
      if (hot.projectFlags !== HOT_FLAGS) {
        notes.push(`${target.label}: project ${HOT_PROJECT} held ${hot.projectFlags} flags, not ${HOT_FLAGS}, during the reads (use a fresh database)`);
      }
      sides.push({ target, context: { runId, duration: options.duration, warmup: WARMUP_SECONDS, hotFlags: hot.flags, clientToken: hot.clientToken } });
    }
    const rows: ScenarioRow[] = [];
    for (const [index, scenario] of scenarios.entries()) {
      // Swapping who goes first each scenario keeps either side from always running on a warmer machine.
      const order = index % 2 === 0 ? sides : [...sides].reverse();
      const results = new Map<string, LoadResult>();
      const run = async (side: Side, requests: Awaited<ReturnType<Scenario['build']>>) => {
        const serverPid = pids.get(side.target.label);
        const result = await runLoad(side.target, requests, { duration: options.duration, connections: options.connections, warmup: WARMUP_SECONDS, okStatus: scenario.okStatus, serverPid });
        log(`${scenario.name} on ${side.target.label}: ${Math.round(result.rps)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, non-2xx ${result.failures}, server CPU ${result.serverCpuUs?.toFixed(0) ?? 'n/a'} µs/req`);
        if (result.failures > 0) notes.push(`${scenario.name} on ${side.target.label}: answers by status ${JSON.stringify(result.statusCounts)}`);
        results.set(side.target.label, result);
      };
      if (against) {
        // Both builds at once: whatever else the machine does slows both alike.
        const built = await Promise.all(order.map((side) => scenario.build(side.target, side.context)));
        await Promise.all(order.map((side, i) => run(side, built[i]!)));
      } else {
        for (const side of order) await run(side, await scenario.build(side.target, side.context));
      }
      rows.push({ name: scenario.name, goal: scenario.goal, flagpole: results.get('flagpole') as LoadResult, other: results.get('other') });
    }
    return rows;
  } finally {
    if (against) await stopServer(against);
    await stopServer(server);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killStartedServers();
    process.exit(130);
  });
}

main().catch((error: unknown) => {
  killStartedServers();
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
