import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/** Levels `LOG_LEVEL` accepts, most to least severe, plus `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `json`: one JSON object per line (production); `pretty`: readable lines for a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * Keys whose values never reach a log line, wherever they appear: a request's `Authorization` header, and
 * any `secret` or `token` field of an object that gets logged by mistake.
 */
const REDACT = ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'secret', '*.secret', 'token', '*.token'];

/**
 * The service's logger (pino): `info` and below on standard output, `warn` and above on standard error (so
 * an operator's `2>` catches what needs attention). JSON lines go through asynchronous destinations, so a
 * request log line never waits for the terminal or the disk; `flush()` it before exiting.
 *
 * @example const log = createLogger({ level: 'info', format: 'json' }); log.info({ reqId }, 'request');
 */
export function createLogger(options: { level: LogLevel; format: LogFormat }, destination?: DestinationStream): Logger {
  const base = { level: options.level, base: { service: 'flagpole' }, redact: { paths: REDACT, censor: '[redacted]' } };
  if (destination) return withRequestSink(pino(base, destination), destination);
  if (options.format === 'pretty') {
    // No request sink: request lines go through the logger, to be made readable.
    const to = (fd: 1 | 2): DestinationStream =>
      pretty({ destination: fd, colorize: (fd === 1 ? process.stdout : process.stderr).isTTY ?? false, ignore: 'pid,hostname,service' });
    return pino(base, pino.multistream([{ level: 'trace', stream: to(1) }, { level: 'warn', stream: to(2) }], { dedupe: true }));
  }
  // Request lines are copied into a 64 KB buffer and handed over as one chunk (one write per ~300 lines, not
  // per line: each write is a system call and a hand-over to a libuv thread); the chunk is also handed over
  // every 250 ms, so a quiet server's lines still appear at once. Standard output takes bytes (sonic-boom's
  // buffer mode): a chunk of strings would be measured and encoded again three times on its way to the fd,
  // and the lines waiting in it would be kept alive through the young generation's collections. Warnings and
  // errors are written as they come.
  const out = pino.destination({ fd: 1, sync: false, contentMode: 'buffer' });
  const err = pino.destination({ fd: 2, sync: false });
  // sonic-boom's types know only its text mode.
  const writeBytes = (chunk: Buffer) => out.write(chunk as unknown as string);
  const requests = new LineBatch(writeBytes);
  setInterval(() => requests.flush(), 250).unref();
  const text: DestinationStream = { write: (line: string) => writeBytes(Buffer.from(line)) };
  const log = pino(base, pino.multistream([{ level: 'trace', stream: text }, { level: 'warn', stream: err }], { dedupe: true }));
  const flush = log.flush.bind(log);
  log.flush = (callback?: (error?: Error) => void) => {
    requests.flush();
    flush(callback);
  };
  return withRequestSink(log, requests);
}

/**
 * Lines copied into a buffer of `chunkBytes` and handed to `sink` (a destination taking bytes) as one chunk
 * when the next lines would not fit, or when flushed. They are copied 64 at a time, joined: one copy into the
 * buffer per line (a call into Node, and the flattening of the line's text) cost ~0.12 µs a line measured
 * alone and up to ~0.6 µs of a request in profiles under load; 64 lines wait ~4 ms at 15,000 requests a
 * second, too short for most to outlive a young-generation collection. A line must be ASCII: `requestLineWriter` writes only values it checked, and anything else goes
 * through the logger.
 */
class LineBatch implements DestinationStream {
  private buffer: Buffer;
  private used = 0;
  private readonly lines: string[] = [];

  constructor(private readonly sink: (chunk: Buffer) => unknown, private readonly chunkBytes = 64 * 1024, private readonly linesPerCopy = 64) {
    this.buffer = Buffer.allocUnsafeSlow(chunkBytes);
  }

  write(line: string): void {
    this.lines.push(line);
    if (this.lines.length >= this.linesPerCopy) this.copy();
  }

  flush(): void {
    this.copy();
    if (this.used === 0) return;
    // The sink keeps the chunk until it is written: the next lines go to a new buffer.
    const chunk = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafeSlow(this.chunkBytes);
    this.used = 0;
    this.sink(chunk);
  }

  /** Copies the lines waiting into the buffer, handing the chunk over first when they would not fit. */
  private copy(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines.length = 0;
    if (this.used + text.length > this.chunkBytes) {
      this.flush();
      // More than a chunk of lines at once (none are: 64 lines of routes and ids fit) goes alone.
      if (text.length > this.chunkBytes) return void this.sink(Buffer.from(text, 'latin1'));
    }
    this.used += this.buffer.write(text, this.used, 'latin1');
  }
}

const REQUEST_SINK = Symbol('requestSink');

/** One request's line: what a request line writer writes. */
export interface RequestLine {
  reqId: string;
  method: string;
  route: string | null;
  status: number;
  ms: number;
}

/**
 * Writes the line of one answered request to `route` (its template, fixed when the writer is made); `ms`, the
 * time it took, is written rounded to hundredths.
 */
export type RequestLineWriter = (reqId: string, method: string, status: number, ms: number) => void;

/**
 * The request line writer of one route: it writes the same JSON object `log.info({...}, 'request')` would,
 * straight to the info destination: a line per request is the hot path of logging, and this costs a string
 * instead of pino's generic serialization. Every value is known to need no escaping: the route template is
 * checked here, once; the request id is checked where it is taken (letters, digits, `-`, `_`, `=`, or a
 * UUID), and checked again here only if it could not be; the method is one Node's parser knows. Nothing
 * when `info` is off; the ordinary logger for the readable format.
 *
 * @example const line = requestLineWriter(log, '/health'); line(reqId, 'GET', 200, 0.31);
 */
export function requestLineWriter(log: Logger, route: string | null, idsChecked = false): RequestLineWriter {
  const sink = (log as unknown as Record<symbol, DestinationStream | undefined>)[REQUEST_SINK];
  const viaLogger: RequestLineWriter = (reqId, method, status, ms) => {
    if (log.isLevelEnabled('info')) log.info({ reqId, method, route, status, ms: Math.round(ms * 100) / 100 } satisfies RequestLine, 'request');
  };
  if (!sink || !SAFE_ROUTE.test(route ?? '')) return viaLogger;
  const routeJson = route === null ? 'null' : `"${route}"`;
  return (reqId, method, status, ms) => {
    if (!log.isLevelEnabled('info')) return;
    if ((!idsChecked && !SAFE.test(reqId)) || !METHODS.has(method)) return viaLogger(reqId, method, status, ms);
    sink.write(`{"level":30,"time":${nowText()},"service":"flagpole","reqId":"${reqId}","method":"${method}","route":${routeJson},"status":${status},"ms":${hundredthsText(Math.round(ms * 100))},"msg":"request"}\n`);
  };
}

/*
 * The numbers of a request line as text, without V8's conversion of a heap number (both are heap numbers: the
 * time is past 2^31, the duration a fraction): ~0.1 µs of a line's ~0.25 µs, measured alone. The time's text
 * is kept for the millisecond it names (a busy server writes several lines in each); the duration is written
 * from its whole hundredths.
 */
let lastNow = 0;
let lastNowText = '0';

/** `String(Date.now())`, converted once per millisecond. */
function nowText(): string {
  const now = Date.now();
  if (now !== lastNow) {
    lastNow = now;
    lastNowText = String(now);
  }
  return lastNowText;
}

/**
 * `String(hundredths / 100)` for a whole, non-negative number of hundredths: the same text (no trailing zeros,
 * no fraction when there is none) from the whole part and the two digits.
 *
 * @example hundredthsText(1230) === '12.3'; hundredthsText(5) === '0.05'
 */
export function hundredthsText(hundredths: number): string {
  const whole = Math.floor(hundredths / 100);
  const rest = hundredths - whole * 100;
  if (rest === 0) return `${whole}`;
  if (rest % 10 === 0) return `${whole}.${rest / 10}`;
  return rest < 10 ? `${whole}.0${rest}` : `${whole}.${rest}`;
}

const SAFE = /^[\w\-=]*$/;
const SAFE_ROUTE = /^[\w\-/:.*]*$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function withRequestSink(log: Logger, sink: DestinationStream): Logger {
  Object.defineProperty(log, REQUEST_SINK, { value: sink });
  return log;
}

/** A logger that writes nothing, for tests and tools that do not log. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
