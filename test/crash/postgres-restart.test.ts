/**
 * PostgreSQL restarted under write load (a server of the test's own, stopped with a fast shutdown and started
 * again): while it is down, writes answer 503 StorageUnavailable (nothing else: no 500) and /health says
 * degraded; once it is back, writes resume by themselves, no acknowledged write is lost, and what the service
 * holds in memory is what the database holds (a restart of the service serves the same state).
 */
import { expect, onTestFinished } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { startPostgres } from '../helpers/postgres.js';
import { CHILD_PROCESS_TEST_MS, untilState } from '../helpers/wait.js';
import { call, drive, kill, newWorkers, start, verify, type Server, type Tally } from './write-load.js';

const CYCLES = 2;

const status = async (server: Server): Promise<string> => {
  const response = await fetch(`${server.url}/health`).catch(() => null);
  return response ? ((await response.json()) as { status: string }).status : 'unreachable';
};

test(`over ${CYCLES} restarts of PostgreSQL under load no acknowledged write is lost and writes resume by themselves`, async ({ tempDir }) => {
  const database = await startPostgres();
  onTestFinished(() => database.stop());
  const dataDir = tempDir('pg-restart');
  const env = { DATABASE_URL: database.url, WRITE_TIMEOUT_MS: '1500' };
  let server = await start(dataDir, env);
  onTestFinished(() => { if (server.child.exitCode === null) server.child.kill('SIGKILL'); });
  expect((await call(server, 'POST', '/api/admin/projects', { id: 'crash', name: 'Crash' })).status).toBe(201);
  const workers = newWorkers();
  for (let cycle = 0; cycle < CYCLES; cycle += 1) {
    const tally: Tally = { acked: 0, unavailable: 0, uncertain: 0 };
    const stop = { now: false };
    const running = workers.map((w) => drive(server, w, stop, tally));
    await expect.poll(() => tally.acked, untilState()).toBeGreaterThan(10);
    await database.pause();
    // Writes refused: degraded at once, unhealthy past DATABASE_CONTACT_TIMEOUT_MS (a slow poll may see only that).
    await expect.poll(() => status(server), untilState()).toMatch(/^(degraded|unhealthy)$/);
    await expect.poll(() => tally.unavailable + tally.uncertain, untilState()).toBeGreaterThan(0);
    const ackedWhileDown = tally.acked;
    await database.start();
    await expect.poll(() => status(server), untilState()).toBe('serving');
    await expect.poll(() => tally.acked, untilState()).toBeGreaterThan(ackedWhileDown + 10);
    stop.now = true;
    await Promise.all(running);
    await verify(server, workers);
    // Memory equals the database: a restarted service serves the very same state.
    const before = await (await call(server, 'GET', '/api/admin/state')).text();
    expect(await kill(server, 'SIGTERM')).toBe(0);
    server = await start(dataDir, env);
    expect(await (await call(server, 'GET', '/api/admin/state')).text()).toBe(before);
    await verify(server, workers);
    console.log(`restart ${cycle}: ${tally.acked} writes acknowledged, ${tally.unavailable} answered 503 (not recorded), ${tally.uncertain} answered 503 (outcome pending), all acknowledged present`);
  }
  expect(await kill(server, 'SIGTERM')).toBe(0);
}, CHILD_PROCESS_TEST_MS); // two restarts of PostgreSQL and of the service, under writes
