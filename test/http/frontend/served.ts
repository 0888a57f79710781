/** Serves a harness's app on a free port of 127.0.0.1 as `npm start` does (`serveApp`), for clients that speak real HTTP (SDKs, the proxy). */
import type { AddressInfo } from 'node:net';
import { serveApp } from '../../../src/http/server.js';
import type { Harness } from '../../helpers/harness.js';

export interface Served {
  base: string;
  close(): Promise<void>;
}

export function serveHarness(h: Harness): Promise<Served> {
  return new Promise((resolve) => {
    const server = serveApp(() => h.app, { port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        base: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => {
          if ('closeAllConnections' in server) server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

/** Waits until `check` holds, polling every 20 ms; fails after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
