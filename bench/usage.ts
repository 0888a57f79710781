/**
 * The usage-metrics phase (issue 11, "Speed"): do SDK metrics posts slow the admin writes down? On a fresh
 * server with the 200-flag project, the toggle scenario runs alone, then again while 1,000 simulated SDK
 * instances post `POST /api/client/metrics` (each its own `instanceId`, counts for 20 flags, the body the Node
 * SDK sends). A real SDK posts once a minute (`metricsInterval`, 60 s): here each instance posts once a second,
 * 60 times harder, together 1,000 posts a second. Target: the toggle p99 with them within 20% of its figure
 * without them.
 */
import autocannon from 'autocannon';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { targetFromUrl } from './client.js';
import { runLoad, type LoadResult } from './load.js';
import type { ScaleRow } from './scale.js';
import { SCENARIOS, seedHotProject } from './scenarios.js';
import { BENCH_TOKEN, freePort, startServer, stopServer } from './server.js';

export interface UsageOptions {
  entry: string;
  workDir: string;
  duration: number;
  connections: number;
  /** Simulated SDK instances, each posting once a second. */
  instances: number;
}

/** Flags each simulated instance reports counts for. */
const FLAGS_PER_POST = 20;

const describe = (r: LoadResult): string => `${Math.round(r.rps)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, non-2xx ${r.failures}`;

export async function runUsage(options: UsageOptions): Promise<ScaleRow[]> {
  const dataDir = join(options.workDir, 'usage-data');
  await mkdir(dataDir, { recursive: true });
  const server = await startServer({ entry: options.entry, dataDir, port: await freePort(), logFile: join(options.workDir, 'usage-server.log') });
  try {
    const target = targetFromUrl('flagpole', server.url, BENCH_TOKEN);
    const hot = await seedHotProject(target, 'usage');
    const toggle = SCENARIOS.find((s) => s.name === 'toggle')!;
    const context = { runId: 'usage', duration: options.duration, warmup: 1, hotFlags: hot.flags, clientToken: hot.clientToken };
    const load = { duration: options.duration, connections: options.connections, warmup: 1 };
    const alone = await runLoad(target, await toggle.build(target, context), load);

    let k = 0;
    const posts = autocannon({
      url: target.origin,
      connections: 50,
      duration: options.duration + 2,
      overallRate: options.instances,
      timeout: 30,
      requests: [{
        method: 'POST',
        path: `${target.prefix}/api/client/metrics`,
        headers: { authorization: hot.clientToken, 'content-type': 'application/json' },
        setupRequest: (request) => {
          const n = k++;
          const instance = n % options.instances;
          const toggles: Record<string, unknown> = {};
          for (let i = 0; i < FLAGS_PER_POST; i += 1) {
            toggles[hot.flags[(instance + i) % hot.flags.length]!] = { yes: 10 + (n % 7), no: 3, variants: { disabled: 13 } };
          }
          const now = Date.now();
          request.body = JSON.stringify({
            appName: `bench-app-${instance % 20}`, instanceId: `bench-instance-${instance}`, environment: 'development',
            bucket: { start: new Date(now - 1000).toISOString(), stop: new Date(now).toISOString(), toggles },
          });
          return request;
        },
      }],
    });
    const postStatuses = new Map<number, number>();
    posts.on('response', (_client, status) => postStatuses.set(status, (postStatuses.get(status) ?? 0) + 1));
    // The posts run a second ahead and a second after: the toggles are measured with them at full rate.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const withPosts = await runLoad(target, await toggle.build(target, context), load);
    const posted = await posts;
    const ratio = withPosts.p99Ms / alone.p99Ms;
    const answered = [...postStatuses].map(([status, count]) => `${count}× ${status}`).join(', ');
    return [
      { measure: 'toggle load alone (32 connections)', value: describe(alone), goal: '', met: undefined },
      {
        measure: `the same while ${options.instances} SDK instances each post their metrics once a second (${FLAGS_PER_POST} flags a post)`,
        value: `${describe(withPosts)}; posts: ${Math.round(posted.requests.average)} req/s, ${answered}`,
        goal: '', met: undefined,
      },
      { measure: 'toggle p99 with the posts ÷ without', value: `${ratio.toFixed(2)}×`, goal: '≤ 1.2×', met: ratio <= 1.2 },
    ];
  } finally {
    await stopServer(server);
  }
}
