import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { authHeaders, callOk, countFlags, inParallel, projectPath, targetFromUrl, type Target } from './client.js';
import { runLoad, type LoadResult } from './load.js';
import { SEED_CONCURRENCY } from './scenarios.js';
import { BENCH_TOKEN, directoryBytes, freePort, residentBytes, startServer, stopServer, type RunningServer } from './server.js';

/** One line of the scale table: what was measured, its value, and the goal where the issue sets one. */
export interface ScaleRow {
  measure: string;
  value: string;
  goal: string;
  /** undefined when there is no goal, or the goal is for a size this run did not reach. */
  met: boolean | undefined;
}

/** Inputs of the scale phase. */
export interface ScaleOptions {
  entry: string;
  workDir: string;
  sizes: number[];
  duration: number;
}

const FULL_SIZE = 100_000;
// Settling pause before reading RSS: lets the server finish pending writes and V8 shrink after the burst.
const SETTLE_MS = 5_000;

/**
 * Scale figures on a fresh server and data directory: for each size a project `scale-<size>` is seeded
 * over HTTP, its list, overview, one of its flags, the project list and two searches are timed (one connection: the lists are large, and the
 * latency of one request is the figure of interest); then resident memory, bytes on disk per flag, and the
 * restart time (SIGTERM, start on the same directory, until /health answers) with every flag still there.
 */
export async function runScale(options: ScaleOptions): Promise<ScaleRow[]> {
  const dataDir = join(options.workDir, 'scale-data');
  await mkdir(dataDir, { recursive: true });
  const config = { entry: options.entry, dataDir, port: await freePort(), logFile: join(options.workDir, 'scale-server.log') };
  const rows: ScaleRow[] = [];
  let server: RunningServer | undefined = await startServer(config);
  try {
    const target = targetFromUrl('flagpole', server.url, BENCH_TOKEN);
    let total = 0;
    for (const size of options.sizes) {
      const seconds = await seedProject(target, size);
      total += size;
      rows.push({ measure: `seed ${size} flags over HTTP`, value: `${seconds.toFixed(1)} s (${Math.round(size / seconds)} flags/s)`, goal: '', met: undefined });
      for (const gzip of [false, true]) {
        const how = gzip ? ', gzip' : '';
        const list = await timeRead(target, projectPath(`scale-${size}`, '/features'), options.duration, gzip);
        rows.push(readRow(`list of a ${size}-flag project${how}`, list, undefined));
        const overview = await timeRead(target, projectPath(`scale-${size}`), options.duration, gzip);
        rows.push(readRow(`overview of a ${size}-flag project${how}`, overview, size >= FULL_SIZE && !gzip ? 50 : undefined));
      }
      // One flag of the large project, and the project list: reads that must not grow with the project.
      const one = await timeRead(target, projectPath(`scale-${size}`, `/features/flag-${Math.floor(size / 2)}`), options.duration, false);
      rows.push(readRow(`one flag of a ${size}-flag project`, one, undefined));
      const projects = await timeRead(target, '/api/admin/projects', options.duration, false);
      rows.push(readRow(`project list with a ${size}-flag project`, projects, undefined));
      for (const [what, query] of searchQueries(size)) {
        const search = await timeRead(target, `/api/admin/search/features?${query}`, options.duration, false);
        rows.push(readRow(`search of a ${size}-flag project, ${what}, first page of 50`, search, size >= FULL_SIZE ? SEARCH_P99_MS : undefined));
      }
    }
    const largest = Math.max(...options.sizes);
    const full = largest >= FULL_SIZE;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    rows.push(memoryRow(`resident memory with ${total} flags (after seeding)`, await residentBytes(server.pid), full));

    await stopServer(server);
    server = undefined;
    const bytes = await directoryBytes(dataDir);
    rows.push({ measure: `bytes on disk per flag (${total} flags, ${(bytes / 2 ** 20).toFixed(1)} MiB)`, value: `${Math.round(bytes / total)} B`, goal: '', met: undefined });

    server = await startServer(config);
    const restartS = server.startMs / 1000;
    rows.push({ measure: `restart with ${total} flags (spawn to /health 200)`, value: `${restartS.toFixed(2)} s`, goal: '≤ 3 s at 100k', met: full ? restartS <= 3 : undefined });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    rows.push(memoryRow(`resident memory with ${total} flags (after restart)`, await residentBytes(server.pid), full));
    const counts = await Promise.all(options.sizes.map(async (size) => [size, await countFlags(target, `scale-${size}`)] as const));
    const intact = counts.every(([size, count]) => size === count);
    rows.push({ measure: 'flags intact after restart', value: counts.map(([size, count]) => `${count}/${size}`).join(', '), goal: 'all', met: intact });
    return rows;
  } finally {
    if (server) await stopServer(server);
  }
}

/** Issue 14's goal for a search of the 100k-flag project. */
const SEARCH_P99_MS = 20;

/**
 * The searches timed on project `scale-<size>` (flags `flag-0` ... `flag-<size - 1>`, type release): free text
 * that few flags match (`flag-12`: 1 + 10 + 100 + ... of them) and text that every flag matches (the whole
 * project is counted and the first page kept), each with a project and a type filter, Unleash's default order.
 */
function searchQueries(size: number): [string, string][] {
  const filters = `project=${encodeURIComponent(`IS:scale-${size}`)}&type=${encodeURIComponent('IS:release')}&limit=50`;
  return [
    ['text matching few flags + project and type filters', `query=flag-12&${filters}`],
    ['text matching every flag + project and type filters', `query=flag&${filters}`],
  ];
}

/** Creates project `scale-<size>` and `size` flags in it; returns the seconds the flags took. */
async function seedProject(target: Target, size: number): Promise<number> {
  const project = `scale-${size}`;
  await callOk(target, 'POST', '/api/admin/projects', { id: project, name: project });
  const started = performance.now();
  await inParallel(size, SEED_CONCURRENCY, async (i) => {
    await callOk(target, 'POST', projectPath(project, '/features'), { name: `flag-${i}` });
  }, `seeding ${project}`);
  return (performance.now() - started) / 1000;
}

/**
 * Times one connection reading `path`; with `gzip` it asks for a compressed answer as browsers do (the
 * uncompressed figure is the one the target judges).
 */
function timeRead(target: Target, path: string, duration: number, gzip: boolean): Promise<LoadResult> {
  const headers = gzip ? { ...authHeaders(target), 'accept-encoding': 'gzip' } : authHeaders(target);
  const request = { method: 'GET', path: target.prefix + path, headers };
  return runLoad(target, [request], { duration, connections: 1, warmup: 1 });
}

function readRow(measure: string, result: LoadResult, maxP99Ms: number | undefined): ScaleRow {
  const value =
    `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, ${result.rps.toFixed(1)} req/s, ` +
    `${(result.bytesPerAnswer / 2 ** 20).toFixed(2)} MiB/answer, non-2xx ${result.failures}`;
  const met = maxP99Ms === undefined ? undefined : result.p99Ms <= maxP99Ms && result.failures === 0;
  return { measure, value, goal: maxP99Ms === undefined ? '' : `p99 ≤ ${maxP99Ms} ms`, met };
}

function memoryRow(measure: string, bytes: number | undefined, full: boolean): ScaleRow {
  if (bytes === undefined) return { measure, value: 'n/a (no /proc)', goal: '≤ 400 MB at 100k', met: undefined };
  const mb = bytes / 1e6;
  return { measure, value: `${mb.toFixed(0)} MB`, goal: '≤ 400 MB at 100k', met: full ? mb <= 400 : undefined };
}
