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
  const to = (fd: 1 | 2): DestinationStream => options.format === 'pretty'
    ? pretty({ destination: fd, colorize: (fd === 1 ? process.stdout : process.stderr).isTTY ?? false, ignore: 'pid,hostname,service' })
    : pino.destination(fd === 1 ? { fd, sync: false, minLength: GATHER_BYTES, periodicFlush: GATHER_MS } : { fd, sync: false });
  return pino(base, pino.multistream([{ level: 'trace', stream: to(1) }, { level: 'warn', stream: to(2) }], { dedupe: true }));
}

/**
 * Writes every line still waiting in the logger's destinations, synchronously: the last step before
 * `process.exit` (pino also does it on exit; this makes the order explicit).
 */
export function flushLogSync(log: Logger): void {
  const stream = (log as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[pino.symbols.streamSym];
  stream?.flushSync?.();
}

/** Writes the line of one answered request: its id, method, status and duration in milliseconds. */
export type RequestLineWriter = (reqId: string, method: string, status: number, ms: number) => void;

/**
 * The request line writer of one route: a child logger bound to the route template (null: no route
 * matched), writing at `info` one line per request with `reqId`, `method`, `status` and `ms` (rounded to
 * hundredths), message `request`.
 *
 * @example const line = requestLineWriter(log, '/health'); line(reqId, 'GET', 200, 0.31);
 */
export function requestLineWriter(log: Logger, route: string | null): RequestLineWriter {
  const child = log.child({ route });
  return (reqId, method, status, ms) => child.info({ reqId, method, status, ms: Math.round(ms * 100) / 100 }, 'request');
}

/** A logger that writes nothing, for tests and tools that do not log. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
