import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { vi } from 'vitest';
import { untilState } from './wait.js';

/** Event streams never end by themselves: a close answers everything else, then cuts them. */
const isStream = (req: IncomingMessage): boolean => String(req.headers.accept ?? '').includes('text/event-stream');

/**
 * A close for a test's HTTP server that treats its clients as a real stop would: no new connections, every
 * request already received answered, then the connections left (event streams, idle keep-alives) closed. An
 * SDK stopped just before still has its last poll on the way; cut, that fetch would fail after the test, in
 * the SDK's own code (an unhandled rejection of the next test file, at worst). Call it on the server as soon
 * as it is created, so that it sees every request.
 *
 * @example const server = serveApp(app, options); const close = closeGracefully(server); ... await close();
 */
export function closeGracefully(server: Server): () => Promise<void> {
  const answering = new Map<ServerResponse, IncomingMessage>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    answering.set(res, req);
    res.once('close', () => answering.delete(res));
  });
  return async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await vi.waitFor(() => {
      const left = [...answering.values()].filter((req) => !isStream(req)).map((req) => `${req.method} ${req.url}`);
      if (left.length > 0) throw new Error(`requests still being answered: ${left.join(', ')}`);
    }, untilState(10));
    server.closeAllConnections();
    await closed;
  };
}
