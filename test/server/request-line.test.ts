/**
 * The request line as `requestLineWriter` writes it straight to the info destination: the same JSON a
 * `log.info({...}, 'request')` would give, with its time and its duration written from cached and whole numbers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger, hundredthsText, requestLineWriter } from '../../src/log.js';

/** A logger whose lines are collected, parsed. */
function collected() {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', format: 'json' }, { write: (line: string) => void lines.push(line) });
  return { log, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>), raw: lines };
}

describe('hundredthsText', () => {
  it('given whole hundredths, when written, then the text is String(hundredths / 100)', () => {
    for (let h = 0; h <= 20_000; h += 1) expect(hundredthsText(h)).toBe(String(h / 100));
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (h) => hundredthsText(h) === String(h / 100)));
  });
});

describe('requestLineWriter', () => {
  it('given durations with any fraction, when lines are written, then each reads back rounded to hundredths', () => {
    const { log, parsed, raw } = collected();
    const line = requestLineWriter(log, '/api/admin/projects/:projectId', true);
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

  it('given lines over several milliseconds, when written, then each time is the clock at its writing', async () => {
    const { log, parsed } = collected();
    const line = requestLineWriter(log, '/health', true);
    const bounds: [number, number][] = [];
    for (let i = 0; i < 20; i += 1) {
      const before = Date.now();
      line(`r${i}`, 'GET', 200, 0.5);
      bounds.push([before, Date.now()]);
      await new Promise((resolve) => setTimeout(resolve, i % 3));
    }
    const times = parsed().map((l) => l['time'] as number);
    for (const [i, time] of times.entries()) {
      expect(time).toBeGreaterThanOrEqual(bounds[i]![0]);
      expect(time).toBeLessThanOrEqual(bounds[i]![1]);
    }
    expect(new Set(times).size).toBeGreaterThan(1);
  });

  it('given a route the fast path does not write as is, when a line is written, then the logger gets the rounded duration', () => {
    const seen: Record<string, unknown>[] = [];
    const log = createLogger({ level: 'info', format: 'json' }, { write: (line: string) => void seen.push(JSON.parse(line) as Record<string, unknown>) });
    requestLineWriter(log, '/odd route', true)('r1', 'GET', 404, 3.14159);
    expect(seen[0]).toMatchObject({ msg: 'request', route: '/odd route', status: 404, ms: 3.14, reqId: 'r1' });
  });
});
