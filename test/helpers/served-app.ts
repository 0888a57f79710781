/**
 * A harness's app served over a real socket as `npm start` serves it (`serveApp`: the fast paths in front
 * of Hono), with the requests that reached Hono counted, for the tests of those fast paths.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { vi } from 'vitest';
import { serveApp } from '../../src/http/server.js';
import { closeGracefully } from './close-server.js';
import { harnessTest } from './fixtures.js';
import type { Harness } from './harness.js';

export interface Served {
  base: string;
  /** How many requests reached Hono (`app.fetch`) so far. */
  honoCalls(): number;
}

/**
 * `h`'s app served over a real socket as `flagpole start` serves it (`serveApp`: the fast paths in front of
 * Hono) on a free port; `close` ends it gracefully.
 *
 * @example const { base, close } = await serveHarness(h); ...; await close();
 */
export async function serveHarness(h: Harness): Promise<{ base: string; close: () => Promise<void> }> {
  const server = await new Promise<Server>((listening) => {
    const s = serveApp(() => h.app, { port: 0, hostname: '127.0.0.1' }, () => listening(s as Server));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: closeGracefully(server) };
}

/** A test with `h` (request log lines kept: `LOG_LEVEL=info`, plus `env`), arranged by `arrange`, and `served`. */
export function servedAppTest(env: Record<string, string>, arrange: (h: Harness) => Promise<void>) {
  return harnessTest({ env: { LOG_LEVEL: 'info', ...env }, arrange }).extend<{ served: Served }>({
    served: async ({ h }: { h: Harness }, use: (served: Served) => Promise<void>) => {
      const fetch = vi.spyOn(h.app, 'fetch');
      const { base, close } = await serveHarness(h);
      try {
        await use({ base, honoCalls: () => fetch.mock.calls.length });
      } finally {
        await close();
      }
    },
  });
}

/** The `_count` of the request histogram for one route and status, from the Prometheus endpoint. */
export async function requestCount(served: Served, route: string, status: number): Promise<number> {
  const text = await (await fetch(`${served.base}/internal-backstage/prometheus`)).text();
  const line = text.split('\n').find((l) => l.startsWith('flagpole_http_request_duration_seconds_count{') && l.includes(`route="${route}"`) && l.includes(`status="${status}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}
