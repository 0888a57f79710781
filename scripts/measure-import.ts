/**
 * One measurement of import in Unleash 6.10's format (docs/api-decisions.md "Export and import"): for each
 * size (default 1,000 and 10,000 flags) it builds an export of rich flags (two strategies with constraints,
 * a segment, strategy variants, flag variants, tags, one flag in ten with a parent), starts the compiled
 * service on a fresh data directory, and times over HTTP `POST /api/admin/features-batch/validate`, then
 * `/import` (answered once on disk), then `/export` of the project; it then restarts the service and checks
 * the flags are all there. While the import runs, \`/health\` is asked every 20 ms: the longest answer is how
 * long the event loop was held (reads wait that long). Prints a table.
 *
 *   npm run build && npx tsx scripts/measure-import.ts [flags...]
 *
 * Not part of the benchmark (`npm run bench`) and not a test; one run on whatever machine runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '../dist/bundle/flagpole.js');
const TOKEN = '*:*.measure-import-admin-token';
const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(1_000, 10_000);

/** An export of `n` flags as Unleash 6.10 writes one. */
function exportOf(n: number) {
  const name = (i: number) => `imported-flag-${String(i).padStart(6, '0')}`;
  const features = [], featureStrategies = [], featureEnvironments = [], featureTags = [], dependencies = [];
  for (let i = 0; i < n; i++) {
    features.push({ name: name(i), description: `flag number ${i} of the measurement`, type: i % 7 === 0 ? 'experiment' : 'release', project: 'source', stale: false, impressionData: i % 2 === 0, archived: false });
    featureStrategies.push({
      name: 'flexibleRollout', id: `s-${i}-a`, featureName: name(i), title: 'EU customers', disabled: false, segments: [1],
      parameters: { rollout: String(i % 101), stickiness: 'userId', groupId: name(i) },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'us'], inverted: false, caseInsensitive: false }, { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], inverted: false, caseInsensitive: true }],
      variants: [{ name: 'on', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'x' } }],
    });
    featureStrategies.push({ name: 'userWithId', id: `s-${i}-b`, featureName: name(i), title: null, disabled: false, segments: [], parameters: { userIds: 'alice,bob,carol' }, constraints: [], variants: [] });
    featureEnvironments.push({
      enabled: i % 3 !== 0, featureName: name(i), environment: 'development', name: name(i),
      variants: [{ name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: '{"a":1}' } }, { name: 'red', weight: 500, weightType: 'variable', stickiness: 'default' }],
    });
    featureTags.push({ featureName: name(i), tagType: 'team', tagValue: `team-${i % 20}` });
    if (i % 10 === 1) dependencies.push({ feature: name(i), dependencies: [{ feature: name(i - 1), enabled: true, variants: [] }] });
  }
  return {
    features, featureStrategies, featureEnvironments, featureTags, dependencies,
    contextFields: [{ name: 'region', description: 'where', stickiness: false, sortOrder: 0, legalValues: [{ value: 'eu' }, { value: 'us' }] }],
    segments: [{ id: 1, name: 'beta-users' }],
    tagTypes: [{ name: 'team', description: 'owning team', icon: null, color: null }],
  };
}

async function start(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'start'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), INIT_ADMIN_API_TOKENS: TOKEN, TOKEN_SECRET: 'measure-import-token-key-0123456789abcdef', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch { /* not yet listening */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not start');
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function post(port: number, path: string, body: string): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  const r = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { authorization: TOKEN, 'content-type': 'application/json' }, body });
  const text = await r.text();
  return { status: r.status, ms: performance.now() - started, text };
}

const rows: string[][] = [['flags', 'bytes', 'validate ms', 'import ms', 'longest /health during import ms', 'export ms', 'flags after restart']];
const work = mkdtempSync(join(tmpdir(), 'flagpole-measure-import-'));
try {
  for (const [k, n] of sizes.entries()) {
    const dataDir = join(work, `data-${n}`);
    const port = 43_000 + k;
    let child = await start(dataDir, port);
    const segment = await post(port, '/api/admin/segments', JSON.stringify({ name: 'beta-users', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] }));
    if (segment.status !== 201) throw new Error(`segment: ${segment.status} ${segment.text}`);
    const body = JSON.stringify({ project: 'default', environment: 'development', data: exportOf(n) });
    const validate = await post(port, '/api/admin/features-batch/validate', body);
    const errors = JSON.parse(validate.text).errors;
    if (validate.status !== 200 || errors.length > 0) throw new Error(`validate: ${validate.status} ${validate.text.slice(0, 500)}`);
    const probe = { running: true, longest: 0 };
    const probing = (async () => {
      while (probe.running) {
        const started = performance.now();
        await fetch(`http://127.0.0.1:${port}/health`);
        probe.longest = Math.max(probe.longest, performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const imported = await post(port, '/api/admin/features-batch/import', body);
    probe.running = false;
    await probing;
    if (imported.status !== 200) throw new Error(`import: ${imported.status} ${imported.text.slice(0, 500)}`);
    const exported = await post(port, '/api/admin/features-batch/export', JSON.stringify({ project: 'default', environment: 'development' }));
    if (exported.status !== 200 || JSON.parse(exported.text).features.length !== n) throw new Error(`export: ${exported.status}`);
    await stop(child);
    child = await start(dataDir, port);
    const after = await fetch(`http://127.0.0.1:${port}/api/admin/projects/default/features`, { headers: { authorization: TOKEN } });
    const count = ((await after.json()) as { features: unknown[] }).features.length;
    await stop(child);
    rows.push([String(n), String(Buffer.byteLength(body)), validate.ms.toFixed(0), imported.ms.toFixed(0), probe.longest.toFixed(0), exported.ms.toFixed(0), String(count)]);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const row of rows) console.log(row.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
