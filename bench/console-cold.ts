/**
 * The console after a restart (issue 31 §2, §4): a data directory with a project of `flags` flags (seeded in
 * process, with an admin session), then `restarts` starts of the real server process, each measured from the
 * first 200 of `/health`: the first project page and the first search asked at once (while the start-up
 * warm-up may still run) and, after another start, asked once the warm-up is done; and the slowest `/health`
 * answer while it runs. p50 over the restarts.
 *
 * Run alone: `npm run build && node --import tsx bench/console-cold.ts [--flags 100000] [--restarts 5] [--entry dist/src/main.js]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Registry } from '../src/actors/registry.js';
import { loadTokenHasher } from '../src/auth/token-key.js';
import { ensureAdminTokens } from '../src/bootstrap-tokens.js';
import { readConfig } from '../src/config.js';
import { SESSION_COOKIE } from '../src/console/pipeline/cookies.js';
import { checkToken, startSession } from '../src/use-cases/sessions.use-cases.js';
import { seedTable } from '../test/helpers/flag-table-seed.js';
import type { ScaleRow } from './scale.js';
import { BENCH_TOKEN, DEFAULT_ENTRY, freePort, startServer, stopServer } from './server.js';

const TOKEN_SECRET = 'bench-token-key-not-for-production-0123456789abcdef';
const GOAL_MS = 100;
/** How long after `/health` the "warmed" figures wait: longer than the warm-up of 100,000 flags takes. */
const SETTLE_MS = 3000;

export interface ConsoleColdOptions {
  workDir: string;
  flags: number;
  restarts: number;
  entry?: string;
}

/** Seeds `dataDir` with the project and an admin session; the session cookie. */
async function seed(dataDir: string, flags: number): Promise<string> {
  const config = readConfig({ DATA_DIR: dataDir, TOKEN_SECRET, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
  const registry = await Registry.open({ dataDir, initEnvironments: ['development', 'production'] });
  try {
    await seedTable(registry, 'default', flags);
    const { hasher } = loadTokenHasher(config);
    await ensureAdminTokens(registry, hasher, [BENCH_TOKEN]);
    const signedIn = await checkToken(registry, hasher, BENCH_TOKEN);
    if (!signedIn.ok) throw new Error(signedIn.error.message);
    return `${SESSION_COOKIE}=${await startSession(registry, hasher, signedIn.value)}`;
  } finally {
    await registry.close();
  }
}

/** Milliseconds of one GET of `url` with `cookie`, body read; throws on a status other than 200. */
async function timedGet(url: string, cookie?: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers: cookie ? { cookie } : {} });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
  return performance.now() - start;
}

const p50 = (samples: number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

/** One start of the server: the page and the search, asked at once after `/health` or after {@link SETTLE_MS}. */
interface StartTimes {
  start: number;
  page: number;
  search: number;
  health: number;
}

async function oneStart(options: ConsoleColdOptions, dataDir: string, cookie: string, settle: boolean): Promise<StartTimes> {
  const server = await startServer({ entry: options.entry ?? DEFAULT_ENTRY, dataDir, port: await freePort(), logFile: join(options.workDir, 'console-cold.log'), env: { TOKEN_SECRET, LOG_LEVEL: 'warn' } });
  try {
    // /health every 20 ms through the warm-up (or the first requests): the slowest answer.
    let health = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        health = Math.max(health, await timedGet(`${server.url}/health`));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    if (settle) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const page = await timedGet(`${server.url}/projects/default`, cookie);
    const search = await timedGet(`${server.url}/projects/default?q=checkout`, cookie);
    if (!settle) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    polling = false;
    await poll;
    return { start: server.startMs, page, search, health };
  } finally {
    await stopServer(server);
  }
}

/** The console phase's cold-start rows: p50 over `restarts` starts of each kind. */
export async function runConsoleCold(options: ConsoleColdOptions): Promise<ScaleRow[]> {
  const dataDir = join(options.workDir, 'console-cold-data');
  const cookie = await seed(dataDir, options.flags);
  const rows: ScaleRow[] = [];
  for (const settle of [false, true]) {
    const runs: StartTimes[] = [];
    for (let i = 0; i < options.restarts; i += 1) runs.push(await oneStart(options, dataDir, cookie, settle));
    const when = settle ? `${SETTLE_MS / 1000} s after /health` : 'at once after /health';
    const of = `p50 of ${options.restarts} starts, ${options.flags} flags`;
    const figure = (pick: (r: StartTimes) => number) => `${p50(runs.map(pick)).toFixed(0)} ms (${runs.map((r) => pick(r).toFixed(0)).join(', ')})`;
    if (!settle) rows.push({ measure: `start to the first 200 of /health, ${of}`, value: figure((r) => r.start), goal: '', met: undefined });
    rows.push({ measure: `first project page ${when}, ${of}`, value: figure((r) => r.page), goal: `< ${GOAL_MS} ms`, met: p50(runs.map((r) => r.page)) < GOAL_MS });
    rows.push({ measure: `first search after it, ${of}`, value: figure((r) => r.search), goal: `< ${GOAL_MS} ms`, met: p50(runs.map((r) => r.search)) < GOAL_MS });
    rows.push({ measure: `slowest /health (every 20 ms) over the first ${SETTLE_MS / 1000} s, ${of}`, value: figure((r) => r.health), goal: '', met: undefined });
  }
  return rows;
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const workDir = await mkdtemp(join(os.tmpdir(), 'flagpole-bench-cold-'));
  try {
    const entry = process.argv.indexOf('--entry');
    const rows = await runConsoleCold({ workDir, flags: arg('flags', 100_000), restarts: arg('restarts', 5), ...(entry > 0 ? { entry: process.argv[entry + 1]! } : {}) });
    process.stdout.write(`| measure | value | goal | met? |\n| --- | --- | --- | --- |\n${rows.map((r) => `| ${r.measure} | ${r.value} | ${r.goal} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`).join('\n')}\n`);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
