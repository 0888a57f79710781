/**
 * The request line as `requestLineWriter` writes it: one JSON object per line from a child logger bound to the
 * route template, the duration rounded to hundredths, nothing below the configured level.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, requestLineWriter, type LogLevel } from '../../src/log.js';

/** A logger at `level` whose lines are collected. */
function collected(level: LogLevel = 'info') {
  const lines: string[] = [];
  const log = createLogger({ level, format: 'json' }, { write: (line: string) => void lines.push(line) });
  return { log, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>), raw: lines };
}

describe('requestLineWriter', () => {
  it('given durations with any fraction, when lines are written, then each reads back rounded to hundredths', () => {
    const { log, parsed, raw } = collected();
    const line = requestLineWriter(log, '/api/admin/projects/:projectId');
    const durations = [0, 0.004, 0.005, 0.015, 0.1, 1, 9.999, 12.3456, 100.05, 1234.5, 65_432.109];
    for (const [i, ms] of durations.entries()) line(`req-${i}`, 'POST', 201, ms);
    expect(parsed().map((l) => l['ms'])).toEqual(durations.map((ms) => Math.round(ms * 100) / 100));
    expect(parsed()[0]).toEqual({
      level: 30, time: expect.any(Number), service: 'flagpole', reqId: 'req-0', method: 'POST',
      route: '/api/admin/projects/:projectId', status: 201, ms: 0, msg: 'request',
    });
    // Every line one JSON object of its own.
    for (const text of raw) expect(text.endsWith('}\n') && text.indexOf('\n') === text.length - 1).toBe(true);
  });

  it('given a route or id that needs escaping, or no route, when a line is written, then it reads back as given', () => {
    const { log, parsed } = collected();
    requestLineWriter(log, '/odd "route"\n')('r"1', 'GET', 404, 3.14159);
    requestLineWriter(log, null)('r2', 'BREW', 404, 1);
    expect(parsed()).toMatchObject([
      { msg: 'request', route: '/odd "route"\n', status: 404, ms: 3.14, reqId: 'r"1' },
      { msg: 'request', route: null, method: 'BREW', reqId: 'r2' },
    ]);
  });

  it('given an answer 304, when its line is written, then it is at debug: written at debug, left out at info', () => {
    const atDebug = collected('debug');
    const atInfo = collected('info');
    for (const { log } of [atDebug, atInfo]) {
      const line = requestLineWriter(log, '/api/client/features');
      line('poll-1', 'GET', 304, 0.2);
      line('poll-2', 'GET', 200, 0.3);
    }
    expect(atDebug.parsed().map((l) => [l['reqId'], l['level']])).toEqual([['poll-1', 20], ['poll-2', 30]]);
    expect(atInfo.parsed().map((l) => l['reqId'])).toEqual(['poll-2']);
  });

  it('given a logger at warn, when a request line is written, then nothing is', () => {
    const { log, raw } = collected('warn');
    requestLineWriter(log, '/health')('r1', 'GET', 200, 0.5);
    expect(raw).toEqual([]);
  });
});
