import type { ServerResponse } from 'node:http';
import type { CommittedFeed } from '../actors/committed-feed.js';
import type { Logger } from '../log.js';
import type { ClientDeltaQuery, DeltaAnswer, DeltaQuery } from '../queries/client-delta.query.js';
import type { ClientScope, ResolvedQuery } from '../queries/client-features.query.js';

/** The streaming settings (`CLIENT_STREAMING_*`, docs/limits.md). */
export interface StreamSettings {
  maxConnections: number;
  /** Bytes a stream may hold unread; past them the client counts as stalled and its connection is closed. */
  bufferBytes: number;
  keepAliveMs: number;
}

/** What can close the socket under a stream at once (the Node response, when served by a Node server). */
export interface Closable {
  destroy(): void;
}

/**
 * What a stream speaks: `unleash` (`GET /api/client/streaming`: the deltas themselves) or `ofrep` (the OFREP
 * event stream: only `refetchEvaluation` hints, the client fetches its evaluation again).
 */
export type StreamFormat = 'unleash' | 'ofrep';

/** A message as one chunk of a chunked HTTP body (`<size in hex>\r\n<bytes>\r\n`), made once per message. */
const chunks = new WeakMap<Uint8Array, Buffer>();
function chunkOf(bytes: Uint8Array): Buffer {
  let chunk = chunks.get(bytes);
  if (chunk === undefined) {
    const head = `${bytes.byteLength.toString(16)}\r\n`;
    chunk = Buffer.allocUnsafe(head.length + bytes.byteLength + 2);
    chunk.write(head, 0, 'latin1');
    chunk.set(bytes, head.length);
    chunk.write('\r\n', head.length + bytes.byteLength, 'latin1');
    chunks.set(bytes, chunk);
  }
  return chunk;
}

/**
 * Where a stream's bytes go: the controller of a WHATWG stream (the route's `Response`, served by Hono) or
 * Node's response itself (`openOnNode`, the Node shortcut: a socket write per message, no promise per chunk).
 */
interface StreamSink {
  /** Bytes it may still hold unread before its client counts as stalled (negative: past it; null: unknown). */
  room(): number | null;
  write(bytes: Uint8Array): void;
  /** Ends the stream cleanly. */
  end(): void;
  /** Closes it at once (its socket, when there is one). */
  destroy(): void;
}

interface Connection {
  format: StreamFormat;
  resolved: ResolvedQuery;
  key: string;
  /**
   * What a fan-out shares its answers by besides the revision: the format and the query key, built once per
   * connection (a string built per connection and fan-out, hashed and compared, was ~3% of a fan-out).
   */
  answerKey: string;
  /** The revision this client has been sent. */
  revision: number;
  sink: StreamSink;
  open: boolean;
}

const encoder = new TextEncoder();
const MAX_CACHED_HYDRATIONS = 100;
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** One SSE message: its event, its revision as `id`, the delta JSON (one line: JSON escapes newlines) as `data`. */
const message = (event: 'unleash-connected' | 'unleash-updated', answer: DeltaAnswer): Uint8Array =>
  encoder.encode(`event: ${event}\nid: ${answer.revision}\ndata: ${answer.kind === 'none' ? '{"events":[]}' : answer.body}\n\n`);

/** An OFREP hint: fetch the bulk evaluation again; the revision is its `id` (a reconnect sends it back) and its `etag`. */
const refetch = (revision: number): Uint8Array =>
  encoder.encode(`id: ${revision}\ndata: {"type":"refetchEvaluation","etag":"${revision}"}\n\n`);
const CONNECTED = encoder.encode(': connected\n\n');

/**
 * The open `GET /api/client/streaming` connections (and the OFREP event streams, `format: 'ofrep'`) and their fan-out (CLIENT-API "Backend SDK API").
 *
 * The feed's listener only notes that something was committed; the fan-out runs on the next turn of the event
 * loop, so the actors' mailboxes never wait for it, and batches committed together go out as one message. A
 * fan-out writes about {@link FANOUT_SLICE_MS} ms worth of connections per turn of the loop, so a request waits
 * behind one slice at most, never behind the whole fan-out. A change after a quiet spell goes out at once; while
 * writes keep coming (commits arrived during the last fan-out) the next fan-out waits {@link FANOUT_SPACING_FACTOR}
 * times the last one's busy time (its JavaScript and socket writes, ~60 ms at 5,000 streams on loopback), so the
 * streams take a few percent of the loop and every change still goes out, gathered into one message. Each
 * message is built once per (scope, query, revision) and the same bytes are queued to every connection that
 * shares them. A connection queues at most `bufferBytes` unread: a client that does not read is closed (its
 * socket destroyed), which costs no other client anything; the SDK reconnects with its `Last-Event-ID`.
 *
 * When the registry closes, every stream is ended cleanly (the SDK reconnects to the next server and resumes
 * from its `Last-Event-ID`, or gets a hydration).
 */
/** Shortest time from the end of a fan-out to the start of the next, ms: commits within it go out as one message. */
export const MIN_FANOUT_SPACING_MS = 2;
/**
 * The longest a fan-out holds the event loop at a time, ms: it writes as many connections per turn of the loop
 * as the last fan-out managed in this time (a socket write on loopback also runs the receiving side's TCP work,
 * ~13 µs), so a request waits behind about this much of a fan-out, never behind all of it.
 */
export const FANOUT_SLICE_MS = 1;
/** Connections written per turn of the loop before a fan-out has measured its speed (and at least this many after). */
export const FANOUT_CHUNK = 32;
/**
 * The spacing of fan-outs while writes keep coming, in fan-out busy times. At 2, as first built, 5,000 streams held a
 * third of the event loop; at 10 (one fan-out in one go) the admin writes' p99 was 22× its figure without streams,
 * at 40 in slices ~1.3×: the streams take ~2.5% of the loop, and under a flood of writes a change waits up to ~40
 * fan-outs' time (~2.6 s at 5,000 streams on loopback). A change after a quiet spell is not spaced at all.
 */
export const FANOUT_SPACING_FACTOR = 40;
/**
 * Committed changes a second above which writes are a flood (a bulk script, an import): the spacing grows with
 * the rate, up to {@link FANOUT_FLOOD_MAX_MULTIPLE} times. Under a flood of toggles (~10,000 a second) with 5,000
 * streams, a spacing of 40 fan-out times left the admin writes' p99 at 1.15 to 1.71× their figure without
 * streams; at 200, 1.00× (rounds' median 1.04×). A change then waits up to ~12 s for the streams at 5,000 of them
 * on loopback (the Node SDK polls every 15 s); below this rate nothing changes.
 */
export const FANOUT_FLOOD_RATE = 1000;
export const FANOUT_FLOOD_MAX_MULTIPLE = 5;

/**
 * When the next fan-out may start after one that took `busyMs` while writes kept coming at `changesPerSecond`:
 * {@link FANOUT_SPACING_FACTOR} times its busy time, times the flood's multiple.
 *
 * @example fanOutSpacing(60, 10) // 2400: 40 × 60 ms
 * @example fanOutSpacing(60, 20_000) // 12000: 5 × 40 × 60 ms
 */
export function fanOutSpacing(busyMs: number, changesPerSecond: number): number {
  // Not a number (two starts in the same instant with no change between): no flood.
  const rate = changesPerSecond > 0 ? changesPerSecond : 0;
  const multiple = Math.min(FANOUT_FLOOD_MAX_MULTIPLE, Math.max(1, rate / FANOUT_FLOOD_RATE));
  return Math.max(MIN_FANOUT_SPACING_MS, FANOUT_SPACING_FACTOR * multiple * busyMs);
}

export class ClientStreams {
  private readonly connections = new Set<Connection>();
  /** The `unleash-connected` hydration bytes per query key at one revision: SDKs connecting together share them. */
  private readonly hydrations = new Map<string, { revision: number; bytes: Uint8Array }>();
  private scheduled = false;
  /** A fan-out is under way (between its slices). */
  private fanning = false;
  /** A round of keep-alive comments is under way. */
  private pinging = false;
  /** What the last fan-out or keep-alive round took per connection, ms (its busy time, socket writes included). */
  private msPerConnection = Number.POSITIVE_INFINITY;
  /** `performance.now()` before which the next fan-out does not start. */
  private nextFanOutAt = 0;
  private closed = false;
  /** `unleash-connected` and `unleash-updated` messages queued to clients since the start (keep-alives are not counted). */
  private pushed = 0;
  private keepAlive: NodeJS.Timeout | undefined;
  /** `performance.now()` of the first commit not yet fanned out (null: none waiting). */
  private pendingSince: number | null = null;
  /** When the last fan-out started and the feed's revision then; the changes a second between two starts. */
  private lastStart = { at: Number.NEGATIVE_INFINITY, revision: 0 };
  private changesPerSecond = 0;
  private readonly deliveryListeners: ((seconds: number) => void)[] = [];
  private readonly stopFeed: () => void;
  private readonly stopClose: () => void;

  constructor(
    private readonly feed: CommittedFeed,
    private readonly delta: ClientDeltaQuery,
    private readonly settings: StreamSettings,
    private readonly log: Logger,
  ) {
    this.stopFeed = feed.subscribe(() => this.schedule());
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
    if (this.closed) return 'closed';
    if (this.connections.size >= this.settings.maxConnections) return 'full';
    let connection: Connection | undefined;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        connection = this.connect(scope, query, lastEventId, format, {
          room: () => controller.desiredSize,
          write: (bytes) => controller.enqueue(bytes),
          end: () => {
            try {
              controller.close();
            } catch {
              // Already errored by a cancel in flight: nothing left to end.
            }
          },
          destroy: () => (socket ? socket.destroy() : controller.error(new Error('stalled client'))),
        });
      },
      // The client went away (or its socket was destroyed).
      cancel: () => {
        if (connection) this.forget(connection);
      },
    }, new ByteLengthQueuingStrategy({ highWaterMark: this.settings.bufferBytes }));
  }

  /**
   * Opens a stream on Node's response itself (the Node shortcut of `GET /api/client/streaming`): writes the head
   * (`headers`, status 200) and the first message; each message after is one `write` to the socket. `full` and
   * `closed` as `open`, with nothing written.
   */
  openOnNode(scope: ClientScope, query: DeltaQuery, lastEventId: number | undefined, res: ServerResponse, headers: Record<string, string>): true | 'full' | 'closed' {
    if (this.closed) return 'closed';
    if (this.connections.size >= this.settings.maxConnections) return 'full';
    res.writeHead(200, headers);
    // The head goes out now; each message after is one chunk of the chunked body, framed once per message and
    // written to the socket as one buffer (`res.write` would make four writes of it, and an array per call).
    res.flushHeaders();
    const bufferBytes = this.settings.bufferBytes;
    const socket = res.socket;
    // An HTTP/1.0 client gets no chunked body: its messages go through the response as they are.
    const connection = this.connect(scope, query, lastEventId, 'unleash', socket === null || !res.chunkedEncoding ? {
      room: () => bufferBytes - res.writableLength,
      write: (bytes) => { res.write(bytes); },
      end: () => { res.end(); },
      destroy: () => { res.destroy(); },
    } : {
      room: () => bufferBytes - socket.writableLength,
      write: (bytes) => { socket.write(chunkOf(bytes)); },
      end: () => { res.end(); },
      destroy: () => { res.destroy(); },
    });
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
   * until its writes were handed to the sockets: the server's part of a change reaching the SDKs
   * (`flagpole_streaming_delivery_seconds`).
   */
  onDelivery(listener: (seconds: number) => void): void {
    this.deliveryListeners.push(listener);
  }

  private schedule(): void {
    if (this.connections.size === 0) return;
    this.pendingSince ??= performance.now();
    // A fan-out under way schedules the next one when it ends.
    if (this.scheduled || this.fanning) return;
    this.scheduled = true;
    const wait = this.nextFanOutAt - performance.now();
    if (wait > 0) setTimeout(() => this.fanOut(), wait);
    else setImmediate(() => this.fanOut());
  }

  /**
   * Sends every connection what it has not seen, one answer per (query, revision) shared by all who need it,
   * about {@link FANOUT_SLICE_MS} ms worth of connections per turn of the event loop, so requests never wait
   * behind more than one slice. Connections opened during it were hydrated at their revision; those closed are skipped.
   */
  private fanOut(): void {
    this.scheduled = false;
    if (this.closed) return;
    this.fanning = true;
    const since = this.pendingSince;
    this.pendingSince = null;
    const start = { at: performance.now(), revision: this.feed.revision };
    this.changesPerSecond = (start.revision - this.lastStart.revision) / ((start.at - this.lastStart.at) / 1000);
    this.lastStart = start;
    // Answers by format and query key, then by the revision the client was at.
    const answers = new Map<string, Map<number, { answer: DeltaAnswer; bytes: Uint8Array | null }>>();
    this.inSlices((connection) => {
      let byRevision = answers.get(connection.answerKey);
      if (!byRevision) answers.set(connection.answerKey, (byRevision = new Map()));
      let shared = byRevision.get(connection.revision);
      if (!shared) {
        const answer = this.delta.since(connection.resolved, connection.key, connection.revision);
        shared = { answer, bytes: answer.kind === 'none' ? null : connection.format === 'ofrep' ? refetch(answer.revision) : message('unleash-updated', answer) };
        byRevision.set(connection.revision, shared);
      }
      connection.revision = shared.answer.revision;
      if (!shared.bytes || !this.send(connection, shared.bytes)) return false;
      this.pushed += 1;
      return true;
    }, (sent, busy, end) => this.fannedOut(since, sent, busy, end));
  }

  /**
   * Runs `each` over the open connections, about {@link FANOUT_SLICE_MS} ms worth of them per turn of the event
   * loop (as many as the last fan-out wrote in that time), then `done` with how many `each` wrote to, the busy
   * time (its JavaScript and socket writes) and when it ended. Connections closed meanwhile are skipped.
   */
  private inSlices(each: (connection: Connection) => boolean, done: (sent: number, busy: number, end: number) => void): void {
    const targets = [...this.connections];
    let busy = 0;
    let sent = 0;
    const perSlice = Math.max(FANOUT_CHUNK, Math.floor(FANOUT_SLICE_MS / this.msPerConnection));
    const slice = (from: number) => {
      const start = performance.now();
      const to = Math.min(targets.length, from + perSlice);
      for (let i = from; i < to; i += 1) {
        const connection = targets[i]!;
        if (connection.open && each(connection)) sent += 1;
      }
      // Node hands a response's writes to the kernel when it uncorks the socket, in a tick queued by the first
      // write: this tick runs after those, so the slice's time includes its socket writes.
      process.nextTick(() => {
        const end = performance.now();
        busy += end - start;
        if (to < targets.length) setImmediate(() => slice(to));
        else {
          if (sent > 0) this.msPerConnection = busy / sent;
          done(sent, busy, end);
        }
      });
    };
    slice(0);
  }

  /**
   * After a fan-out: the delivery time to its listeners, and when the next may start. A change after a quiet
   * spell goes out at once; when commits came in while this fan-out ran (writes keep coming), the next waits
   * {@link FANOUT_SPACING_FACTOR} times this one's busy time (more under a flood: {@link fanOutSpacing}),
   * gathering them into one message.
   */
  private fannedOut(since: number | null, sent: number, busy: number, end: number): void {
    this.fanning = false;
    if (since !== null && sent > 0) for (const listener of this.deliveryListeners) listener((end - since) / 1000);
    const underLoad = this.pendingSince !== null;
    this.nextFanOutAt = end + (underLoad ? fanOutSpacing(busy, this.changesPerSecond) : MIN_FANOUT_SPACING_MS);
    if (underLoad) this.schedule();
  }

  /**
   * A keep-alive comment to every stream, in slices as a fan-out is: written in one go, 5,000 streams held the
   * event loop ~60 ms every interval, a stall every request in flight waited behind.
   */
  private ping(): void {
    if (this.connections.size === 0) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
      return;
    }
    if (this.pinging || this.closed) return;
    this.pinging = true;
    this.inSlices((connection) => this.send(connection, KEEP_ALIVE), () => {
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
