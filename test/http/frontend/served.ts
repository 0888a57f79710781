/** Serves a harness's app on a free port of 127.0.0.1 as `npm start` does (`serveApp`), for clients that speak real HTTP (SDKs, the proxy). */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveApp } from '../../../src/http/server.js';
import { closeGracefully } from '../../helpers/close-server.js';
import type { Harness } from '../../helpers/harness.js';

export interface Served {
  base: string;
  close(): Promise<void>;
}

/** Serves `h`; `close` answers the requests already received before it closes (stop the clients first). */
export function serveHarness(h: Harness): Promise<Served> {
  return new Promise((resolve) => {
    let close: () => Promise<void> = async () => undefined;
    const server = serveApp(() => h.app, { port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({ base: `http://127.0.0.1:${info.port}`, close });
    }) as Server;
    close = closeGracefully(server);
  });
}
