import { describe, expect, onTestFinished } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { freshSchema } from '../helpers/postgres.js';
import { call, drive, kill, newWorkers, start, verify } from './write-load.js';

/**
 * The real server as a child process, killed with SIGKILL in the middle of concurrent writes, restarted on
 * the same store: every write that got a 2xx must be there, nothing else may have appeared, and the
 * invariants must hold. Small SNAPSHOT_EVERY and LOG_RETENTION make kills land in snapshot writes and log
 * trimming too. On LevelDB and on PostgreSQL (a schema of the tests' server).
 */

const CYCLES = 4;

describe.each(['leveldb', 'postgres'])('kill -9 while writing on %s', (store) => {
  test(`over ${CYCLES} cycles no acknowledged write is lost and the invariants hold`, async ({ tempDir }) => {
    const dataDir = tempDir('crash');
    const schema = store === 'postgres' ? freshSchema() : null;
    if (schema) onTestFinished(() => schema.drop());
    const env: Record<string, string> = schema ? { DATABASE_URL: schema.database.url, DATABASE_SCHEMA: schema.database.schema } : {};
    const workers = newWorkers();
    let server = await start(dataDir, env);
    onTestFinished(() => { if (server.child.exitCode === null) server.child.kill('SIGKILL'); });
    const created = await call(server, 'POST', '/api/admin/projects', { id: 'crash', name: 'Crash' });
    expect(created.status).toBe(201);
    let totalAcked = 0;
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      const stop = { now: false };
      const running = workers.map((w) => drive(server, w, stop));
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
      const code = await kill(server, 'SIGKILL');
      stop.now = true;
      expect(code).toBeNull();
      const acked = (await Promise.all(running)).reduce((a, b) => a + b, 0);
      expect(acked, `writes acknowledged in cycle ${cycle}`).toBeGreaterThan(0);
      totalAcked += acked;
      server = await start(dataDir, env);
      await verify(server, workers);
      console.log(`cycle ${cycle}: ${acked} writes acknowledged before SIGKILL, all present after restart`);
    }
    // A clean stop after all that keeps everything too.
    const before = await (await call(server, 'GET', '/api/admin/state')).text();
    expect(await kill(server, 'SIGTERM')).toBe(0);
    server = await start(dataDir, env);
    expect(await (await call(server, 'GET', '/api/admin/state')).text()).toBe(before);
    await verify(server, workers);
    expect(await kill(server, 'SIGKILL')).toBeNull();
    expect(totalAcked).toBeGreaterThan(CYCLES * 10);
  }, 90_000); // typically under 15 s; the bound that keeps a stuck run from hanging CI
});
