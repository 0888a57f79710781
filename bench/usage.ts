/**
 * The usage-metrics phase (issue 11, "Speed"): do SDK metrics posts slow the admin writes down? On a fresh
 * server with the 200-flag project, 1,000 simulated SDK instances register, then the toggle scenario runs:
 *
 * 1. alone, then while the 1,000 instances post `POST /api/client/metrics` at the SDK's own cadence
 *    (`metricsInterval` 60 s: together 1,000 / 60 ≈ 17 posts a second, each its own `instanceId`, counts for 20
 *    flags, the body the Node SDK sends), {@link ROUNDS} times, and alone once more. This is the target row: the
 *    toggle p99 within 20% of its figure alone, judged as the streaming phase judges its write load: the median
 *    with the posts over the median alone, and the median of each round's own ratio (with the posts ÷ the mean
 *    of the alone runs on either side), both at most 1.2×. One pair could not tell: two runs of the same load
 *    alone moved 19% apart;
 * 2. while each instance posts once a second, 60 times the SDK's cadence (1,000 posts a second): a stress row;
 * 3. while `GET /health` runs at the same 1,000 a second: the control, what any side load costs here.
 *
 * The posts come from a separate process (bench/side-load.ts), spread evenly over each second as a fleet of
 * SDKs with their own timers sends them, so they never share the event loop of the toggles' load generator.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, targetFromUrl, type Target } from './client.js';
import { median, runLoad, type LoadOptions, type LoadResult } from './load.js';
import type { ScaleRow } from './scale.js';
import { SCENARIOS, seedHotProject } from './scenarios.js';
import { BENCH_TOKEN, freePort, startServer, stopServer } from './server.js';
import type { SideLoadPlan, SideLoadResult } from './side-load.js';

export interface UsageOptions {
  entry: string;
  workDir: string;
  duration: number;
  connections: number;
  /** Simulated SDK instances. */
  instances: number;
}

/** Flags each simulated instance reports counts for. */
const FLAGS_PER_POST = 20;
/** The Node SDK's default `metricsInterval`, in seconds. */
const SDK_METRICS_INTERVAL_S = 60;
/** Rounds of the toggle load alone and with the posts at the SDK's cadence (alone once more at the end). */
const ROUNDS = 5;
const SIDE_LOAD_FILE = fileURLToPath(new URL('./side-load.ts', import.meta.url));

const describe = (r: LoadResult): string => `${Math.round(r.rps)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, non-2xx ${r.failures}`;

/** Runs the side load in its own process while `measure` runs; the side load starts first and outlasts it. */
async function withSideLoad<T>(plan: SideLoadPlan, measure: () => Promise<T>): Promise<{ measured: T; side: SideLoadResult }> {
  const child = spawn(process.execPath, [...process.execArgv, SIDE_LOAD_FILE, JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.startsWith('started\n')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`side load exited with ${code} before it started`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await started;
  // A second of the side load before the measure starts, so the toggles are measured with it at its full rate.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const measured = await measure();
  const code = await exited;
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0) throw new Error(`side load exited with ${code}`);
  return { measured, side: JSON.parse(last) as SideLoadResult };
}

const answered = (side: SideLoadResult): string =>
  [...Object.entries(side.statuses).map(([status, count]) => `${count}× ${status}`), ...(side.errors > 0 ? [`${side.errors} errors`] : [])].join(', ');

async function registerInstances(target: Target, instances: number, token: string): Promise<void> {
  const client = { ...target, token };
  for (let first = 0; first < instances; first += 50) {
    await Promise.all(Array.from({ length: Math.min(50, instances - first) }, async (_, i) => {
      const instance = first + i;
      const reply = await call(client, 'POST', '/api/client/register', {
        appName: `bench-app-${instance % 20}`, instanceId: `bench-instance-${instance}`, environment: 'development',
        sdkVersion: 'unleash-client-node:6.12.0', strategies: ['default', 'flexibleRollout'], started: new Date().toISOString(), interval: 15_000,
      });
      if (reply.status !== 202) throw new Error(`register answered ${reply.status}: ${reply.text}`);
    }));
  }
}

export async function runUsage(options: UsageOptions): Promise<ScaleRow[]> {
  const dataDir = join(options.workDir, 'usage-data');
  await mkdir(dataDir, { recursive: true });
  const server = await startServer({ entry: options.entry, dataDir, port: await freePort(), logFile: join(options.workDir, 'usage-server.log') });
  try {
    const target = targetFromUrl('flagpole', server.url, BENCH_TOKEN);
    const hot = await seedHotProject(target, 'usage');
    await registerInstances(target, options.instances, hot.clientToken);
    const toggle = SCENARIOS.find((s) => s.name === 'toggle')!;
    const context = { runId: 'usage', duration: options.duration, warmup: 1, hotFlags: hot.flags, clientToken: hot.clientToken };
    const load: LoadOptions = { duration: options.duration, connections: options.connections, warmup: 1 };
    const toggles = async (): Promise<LoadResult> => runLoad(target, await toggle.build(target, context), load);
    const plan = (kind: SideLoadPlan['kind'], rate: number): SideLoadPlan => ({
      origin: `${target.origin}${target.prefix}`, kind, rate, seconds: options.duration + 3, token: hot.clientToken,
      flags: hot.flags, instances: options.instances, flagsPerPost: FLAGS_PER_POST,
    });

    const sdkRate = options.instances / SDK_METRICS_INTERVAL_S;
    const alone = [await toggles()];
    const withPosts: { measured: LoadResult; side: SideLoadResult }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      withPosts.push(await withSideLoad(plan('metrics', sdkRate), toggles));
      alone.push(await toggles());
    }
    const stress = await withSideLoad(plan('metrics', options.instances), toggles);
    const control = await withSideLoad(plan('health', options.instances), toggles);
    const aloneP99 = median(alone.map((r) => r.p99Ms));
    const withP99 = median(withPosts.map((r) => r.measured.p99Ms));
    // Each round against the mean of the alone runs before and after it.
    const paired = withPosts.map((r, i) => r.measured.p99Ms / ((alone[i]!.p99Ms + alone[i + 1]!.p99Ms) / 2));
    const pairedMedian = median(paired);
    const ratio = (r: LoadResult): string => `${(r.p99Ms / aloneP99).toFixed(2)}×`;
    const met = withP99 / aloneP99 <= 1.2 && pairedMedian <= 1.2;
    const p99s = (runs: LoadResult[]): string => runs.map((r) => r.p99Ms.toFixed(2)).join(', ');
    return [
      {
        measure: `toggle load alone (${options.connections} connections), ${ROUNDS + 1} runs around the rounds below`,
        value: `p99 ${p99s(alone)} ms, median ${aloneP99.toFixed(2)} ms; ${alone.map((r) => Math.round(r.rps)).join(', ')} req/s`, goal: '', met: undefined,
      },
      {
        measure: `the same while ${options.instances} SDK instances post their metrics at the SDK's cadence (every ${SDK_METRICS_INTERVAL_S} s, ${sdkRate.toFixed(1)} posts/s spread evenly, ${FLAGS_PER_POST} flags a post), ${ROUNDS} rounds`,
        value: `p99 ${p99s(withPosts.map((r) => r.measured))} ms, median ${withP99.toFixed(2)} ms; ${withPosts.map((r) => Math.round(r.measured.rps)).join(', ')} req/s; posts: ${withPosts.map((r) => answered(r.side)).join('; ')}`,
        goal: '', met: undefined,
      },
      {
        measure: 'toggle p99 with the posts at the SDK\'s cadence ÷ alone: median ÷ median; each round ÷ the alone runs on either side, and their median',
        value: `${(withP99 / aloneP99).toFixed(2)}×; each round ${paired.map((r) => `${r.toFixed(2)}×`).join(', ')}, median ${pairedMedian.toFixed(2)}×`,
        goal: '≤ 1.2× (both figures)', met,
      },
      {
        measure: `stress: each instance posts once a second (${options.instances} posts/s, 60× the SDK's cadence)`,
        value: `${describe(stress.measured)}; p99 ${ratio(stress.measured)} the median alone; posts: ${answered(stress.side)}`, goal: '', met: undefined,
      },
      {
        measure: `control: GET /health at the same ${options.instances} req/s instead of the posts`,
        value: `${describe(control.measured)}; p99 ${ratio(control.measured)} the median alone; ${answered(control.side)}`, goal: '', met: undefined,
      },
    ];
  } finally {
    await stopServer(server);
  }
}
