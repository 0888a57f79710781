/**
 * One measurement of a live backup (docs/operations.md "Back up and restore"): seeds N flags (default
 * 100 000) straight through the registry, starts the compiled service on them, then runs `flagpole backup`
 * while admin writes keep coming, and prints the backup's time and size, the latency of those writes
 * before and during the backup, and the time of `flagpole restore` of the file.
 *
 *   npm run build && npx tsx scripts/measure-backup.ts [flags]
 *
 * Not part of the benchmark (`npm run bench`); one run on whatever machine runs it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Registry } from '../src/actors/registry.js';
import { captureBackup } from '../src/actors/dumps/state-backup.js';

const BIN = resolve(import.meta.dirname, '../dist/bundle/flagpole.js');
const TOKEN = '*:*.measure-backup-admin-token';
const ENV = { ...process.env, INIT_ADMIN_API_TOKENS: TOKEN, TOKEN_SECRET: 'measure-backup-token-key-0123456789abcdef', LOG_FORMAT: 'json', LOG_LEVEL: 'warn' };
const flags = Number(process.argv[2] ?? 100_000);
const WRITERS = 4;

/** GNU time, where installed, reports the child's peak resident memory. */
const TIME = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', 'peak-rss-kb=%M'] : [];

function run(args: string[], env: NodeJS.ProcessEnv = ENV): Promise<{ code: number | null; stderr: string; ms: number; peakMiB?: number }> {
  const started = performance.now();
  const [command, ...prefix] = [...TIME, process.execPath, BIN, ...args];
  return new Promise((done) => {
    const child = spawn(command!, prefix, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.once('exit', (code) => {
      const kb = /peak-rss-kb=(\d+)/.exec(stderr)?.[1];
      done({ code, stderr: stderr.replace(/peak-rss-kb=\d+\n?/, ''), ms: performance.now() - started, ...(kb ? { peakMiB: Number(kb) / 1024 } : {}) });
    });
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const describe = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `n=${s.length} p50 ${quantile(s, 0.5).toFixed(1)} ms, p99 ${quantile(s, 0.99).toFixed(1)} ms, max ${(s.at(-1) ?? NaN).toFixed(1)} ms`;
};

const work = mkdtempSync(join(tmpdir(), 'flagpole-measure-'));
try {
  const dataDir = join(work, 'data');
  const seedStarted = performance.now();
  const registry = await Registry.open({ dataDir, initEnvironments: ['development', 'production'] });
  const actor = registry.project('default')!;
  for (let from = 0; from < flags; from += 2000) {
    const sends = Array.from({ length: Math.min(2000, flags - from) }, (_, k) => actor.send({
      type: 'flag.create', name: `flag-${String(from + k).padStart(6, '0')}`, description: `seeded flag number ${from + k}`, flagType: 'release', impressionData: false,
    }, 'system'));
    for (const decision of await Promise.all(sends)) if (!decision.ok) throw new Error(JSON.stringify(decision));
  }
  // The one synchronous step of a backup (the rest streams a line at a time between other work).
  const captures = Array.from({ length: 5 }, () => {
    const t = performance.now();
    captureBackup(registry);
    return performance.now() - t;
  });
  console.log(`capture of the committed states (the only step that holds the event loop): ${captures.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  await registry.close();
  console.log(`seeded ${flags} flags in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const server = spawn(process.execPath, [BIN, 'start'], { env: { ...ENV, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done) => server.stdout!.on('data', (d: Buffer) => d.toString().includes('listening on') && done()));
  const base = `http://127.0.0.1:${port}`;

  const writes: { start: number; end: number }[] = [];
  let writing = true;
  const writer = async (w: number) => {
    for (let i = 0; writing; i += 1) {
      const start = performance.now();
      const r = await fetch(`${base}/api/admin/projects/default/features`, { method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ name: `w${w}-${i}` }) });
      await r.text();
      if (r.status !== 201) throw new Error(`write answered ${r.status}`);
      writes.push({ start, end: performance.now() });
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  await new Promise((r) => setTimeout(r, 3000));
  const out = join(work, 'measure.backup');
  const began = performance.now();
  const backup = await run(['backup', '--url', base, '--out', out], { ...ENV, FLAGPOLE_TOKEN: TOKEN });
  const ended = performance.now();
  await new Promise((r) => setTimeout(r, 1000));
  writing = false;
  await Promise.all(writers);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  if (backup.code !== 0) throw new Error(backup.stderr);
  console.log(backup.stderr.trim());
  console.log(`backup: ${(backup.ms / 1000).toFixed(2)} s wall (process start to exit), ${(statSync(out).size / 2 ** 20).toFixed(1)} MiB, peak RSS of the CLI ${backup.peakMiB?.toFixed(0) ?? '?'} MiB`);
  console.log(`admin writes (${WRITERS} writers) before the backup: ${describe(writes.filter((x) => x.end < began).map((x) => x.end - x.start))}`);
  console.log(`admin writes overlapping the backup:     ${describe(writes.filter((x) => x.end >= began && x.start <= ended).map((x) => x.end - x.start))}`);
  const restored = await run(['restore', '--data-dir', join(work, 'restored'), out]);
  if (restored.code !== 0) throw new Error(restored.stderr);
  console.log(`restore: ${(restored.ms / 1000).toFixed(2)} s wall, peak RSS ${restored.peakMiB?.toFixed(0) ?? '?'} MiB`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
