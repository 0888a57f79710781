/**
 * The addons phase (issue 42, "Isolation"): do addon deliveries slow the writes down? On a fresh server with the
 * 200-flag project and one webhook addon subscribed to every on/off, the toggle scenario runs alternately with the
 * addon disabled (alone) and enabled, four times alone and three times with it, for each way its receiver (on
 * loopback, in this process) answers: at once, hanging 30 s on every request (flagpole gives up after its 10 s timeout
 * and retries; those runs last 30 s), or 503 (retried with growing waits). Each run with the addon is compared with the
 * mean of the two runs alone on either side of it, and the median of those ratios is reported, with the medians of the
 * runs themselves: on a shared machine, runs of the same load alone differ by 2× (docs/benchmark.md). Enabling the
 * addon again starts it at that moment, so a run alone leaves it nothing to deliver.
 */
import { createServer } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { call, targetFromUrl, type Target } from './client.js';
import { median, runLoad, type LoadOptions, type LoadResult } from './load.js';
import type { ScaleRow } from './scale.js';
import { SCENARIOS, seedHotProject } from './scenarios.js';
import { BENCH_TOKEN, freePort, startServer, stopServer } from './server.js';

export interface AddonsOptions {
  entry: string;
  workDir: string;
  duration: number;
  connections: number;
}

type Mode = 'fast' | 'hang' | 'failing';

/** How long the hanging receiver holds each request (the 30 s; flagpole gives up at 10 s). */
const HANG_MS = 30_000;

/** A receiver on loopback that answers as `mode()` says now, counting what it got. */
async function receiver(mode: () => Mode): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      const now = mode();
      if (now === 'hang') setTimeout(() => res.writeHead(200).end(), HANG_MS).unref();
      else res.writeHead(now === 'failing' ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`, received: () => count,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Runs alone and with the addon, alternately: 4 alone around 3 with. */
const ROUNDS = 7;

/** The runs in the order they ran (alone, with, alone, ...). */
const interleave = (alone: LoadResult[], withIt: LoadResult[]) => alone.flatMap((r, i) => (i < withIt.length ? [r, withIt[i]!] : [r]));

/** The medians of several runs. */
const medians = (runs: LoadResult[]) => ({ rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50Ms)), p99: median(runs.map((r) => r.p99Ms)), failures: runs.reduce((n, r) => n + r.failures, 0) });
const words = (m: ReturnType<typeof medians>) => `${Math.round(m.rps)} req/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms`;

export async function runAddons(options: AddonsOptions): Promise<ScaleRow[]> {
  const dataDir = join(options.workDir, 'addons-data');
  await mkdir(dataDir, { recursive: true });
  const server = await startServer({
    entry: options.entry, dataDir, port: await freePort(), logFile: join(options.workDir, 'addons-server.log'),
    env: { UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1' },
  });
  let mode: Mode = 'fast';
  const hook = await receiver(() => mode);
  try {
    const target: Target = targetFromUrl('flagpole', server.url, BENCH_TOKEN);
    const hot = await seedHotProject(target, 'addons');
    const toggle = SCENARIOS.find((s) => s.name === 'toggle')!;
    // One request list for every run: its counter goes on, so each toggle changes its flag (and records an event).
    const requests = await toggle.build(target, { runId: 'addons', duration: options.duration, warmup: 1, hotFlags: hot.flags, clientToken: hot.clientToken });
    const addon = await call(target, 'POST', '/api/admin/addons', { provider: 'webhook', enabled: false, parameters: { url: hook.url }, events: ['feature-environment-enabled', 'feature-environment-disabled'] });
    if (addon.status !== 201) throw new Error(`creating the addon answered ${addon.status}: ${addon.text}`);
    const id = (JSON.parse(addon.text) as { id: number }).id;
    const enable = async (enabled: boolean) => {
      const put = await call(target, 'PUT', `/api/admin/addons/${id}`, { provider: 'webhook', enabled, parameters: { url: '*****' }, events: ['feature-environment-enabled', 'feature-environment-disabled'] });
      if (put.status !== 200) throw new Error(`updating the addon answered ${put.status}: ${put.text}`);
    };
    const rows: ScaleRow[] = [];
    for (const [now, how, seconds] of [['fast', 'answers at once', options.duration], ['hang', `hangs ${HANG_MS / 1000} s on every request`, HANG_MS / 1000], ['failing', 'answers 503 (retried)', options.duration]] as const) {
      mode = now;
      const load: LoadOptions = { duration: seconds, connections: options.connections, warmup: 1 };
      const alone: LoadResult[] = [];
      const withIt: LoadResult[] = [];
      let received = 0;
      let toggles = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const on = round % 2 === 1;
        await enable(on);
        const at = hook.received();
        const result = await runLoad(target, requests, load);
        (on ? withIt : alone).push(result);
        if (on) {
          received += hook.received() - at;
          toggles += result.requests;
        }
      }
      await enable(false);
      const a = medians(alone);
      const w = medians(withIt);
      // Each run with the addon against the mean of the runs alone just before and after it.
      const ratio = (pick: (r: LoadResult) => number) => median(withIt.map((r, i) => pick(r) / ((pick(alone[i]!) + pick(alone[i + 1]!)) / 2))).toFixed(2);
      rows.push({
        measure: `toggles (${options.connections} connections, ${seconds} s runs) with a webhook addon on every on/off whose receiver ${how}, against the runs alone`,
        value: `with: ${words(w)}; alone: ${words(a)}; median of the runs' ratios to the runs alone around them: p99 ${ratio((r) => r.p99Ms)}×, p50 ${ratio((r) => r.p50Ms)}×, req/s ${ratio((r) => r.rps)}×`
          + ` (req/s of the runs in order: ${[...alone, ...withIt].length} runs, ${interleave(alone, withIt).map((r) => Math.round(r.rps)).join(', ')}); non-2xx ${w.failures + a.failures}; the receiver got ${received} requests during ${toggles} toggles with the addon`,
        goal: '', met: undefined,
      });
    }
    return rows;
  } finally {
    await hook.close();
    await stopServer(server);
  }
}
