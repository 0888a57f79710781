import type { ServerResponse } from 'node:http';
import type { CommittedFeed } from '../../actors/committed-feed.js';
import type { Logger } from '../../log.js';
import type { ClientDeltaQuery, DeltaAnswer, DeltaQuery } from '../../queries/sdk/client-delta.query.js';
import type { ClientScope } from '../../queries/sdk/client-features.query.js';
import { FanOut, type Subscriber } from './client-stream-fan-out.js';
import { CONNECTED, KEEP_ALIVE, message, refetch, type StreamFormat } from './client-stream-messages.js';
import { Slices } from './client-stream-pacing.js';
import { responseSink, webStreamSink, type Closable, type StreamSink } from './client-stream-sinks.js';

/** The streaming settings (`CLIENT_STREAMING_*`, docs/limits.md). */
export interface StreamSettings {
  maxConnections: number;
  /** Bytes a stream may hold unread; past them the client counts as stalled and its connection is closed. */
  bufferBytes: number;
  keepAliveMs: number;
}

/** An open stream: what its fan-outs read, and where its bytes go. */
interface Connection extends Subscriber {
  sink: StreamSink;
}

const MAX_CACHED_HYDRATIONS = 100;

/**
 * The open `GET /api/client/streaming` connections (and the OFREP event streams, `format: 'ofrep'`) and their
 * fan-out (docs/client-contract.md "Backend SDK API").
 *
 * Each commit schedules a fan-out (`FanOut`: when, and the messages shared by the streams that need them);
 * fan-outs and keep-alive rounds run in slices (`Slices`), so a request waits behind one slice at most. A
 * connection queues at most `bufferBytes` unread: a client that does not read is closed (its socket
 * destroyed), which costs no other client anything; the SDK reconnects with its `Last-Event-ID`.
 *
 * When the registry closes, every stream is ended cleanly (the SDK reconnects to the next server and resumes
 * from its `Last-Event-ID`, or gets a hydration).
 */
export class ClientStreams {
  private readonly connections = new Set<Connection>();
  /** The `unleash-connected` hydration bytes per query key at one revision: SDKs connecting together share them. */
  private readonly hydrations = new Map<string, { revision: number; bytes: Uint8Array }>();
  private readonly slices = new Slices();
  private readonly fanOut: FanOut<Connection>;
  /** A round of keep-alive comments is under way. */
  private pinging = false;
  private closed = false;
  /** `unleash-connected` and `unleash-updated` messages queued to clients since the start (keep-alives are not counted). */
  private pushed = 0;
  private keepAlive: NodeJS.Timeout | undefined;
  private readonly stopFeed: () => void;
  private readonly stopClose: () => void;

  constructor(
    private readonly feed: CommittedFeed,
    private readonly delta: ClientDeltaQuery,
    private readonly settings: StreamSettings,
    private readonly log: Logger,
  ) {
    this.fanOut = new FanOut(feed, delta, this.slices, {
      count: () => this.connections.size,
      list: () => [...this.connections],
      deliver: (connection, bytes) => {
        if (!this.send(connection, bytes)) return false;
        this.pushed += 1;
        return true;
      },
    });
    this.stopFeed = feed.subscribe(() => this.fanOut.schedule());
    this.stopClose = feed.onClose(() => this.close());
  }

  /** Streams open now. */
  get size(): number {
    return this.connections.size;
  }

  /** Streams open now (the metrics' `flagpole_streaming_clients`). */
  connectedClients(): number {
    return this.connections.size;
  }

  /** Messages (`unleash-connected`, `unleash-updated`) queued to clients since the start, keep-alives aside (`flagpole_streaming_events_pushed_total`). */
  eventsPushed(): number {
    return this.pushed;
  }

  /** Whether one more stream would be accepted. */
  hasRoom(): boolean {
    return !this.closed && this.connections.size < this.settings.maxConnections;
  }

  /**
   * Opens a stream for a client of `scope` that has seen `lastEventId` (undefined: nothing): its first message
   * is `unleash-connected` with a hydration or the deltas since. `full`: the limit is reached; `closed`: the
   * service is stopping.
   */
  open(scope: ClientScope, query: DeltaQuery, lastEventId: number | undefined, socket?: Closable, format: StreamFormat = 'unleash'): ReadableStream<Uint8Array> | 'full' | 'closed' {
    if (!this.hasRoom()) return this.closed ? 'closed' : 'full';
    let connection: Connection | undefined;
    return webStreamSink(this.settings.bufferBytes, socket, (sink) => {
      connection = this.connect(scope, query, lastEventId, format, sink);
    }, () => {
      if (connection) this.forget(connection);
    });
  }

  /**
   * Opens a stream on Node's response itself (the fast path of `GET /api/client/streaming`): writes the head
   * (`headers`, status 200) with the first message; each message after is one `res.write`. `full` and
   * `closed` as `open`, with nothing written. Hand-kept for speed: docs/performance.md "SDK stream fast path".
   */
  openOnNode(scope: ClientScope, query: DeltaQuery, lastEventId: number | undefined, res: ServerResponse, headers: Record<string, string>): true | 'full' | 'closed' {
    if (!this.hasRoom()) return this.closed ? 'closed' : 'full';
    res.writeHead(200, headers);
    const connection = this.connect(scope, query, lastEventId, 'unleash', responseSink(res, this.settings.bufferBytes));
    // The client went away (or its socket was destroyed).
    res.once('close', () => this.forget(connection));
    return true;
  }

  /** Registers a connection and sends its first message: a hydration, the deltas since `lastEventId`, or (OFREP) a hint. */
  private connect(scope: ClientScope, query: DeltaQuery, lastEventId: number | undefined, format: StreamFormat, sink: StreamSink): Connection {
    const { resolved, key } = this.delta.resolve(scope, query);
    // An OFREP client fetched its evaluation just before; it is told to fetch again only when something it
    // can see changed after the revision it presents (a reconnect's `Last-Event-ID`).
    const first = format === 'ofrep' && lastEventId === undefined
      ? { kind: 'none' as const, revision: this.feed.revision, body: '' }
      : this.delta.since(resolved, key, lastEventId);
    const connection: Connection = { format, resolved, key, answerKey: `${format}|${key}`, revision: first.revision, sink, open: true };
    this.connections.add(connection);
    if (format === 'ofrep') sink.write(first.kind === 'none' ? CONNECTED : refetch(first.revision));
    else sink.write(first.kind === 'hydration' ? this.hydrationBytes(key, first) : message('unleash-connected', first));
    this.pushed += 1;
    this.keepAlive ??= setInterval(() => this.ping(), this.settings.keepAliveMs).unref();
    return connection;
  }

  /** Ends every stream cleanly and accepts no more (the registry is closing). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopFeed();
    this.stopClose();
    for (const connection of [...this.connections]) {
      this.forget(connection);
      connection.sink.end();
    }
  }

  private hydrationBytes(key: string, answer: DeltaAnswer): Uint8Array {
    const cached = this.hydrations.get(key);
    if (cached && cached.revision === answer.revision) return cached.bytes;
    const bytes = message('unleash-connected', answer);
    if (!cached && this.hydrations.size >= MAX_CACHED_HYDRATIONS) this.hydrations.clear();
    this.hydrations.set(key, { revision: answer.revision, bytes });
    return bytes;
  }

  /**
   * Calls `listener` after each fan-out that sent something, with the seconds from the first commit it carried
   * until its writes were handed to the sockets (`flagpole_streaming_delivery_seconds`).
   */
  onDelivery(listener: (seconds: number) => void): void {
    this.fanOut.onDelivery(listener);
  }

  /** A keep-alive comment to every stream, in slices as a fan-out is, so thousands of streams never stall the loop at once. */
  private ping(): void {
    if (this.connections.size === 0) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
      return;
    }
    if (this.pinging || this.closed) return;
    this.pinging = true;
    this.slices.run([...this.connections], (connection) => connection.open && this.send(connection, KEEP_ALIVE), () => {
      this.pinging = false;
    });
  }

  /** Queues `bytes` to `connection`, or closes it when it holds more than its buffer unread: whether it was queued. */
  private send(connection: Connection, bytes: Uint8Array): boolean {
    const room = connection.sink.room();
    if (room !== null && room < 0) {
      this.stall(connection);
      return false;
    }
    connection.sink.write(bytes);
    return true;
  }

  /** Closes a client that holds more than its buffer unread: its socket at once, when there is one. */
  private stall(connection: Connection): void {
    this.forget(connection);
    this.log.warn({ buffered: this.settings.bufferBytes }, 'client stream closed: the client did not read (CLIENT_STREAMING_BUFFER_BYTES)');
    connection.sink.destroy();
  }

  private forget(connection: Connection): void {
    if (!connection.open) return;
    connection.open = false;
    this.connections.delete(connection);
  }
}
