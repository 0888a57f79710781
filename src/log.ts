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
 * request log line never waits for the terminal or the disk (lines written while one write is in flight go
 * out together); `flush()` it before exiting.
 *
 * @example const log = createLogger({ level: 'info', format: 'json' }); log.info({ reqId }, 'request');
 */
export function createLogger(options: { level: LogLevel; format: LogFormat }, destination?: DestinationStream): Logger {
  const base = { level: options.level, base: { service: 'flagpole' }, redact: { paths: REDACT, censor: '[redacted]' } };
  if (destination) return pino(base, destination);
  const to = (fd: 1 | 2): DestinationStream => options.format === 'pretty'
    ? pretty({ destination: fd, colorize: (fd === 1 ? process.stdout : process.stderr).isTTY ?? false, ignore: 'pid,hostname,service' })
    : pino.destination({ fd, sync: false });
  return pino(base, pino.multistream([{ level: 'trace', stream: to(1) }, { level: 'warn', stream: to(2) }], { dedupe: true }));
}

/** A logger that writes nothing, for tests and tools that do not log. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
