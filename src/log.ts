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

/** Bytes of info lines gathered before one write to standard output (sonic-boom's `minLength`). */
const GATHER_BYTES = 8 * 1024;
/** How often lines still gathered are written anyway, so a quiet server's lines show at once. */
const GATHER_MS = 250;

/**
 * The service's logger (pino): `info` and below on standard output, `warn` and above on standard error (so
 * an operator's `2>` catches what needs attention). JSON lines go through asynchronous destinations: info
 * lines are gathered into writes of a few KB (a request's line never waits for the terminal or the disk),
 * warnings and errors are written as they come. {@link flushLogSync} writes what waits before an exit.
 *
 * @example const log = createLogger({ level: 'info', format: 'json' }); log.info({ reqId }, 'request');
 */
export function createLogger(options: { level: LogLevel; format: LogFormat }, destination?: DestinationStream): Logger {
  const base = { level: options.level, base: { service: 'flagpole' }, redact: { paths: REDACT, censor: '[redacted]' } };
  if (destination) return pino(base, destination);
  if (options.format === 'pretty') {
    const to = (fd: 1 | 2): DestinationStream =>
      pretty({ destination: fd, colorize: (fd === 1 ? process.stdout : process.stderr).isTTY ?? false, ignore: 'pid,hostname,service' });
    return pino(base, pino.multistream([{ level: 'trace', stream: to(1) }, { level: 'warn', stream: to(2) }], { dedupe: true }));
  }
  // Standard output in sonic-boom's buffer mode: handed text, it re-measures its whole pending text on every
  // line. Request lines are gathered apart (docs/performance.md "Request log lines").
  const out = pino.destination({ fd: 1, sync: false, contentMode: 'buffer', minLength: GATHER_BYTES, periodicFlush: GATHER_MS });
  // sonic-boom's types know only its text mode.
  const writeBytes = (bytes: Buffer) => out.write(bytes as unknown as string);
  const requests = new RequestLines(writeBytes);
  const stdout = { write: (line: string) => writeBytes(Buffer.from(line)), flushSync: () => { requests.flush(); out.flushSync(); } };
  const log = pino(base, pino.multistream([{ level: 'trace', stream: stdout }, { level: 'warn', stream: pino.destination({ fd: 2, sync: false }) }], { dedupe: true }));
  REQUEST_LINES.set(log, requests);
  return log;
}

/**
 * Writes every line still waiting in the logger's destinations, synchronously: the last step before
 * `process.exit` (pino also does it on exit; this makes the order explicit).
 */
export function flushLogSync(log: Logger): void {
  const stream = (log as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[pino.symbols.streamSym];
  stream?.flushSync?.();
}

/** Request lines of the JSON format, gathered and handed to standard output 64 at a time and every 250 ms. */
class RequestLines {
  private lines: string[] = [];

  constructor(private readonly write: (bytes: Buffer) => unknown) {
    setInterval(() => this.flush(), GATHER_MS).unref();
  }

  push(line: string): void {
    if (this.lines.push(line) >= 64) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.write(Buffer.from(text));
  }
}

const REQUEST_LINES = new WeakMap<Logger, RequestLines>();

/** Writes the line of one answered request: its id, method, status and duration in milliseconds. */
export type RequestLineWriter = (reqId: string, method: string, status: number, ms: number) => void;

/**
 * The request line writer of one route (null: no route matched): one line per request with the route template,
 * `reqId`, `method`, `status` and `ms` (rounded to hundredths), message `request`, the same JSON object
 * `log.child({ route }).info({ reqId, method, status, ms }, 'request')` writes. It is at `info`, except an
 * answer 304 Not Modified, at `debug`: that is an SDK's poll with nothing new, most of what a fleet of SDKs
 * sends, and a line for each would bury the others (the request metric still counts every one). In the JSON
 * format the line is written by hand and gathered (docs/performance.md "Request log lines"); otherwise pino
 * writes it.
 *
 * @example const line = requestLineWriter(log, '/health'); line(reqId, 'GET', 200, 0.31);
 */
export function requestLineWriter(log: Logger, route: string | null): RequestLineWriter {
  const gathered = REQUEST_LINES.get(log);
  if (!gathered) {
    // Its fields are fixed and hold no secret, so the line skips the redaction every other line goes through.
    // Made on the route's first line: an app has hundreds of routes, and most are never asked in a process's life.
    let child: Logger | undefined;
    return (reqId, method, status, ms) => {
      child ??= log.child({ route }, { redact: [] });
      const fields = { reqId, method, status, ms: Math.round(ms * 100) / 100 };
      if (status === NOT_MODIFIED) child.debug(fields, 'request');
      else child.info(fields, 'request');
    };
  }
  const middle = `,"service":"flagpole","route":${JSON.stringify(route)},"reqId":`;
  return (reqId, method, status, ms) => {
    const quiet = status === NOT_MODIFIED;
    if (!log.isLevelEnabled(quiet ? 'debug' : 'info')) return;
    gathered.push(`{"level":${quiet ? 20 : 30},"time":${Date.now()}${middle}${JSON.stringify(reqId)},"method":${JSON.stringify(method)},"status":${status},"ms":${Math.round(ms * 100) / 100},"msg":"request"}\n`);
  };
}

/** The status whose request lines are at `debug` (`requestLineWriter`). */
const NOT_MODIFIED = 304;

/** A logger that writes nothing, for tests and tools that do not log. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
