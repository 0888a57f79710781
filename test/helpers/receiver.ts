import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';

/** One request a receiver got, as it arrived. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent (gzip is not undone). */
  raw: Buffer;
  /** The body as text (gunzipped when `content-encoding: gzip`). */
  text: string;
  /** The body parsed as JSON, when it is JSON; else undefined. */
  json: unknown;
}

/** What the receiver answers: a status (and body), or nothing at all (the request hangs until the receiver closes). */
export type Reply = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

/** A real HTTP receiver on 127.0.0.1 that records what it gets and answers as told. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** How the next requests are answered (200 by default). */
  reply: (request: Received) => Reply;
  /** Stops listening (connections refused) and ends hanging requests; `up()` listens again on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver; `reply` answers each request (200 `ok` when absent). */
export async function receiver(reply: Receiver['reply'] = () => ({ status: 200, body: 'ok' }), port = 0): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  let server: Server;
  const listen = (p: number) => new Promise<Server>((resolve, reject) => {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const request: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, text, json };
        r.received.push(request);
        const answer = r.reply(request);
        if (answer === 'hang') {
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        }
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      });
    });
    s.keepAliveTimeout = 1000;
    s.once('error', reject);
    s.listen(p, '127.0.0.1', () => resolve(s));
  });
  server = await listen(port);
  const bound = (server.address() as { port: number }).port;
  const stop = () => new Promise<void>((resolve) => {
    for (const res of hanging) res.destroy();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  const r: Receiver = {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    received: [],
    reply,
    down: stop,
    async up() {
      server = await listen(bound);
    },
    close: stop,
  };
  return r;
}
