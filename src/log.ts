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
  // Request lines are buffered up to 8 KB and written together (one write per ~50 lines, not per line);
  // the buffer is flushed every 250 ms, so a quiet server's lines still appear at once. Warnings and errors
  // are written as they come.
  const out = pino.destination({ fd: 1, sync: false, minLength: 8 * 1024 });
  const err = pino.destination({ fd: 2, sync: false });
  setInterval(() => out.flush(), 250).unref();
  return withRequestSink(pino(base, pino.multistream([{ level: 'trace', stream: out }, { level: 'warn', stream: err }], { dedupe: true })), out);
}

const REQUEST_SINK = Symbol('requestSink');

/** One request's line: what `requestLine` writes. */
export interface RequestLine {
  reqId: string;
  method: string;
  route: string | null;
  status: number;
  ms: number;
}

/**
 * Writes one request line, the same JSON object `log.info({...}, 'request')` would write, straight to the
 * info destination: a line per request is the hot path of logging, and this costs a string instead of
 * pino's generic serialization. Every value is known to need no escaping: the request id is checked by
 * `hono/request-id` (letters, digits, `-`, `_`, `=`), the route is a template from the route table, the
 * method an HTTP token. Nothing when `info` is off; the ordinary logger for the readable format.
 */
export function requestLine(log: Logger, line: RequestLine): void {
  if (!log.isLevelEnabled('info')) return;
  const sink = (log as unknown as Record<symbol, DestinationStream | undefined>)[REQUEST_SINK];
  if (!sink || !SAFE.test(line.reqId) || !SAFE_ROUTE.test(line.route ?? '') || !SAFE.test(line.method)) {
    log.info(line, 'request');
    return;
  }
  const route = line.route === null ? 'null' : `"${line.route}"`;
  sink.write(`{"level":30,"time":${Date.now()},"service":"flagpole","reqId":"${line.reqId}","method":"${line.method}","route":${route},"status":${line.status},"ms":${line.ms},"msg":"request"}\n`);
}

const SAFE = /^[\w\-=]*$/;
const SAFE_ROUTE = /^[\w\-/:.*]*$/;

function withRequestSink(log: Logger, sink: DestinationStream): Logger {
  Object.defineProperty(log, REQUEST_SINK, { value: sink });
  return log;
}

/** A logger that writes nothing, for tests and tools that do not log. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
