import { describe, expect, onTestFinished } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { freshSchema } from '../helpers/postgres.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';
import { call, drive, kill, newWorkers, start, verify, type Stop } from './write-load.js';

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
      // The kill lands after a random number of acknowledged writes (not a random time): as far into the
      // writes, snapshots and log trims on a loaded machine as on a quiet one. 60 to 300 of them: past a snapshot
      // (every 20 commands) and log trims of each project in every cycle, with all 16 workers still writing.
      const target = 60 + Math.floor(Math.random() * 240);
      let acknowledged = 0;
      let reached = () => {};
      const enough = new Promise<void>((resolve) => { reached = resolve; });
      const stop: Stop = { now: false, onAck: () => { acknowledged += 1; if (acknowledged >= target) reached(); } };
      const running = workers.map((w) => drive(server, w, stop));
      // (Or the workers all stopped first: the server died under them, which the checks below report.)
      await Promise.race([enough, Promise.all(running)]);
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
  }, CHILD_PROCESS_TEST_MS); // six starts of the service as a child process and thousands of writes
});
