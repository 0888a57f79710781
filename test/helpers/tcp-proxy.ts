/**
 * A TCP proxy of the test's own (node:net) between one process and a server, that the test can cut: the
 * network between one node and PostgreSQL, failing while the others' stays up.
 */
import { createConnection, createServer, type Socket } from 'node:net';

/** A running proxy to one server. */
export interface TcpProxy {
  port: number;
  /**
   * Cuts the link: `reset` ends every connection at once and refuses new ones (the server's host gone, a
   * firewall that rejects); `silent` keeps the connections open but drops every byte both ways and holds new
   * ones unanswered (a partition: nothing comes back, nothing says so).
   */
  cut(mode: 'reset' | 'silent'): void;
  /** Lets traffic through again; connections held by a silent cut are closed (their sessions are gone). */
  heal(): void;
  /** Holds every byte `ms` before passing it on, both ways, in order (a slow link); 0 passes at once. */
  delay(ms: number): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free port of 127.0.0.1 to `target` (host:port).
 *
 * @example const proxy = await tcpProxy('127.0.0.1', 5432); ...; proxy.cut('silent'); ...; proxy.heal();
 */
export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  let state: 'open' | 'reset' | 'silent' = 'open';
  let delayMs = 0;
  const pairs = new Set<[Socket, Socket]>();
  const held = new Set<Socket>();
  const server = createServer((client) => {
    client.on('error', () => undefined);
    if (state === 'reset') return void client.resetAndDestroy();
    if (state === 'silent') {
      held.add(client);
      client.on('close', () => held.delete(client));
      return;
    }
    const upstream = createConnection({ host, port });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) => {
      // Bytes wait their time in order, so a delay never reorders a connection's stream.
      const queue: { chunk: Buffer; due: number }[] = [];
      let timer: NodeJS.Timeout | null = null;
      const pump = () => {
        timer = null;
        while (queue.length > 0 && queue[0]!.due <= Date.now()) {
          const { chunk } = queue.shift()!;
          if (state === 'open') to.write(chunk);
        }
        if (queue.length > 0) timer = setTimeout(pump, queue[0]!.due - Date.now());
      };
      from.on('data', (chunk: Buffer) => {
        if (state !== 'open') return;
        if (delayMs === 0 && queue.length === 0) return void to.write(chunk);
        queue.push({ chunk, due: Date.now() + delayMs });
        timer ??= setTimeout(pump, delayMs);
      });
      from.on('close', () => { if (timer) clearTimeout(timer); });
    };
    forward(client, upstream);
    forward(upstream, client);
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close);
    upstream.on('close', close);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the proxy has no port');
  const dropAll = () => {
    for (const [client, upstream] of [...pairs]) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    for (const socket of [...held]) socket.resetAndDestroy();
  };
  return {
    port: address.port,
    cut(mode) {
      state = mode;
      if (mode === 'reset') dropAll();
    },
    delay(ms) {
      delayMs = ms;
    },
    heal() {
      if (state === 'silent') dropAll();
      state = 'open';
    },
    async close() {
      dropAll();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
