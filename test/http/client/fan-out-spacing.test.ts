/**
 * How long the streams wait between fan-outs while writes keep coming (`fanOutSpacing`): 40 fan-out times, more
 * under a flood of changes, never more than 5 times that, never less than the 2 ms floor. That every change
 * still reaches every stream under such writes is `client-streaming.test.ts`'s ("writes that keep coming are
 * gathered, none lost") and the bench's ("streams still open after each such load").
 */
import { describe, expect, test } from 'vitest';
import { FANOUT_FLOOD_MAX_MULTIPLE, FANOUT_FLOOD_RATE, FANOUT_SPACING_FACTOR, fanOutSpacing, MIN_FANOUT_SPACING_MS } from '../../../src/http/streams/client-stream-pacing.js';

describe('the spacing of fan-outs while writes keep coming', () => {
  test('below a flood: the factor times the fan-out\'s busy time', () => {
    expect(fanOutSpacing(60, 0)).toBe(FANOUT_SPACING_FACTOR * 60);
    expect(fanOutSpacing(60, 10)).toBe(FANOUT_SPACING_FACTOR * 60);
    expect(fanOutSpacing(60, FANOUT_FLOOD_RATE)).toBe(FANOUT_SPACING_FACTOR * 60);
  });

  test('a flood: longer with the rate, up to the largest multiple', () => {
    expect(fanOutSpacing(60, 2 * FANOUT_FLOOD_RATE)).toBe(2 * FANOUT_SPACING_FACTOR * 60);
    expect(fanOutSpacing(60, 3.5 * FANOUT_FLOOD_RATE)).toBeCloseTo(3.5 * FANOUT_SPACING_FACTOR * 60);
    expect(fanOutSpacing(60, 10_000)).toBe(FANOUT_FLOOD_MAX_MULTIPLE * FANOUT_SPACING_FACTOR * 60);
    expect(fanOutSpacing(60, Number.POSITIVE_INFINITY)).toBe(FANOUT_FLOOD_MAX_MULTIPLE * FANOUT_SPACING_FACTOR * 60);
  });

  test('a rate that is no number, or a fan-out that took no time: no flood, the floor', () => {
    expect(fanOutSpacing(60, Number.NaN)).toBe(FANOUT_SPACING_FACTOR * 60);
    expect(fanOutSpacing(60, -5)).toBe(FANOUT_SPACING_FACTOR * 60);
    expect(fanOutSpacing(0, 10_000)).toBe(MIN_FANOUT_SPACING_MS);
    expect(fanOutSpacing(0.001, 0)).toBe(MIN_FANOUT_SPACING_MS);
  });
});
