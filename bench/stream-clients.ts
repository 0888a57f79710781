/**
 * The load process of the streaming phase (bench/streams.ts): holds many `GET /api/client/streaming`
 * connections over raw TCP sockets (an HTTP/1.1 request written by hand, the chunked answer and the SSE
 * messages parsed here: no SDK instance per client), in its own process so the clients never share the
 * server's event loop or the bench's. Driven over the IPC channel by the messages of `LoaderRequest`.
 *
 * Times are `performance.timeOrigin + performance.now()` (milliseconds since the epoch, sub-millisecond), the
 * same clock the bench reads when the admin API answers, so the two processes' times can be subtracted.
 */
import net from 'node:net';

/** What the bench asks of a load process. */
export type LoaderRequest =
  | { type: 'connect'; host: string; port: number; token: string; count: number; sourceAddresses: string[]; concurrency: number }
  | { type: 'expect'; marker: string; timeoutMs: number }
  | { type: 'status' }
  | { type: 'exit' };

/** What a load process answers. */
export type LoaderReply =
  | { type: 'connected'; open: number; failed: number; statuses: Record<string, number>; errors: Record<string, number>; ms: number }
  | { type: 'armed' }
  | { type: 'status'; open: number; closed: number }
  /** `times`: when each client saw the marked event; `missing`: clients open when armed that did not; `closed`: since armed. */
  | { type: 'seen'; times: number[]; missing: number; closed: number; open: number };

export const now = (): number => performance.timeOrigin + performance.now();

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const MESSAGE_END = Buffer.from('\n\n');
const EMPTY = Buffer.alloc(0);
/** Longest SSE message kept while it is being received (a hydration of the bench's flags is far smaller). */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/**
 * The one buffer every socket of this process reads into (`onread`): no buffer, `Buffer` and `'data'` event per
 * read, so reading 5,000 messages costs this process a fraction of what the server's fan-out costs. What must
 * outlive a read (the rest of a message, of a chunk-size line) is copied out of it.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** Whether `bytes` starts with `prefix`. */
function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/**
 * One SSE client: the parse state of its chunked body, and what it has seen. Each read is parsed where it lies in
 * {@link READ_BUFFER}; the messages handed to `onMessage` are views valid only during the call.
 */
class StreamClient {
  status = 0;
  connected = false;
  closed = false;
  socket!: net.Socket;
  /** Bytes of the head or of a chunk-size line not parsed yet (a copy). */
  private pending: Buffer = EMPTY;
  private inBody = false;
  /** Bytes left in the current chunk, -1 while a chunk-size line is awaited, -2 for the CRLF after a chunk. */
  private chunkLeft = -1;
  /** The start of a message whose end has not come yet (a copy). */
  private message: Buffer = EMPTY;

  constructor(
    private readonly onMessage: (client: StreamClient, message: Buffer) => void,
    private readonly onHead: (client: StreamClient) => void,
  ) {}

  /** Bytes read from the socket (a view into the shared read buffer). */
  receive(read: Buffer): void {
    let data = this.pending.length === 0 ? read : Buffer.concat([this.pending, read]);
    this.pending = EMPTY;
    if (!this.inBody) {
      const end = data.indexOf(HEAD_END);
      if (end < 0) {
        this.pending = Buffer.from(data);
        return;
      }
      this.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      data = data.subarray(end + 4);
      this.inBody = true;
      this.onHead(this);
      if (this.status !== 200) return;
    }
    this.decodeChunks(data);
  }

  /** Strips the chunked framing, handing the body bytes to the SSE splitter. */
  private decodeChunks(data: Buffer): void {
    let at = 0;
    while (at < data.length) {
      if (this.chunkLeft === -1) {
        const eol = data.indexOf(CRLF, at);
        if (eol < 0) {
          this.pending = Buffer.from(data.subarray(at));
          return;
        }
        this.chunkLeft = parseInt(data.toString('latin1', at, eol), 16);
        at = eol + 2;
        if (!Number.isFinite(this.chunkLeft) || this.chunkLeft === 0) return; // the end of the stream
      } else if (this.chunkLeft === -2) {
        if (data.length - at < 2) {
          this.pending = Buffer.from(data.subarray(at));
          return;
        }
        at += 2;
        this.chunkLeft = -1;
      } else {
        const take = Math.min(this.chunkLeft, data.length - at);
        this.body(data.subarray(at, at + take));
        at += take;
        this.chunkLeft -= take;
        if (this.chunkLeft === 0) this.chunkLeft = -2;
      }
    }
  }

  /** Splits the body into SSE messages (a blank line ends one). */
  private body(bytes: Buffer): void {
    let data = this.message.length === 0 ? bytes : Buffer.concat([this.message, bytes]);
    this.message = EMPTY;
    let end: number;
    while ((end = data.indexOf(MESSAGE_END)) >= 0) {
      this.onMessage(this, data.subarray(0, end));
      data = data.subarray(end + 2);
    }
    if (data.length > MAX_MESSAGE_BYTES) this.socket.destroy(new Error('SSE message too long'));
    else if (data.length > 0) this.message = Buffer.from(data);
  }
}

const CONNECTED = Buffer.from('event: unleash-connected');
const UPDATED = Buffer.from('event: unleash-updated');

function main(): void {
  const clients: StreamClient[] = [];
  let armed: { marker: Buffer; seen: Map<StreamClient, number>; timer: NodeJS.Timeout; liveAtArm: number; closedAtArm: number } | undefined;
  let closed = 0;
  /** Clients that got their `unleash-connected` and are still open. */
  let live = 0;
  const send = (reply: LoaderReply): void => void process.send?.(reply);

  const finish = (): void => {
    if (!armed) return;
    clearTimeout(armed.timer);
    const times = [...armed.seen.values()];
    send({ type: 'seen', times, missing: armed.liveAtArm - times.length, closed: closed - armed.closedAtArm, open: live });
    armed = undefined;
  };

  const onMessage = (client: StreamClient, message: Buffer): void => {
    if (startsWith(message, CONNECTED)) {
      if (!client.connected && !client.closed) live++;
      client.connected = true;
      return;
    }
    if (!armed || !startsWith(message, UPDATED)) return;
    if (armed.seen.has(client) || message.indexOf(armed.marker) < 0) return;
    armed.seen.set(client, now());
    if (armed.seen.size >= live) finish();
  };

  const connect = async (request: Extract<LoaderRequest, { type: 'connect' }>): Promise<void> => {
    const started = now();
    const statuses: Record<string, number> = {};
    const errors: Record<string, number> = {};
    let next = 0;
    const head = `GET /api/client/streaming HTTP/1.1\r\nHost: ${request.host}:${request.port}\r\nAuthorization: ${request.token}\r\n` +
      'Accept: text/event-stream\r\nUnleash-Client-Spec: 5.1.0\r\nUnleash-AppName: flagpole-bench\r\n\r\n';
    // One connection: resolves when its first message (`unleash-connected`) came, or it failed.
    const open = (i: number): Promise<void> => new Promise((resolve) => {
      const localAddress = request.sourceAddresses[i % request.sourceAddresses.length];
      let settled = false;
      const settle = (): void => {
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      const client = new StreamClient((c, message) => {
        onMessage(c, message);
        if (c.connected) settle();
      }, (c) => {
        statuses[c.status] = (statuses[c.status] ?? 0) + 1;
        if (c.status !== 200) c.socket.destroy();
      });
      const socket = net.connect({
        host: request.host, port: request.port, ...(localAddress ? { localAddress } : {}),
        onread: { buffer: READ_BUFFER, callback: (bytes: number) => {
          client.receive(READ_BUFFER.subarray(0, bytes));
          return true;
        } },
      });
      client.socket = socket;
      clients.push(client);
      socket.setNoDelay(true);
      socket.on('connect', () => socket.write(head));
      socket.on('error', (error: NodeJS.ErrnoException) => {
        const code = error.code ?? error.message;
        errors[code] = (errors[code] ?? 0) + 1;
      });
      socket.on('close', () => {
        if (client.connected && !client.closed) {
          closed++;
          live--;
        }
        client.closed = true;
        settle();
        // A client that drops while a toggle is awaited no longer holds it up.
        if (armed && armed.seen.size >= live) finish();
      });
    });
    const worker = async (): Promise<void> => {
      while (next < request.count) await open(next++);
    };
    await Promise.all(Array.from({ length: Math.min(request.concurrency, request.count) }, worker));
    send({ type: 'connected', open: live, failed: request.count - live, statuses, errors, ms: now() - started });
  };

  process.on('message', (request: LoaderRequest) => {
    if (request.type === 'connect') void connect(request);
    else if (request.type === 'expect') {
      armed = { marker: Buffer.from(request.marker), seen: new Map(), timer: setTimeout(finish, request.timeoutMs), liveAtArm: live, closedAtArm: closed };
      send({ type: 'armed' });
      // No client left to wait for: the answer is already known.
      if (live === 0) finish();
    } else if (request.type === 'status') {
      send({ type: 'status', open: live, closed });
    } else if (request.type === 'exit') {
      for (const client of clients) client.socket.destroy();
      process.disconnect?.();
      process.exit(0);
    }
  });
  // The bench went away: nothing left to do.
  process.on('disconnect', () => process.exit(0));
}

if (process.send) main();
