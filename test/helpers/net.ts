import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now, for a server a test starts as its own process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The port a service started with `PORT=0` listens on, read from its "listening on http://host:port" line; null
 * until it has said so. The kernel picks the port as it binds, so no other process can take it first (a port
 * from {@link freePort} is free only until something else binds it, an outgoing connection included).
 */
export function listeningPort(output: string): number | null {
  // The line whole: a chunk may end inside the port.
  const match = /listening on http:\/\/[^\s"]+:(\d+)["\s]/.exec(output);
  return match ? Number(match[1]) : null;
}
