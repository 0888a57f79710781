/**
 * The addons phase (issue 42, "Isolation"): do addon deliveries slow the writes down? On a fresh server with the
 * 200-flag project, the toggle scenario runs alone, then with one webhook addon subscribed to every on/off, whose
 * receiver (on loopback, in this process) answers at once, hangs for 30 s on every request (flagpole gives up after
 * its 10 s timeout and retries), or answers 503 (retried with growing waits). Each row is compared with the run alone
 * just before it. The deliveries that reached the fast receiver tell how far behind the writes they were.
 */
import { createServer, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { call, targetFromUrl, type Target } from './client.js';
import { runLoad, type LoadOptions, type LoadResult } from './load.js';
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
async function receiver(mode: () => Mode): Promise<{ server: Server; url: string; received: () => number; close: () => Promise<void> }> {
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
    server, url: `http://127.0.0.1:${port}/hook`, received: () => count,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const describe = (r: LoadResult): string => `${Math.round(r.rps)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, non-2xx ${r.failures}`;

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
    const context = { runId: 'addons', duration: options.duration, warmup: 1, hotFlags: hot.flags, clientToken: hot.clientToken };
    const load: LoadOptions = { duration: options.duration, connections: options.connections, warmup: 1 };
    const toggles = async (): Promise<LoadResult> => runLoad(target, await toggle.build(target, context), load);
    const rows: ScaleRow[] = [];
    const alone = await toggles();
    rows.push({ measure: `toggle load alone (${options.connections} connections), no addon`, value: describe(alone), goal: '', met: undefined });
    const addon = await call(target, 'POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: hook.url }, events: ['feature-environment-enabled', 'feature-environment-disabled'] });
    if (addon.status !== 201) throw new Error(`creating the addon answered ${addon.status}: ${addon.text}`);
    for (const [now, words] of [['fast', 'answers at once'], ['hang', `hangs ${HANG_MS / 1000} s on every request`], ['failing', 'answers 503 (retried)']] as const) {
      mode = now;
      const before = await toggles();
      const at = hook.received();
      const measured = await toggles();
      const got = hook.received() - at;
      rows.push({
        measure: `the same with a webhook addon on every on/off whose receiver ${words}`,
        value: `${describe(measured)}; p99 ${(measured.p99Ms / before.p99Ms).toFixed(2)}× the run just before (${before.p99Ms.toFixed(2)} ms); the receiver got ${got} requests during the run (${Math.round(measured.requests)} toggles)`,
        goal: '', met: undefined,
      });
    }
    return rows;
  } finally {
    await hook.close();
    await stopServer(server);
  }
}
