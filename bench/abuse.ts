/**
 * The hardening figures: how responsive the service stays while one abusive request after another runs. For
 * each kind of abuse, a client sends it again and again (one at a time) for a few seconds while another
 * client asks `GET /health` one request after the other; the table gives `/health`'s latency (target: p99
 * ≤ 50 ms) and what the abusive requests were answered. A fresh server, with a project of `flags` flags so
 * that the whole-service dump has something to carry.
 */
import { Agent, request } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { authHeaders, callOk, inParallel, projectPath, targetFromUrl, type Target } from './client.js';
import { percentile } from './load.js';
import type { ScaleRow } from './scale.js';
import { BENCH_TOKEN, freePort, startServer, stopServer } from './server.js';

export interface AbuseOptions {
  entry: string;
  workDir: string;
  flags: number;
  seconds: number;
}

interface Abuse {
  name: string;
  method: string;
  path: string;
  body?: string;
}

const PROJECT = 'abuse';

/** The abusive requests of the hardening issue, as a project Member or an admin could send them. */
function abuses(): Abuse[] {
  const flag = projectPath(PROJECT, '/features/victim');
  const doubling = JSON.stringify([
    { op: 'replace', path: '/description', value: 'x'.repeat(2800) },
    ...Array.from({ length: 16 }, (_, i) => ({ op: 'copy', from: '', path: `/copy${i}` })),
  ]);
  const junk = `{"features":[${Array.from({ length: 500_000 }, () => '1').join(',')}]}`;
  const bigStrategy = JSON.stringify({ name: 'userWithId', parameters: { userIds: 'u'.repeat(9_000) } });
  return [
    { name: 'none (baseline)', method: '', path: '' },
    { name: 'JSON Patch doubling the flag 16 times (3.6 KB)', method: 'PATCH', path: flag, body: doubling },
    { name: '1 MiB body of invalid array items', method: 'POST', path: projectPath(PROJECT, '/delete'), body: junk },
    { name: 'strategies with 9 KB parameters piled on one flag', method: 'POST', path: `${flag}/environments/development/strategies`, body: bigStrategy },
    { name: 'GET /api/admin/state of the whole service', method: 'GET', path: '/api/admin/state' },
  ];
}

/** Sends one request and resolves with its status and milliseconds, reading the whole answer. */
function send(target: Target, agent: Agent, method: string, path: string, body?: string): Promise<{ status: number; ms: number }> {
  const url = new URL(path, target.origin);
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: { ...authHeaders(target), ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function runAbuse(options: AbuseOptions): Promise<ScaleRow[]> {
  const dataDir = join(options.workDir, 'abuse-data');
  await mkdir(dataDir, { recursive: true });
  const server = await startServer({ entry: options.entry, dataDir, port: await freePort(), logFile: join(options.workDir, 'abuse-server.log') });
  const rows: ScaleRow[] = [];
  try {
    const target = targetFromUrl('flagpole', server.url, BENCH_TOKEN);
    await callOk(target, 'POST', '/api/admin/projects', { id: PROJECT, name: PROJECT });
    await inParallel(options.flags, 64, async (i) => void (await callOk(target, 'POST', projectPath(PROJECT, '/features'), { name: i === 0 ? 'victim' : `flag-${i}` })), `seeding ${PROJECT}`);
    for (const abuse of abuses()) {
      const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
      const abuseAgent = new Agent({ keepAlive: true, maxSockets: 2 });
      const until = performance.now() + options.seconds * 1000;
      const statuses = new Map<number, number>();
      let slowest = 0;
      const abuser = async () => {
        if (!abuse.method) return;
        while (performance.now() < until) {
          const { status, ms } = await send(target, abuseAgent, abuse.method, abuse.path, abuse.body);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          slowest = Math.max(slowest, ms);
        }
      };
      const latencies: number[] = [];
      const prober = async () => {
        while (performance.now() < until) latencies.push((await send(target, healthAgent, 'GET', '/health')).ms);
      };
      await Promise.all([abuser(), prober()]);
      healthAgent.destroy();
      abuseAgent.destroy();
      const sorted = Float64Array.from(latencies).sort();
      const p99 = percentile(sorted, 0.99);
      const answered = [...statuses].map(([status, count]) => `${count}× ${status}`).join(', ');
      rows.push({
        measure: `/health while: ${abuse.name}`,
        value: `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms${answered ? `; abusive requests: ${answered}, slowest ${slowest.toFixed(0)} ms` : ''}`,
        goal: 'p99 ≤ 50 ms',
        met: p99 <= 50,
      });
    }
    return rows;
  } finally {
    await stopServer(server);
  }
}
