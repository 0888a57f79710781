/**
 * The metrics kept by hand (request durations, group commits, commands committed) give the exposition
 * prom-client's own `Histogram` and `Counter` give for the same observations: Prometheus cannot tell them apart.
 */
import fc from 'fast-check';
import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HandCounter, HandHistogram } from '../../src/queries/hand-metrics.js';

const BOUNDS = [0.0005, 0.001, 0.002, 0.005, 0.01, 1, 10];

/**
 * The exposition of one registry holding `metric` alone, each sample's labels in name order (Prometheus reads
 * labels by name: the hand-kept series write `le` last, prom-client first).
 */
async function exposition(metric: (register: client.Registry) => void): Promise<string[]> {
  const register = new client.Registry();
  metric(register);
  return (await register.metrics()).trimEnd().split('\n').map((line) => {
    const sample = /^(\w+)\{(.*)\} (.*)$/.exec(line);
    return sample ? `${sample[1]}{${sample[2]!.split(',').sort().join(',')}} ${sample[3]}` : line;
  });
}

describe('HandHistogram', () => {
  it('given any observations, with or without labels, when scraped, then the samples are prom-client\'s for the same', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.oneof(fc.constantFrom(...BOUNDS, 0, 20), fc.double({ min: 0, max: 20, noNaN: true })), { maxLength: 40 }),
      fc.boolean(),
      async (values, labelled) => {
        const labels: Record<string, string> = labelled ? { route: '/x', method: 'GET', status: '200' } : {};
        const hand = await exposition((register) => {
          const histogram = new HandHistogram('x_seconds', 'How long x took', BOUNDS);
          register.registerMetric(histogram as unknown as client.Metric);
          const series = histogram.child(labels);
          for (const value of values) HandHistogram.observe(series, value);
        });
        const library = await exposition((register) => {
          const histogram = new client.Histogram({ name: 'x_seconds', help: 'How long x took', buckets: BOUNDS, labelNames: Object.keys(labels), registers: [register] });
          if (labelled) histogram.zero(labels);
          for (const value of values) histogram.observe(labels, value);
        });
        expect(hand).toEqual(library);
      },
    ), { numRuns: 200 });
  });

  it('given a value equal to a bound, when observed, then it counts in that bound\'s bucket (le: less or equal)', async () => {
    const histogram = new HandHistogram('x', 'x', [1, 2]);
    const series = histogram.child({});
    for (const value of [1, 2, 2.5]) HandHistogram.observe(series, value);
    expect(Array.from(series.counts)).toEqual([1, 1, 1]);
    expect({ sum: series.sum, count: series.count }).toEqual({ sum: 5.5, count: 3 });
    histogram.reset();
    expect({ counts: Array.from(series.counts), sum: series.sum, count: series.count }).toEqual({ counts: [0, 0, 0], sum: 0, count: 0 });
  });
});

describe('HandCounter', () => {
  it('given increments of any label sets, when scraped, then the samples are prom-client\'s for the same', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom('flag.create', 'flag.update', 'strategy.add'), { maxLength: 30 }), async (types) => {
      const hand = await exposition((register) => {
        const counter = new HandCounter('x_total', 'Xs done, by type');
        register.registerMetric(counter as unknown as client.Metric);
        const children = new Map<string, ReturnType<typeof counter.child>>();
        for (const type of types) {
          if (!children.has(type)) children.set(type, counter.child({ type }));
          HandCounter.inc(children.get(type)!);
        }
      });
      const library = await exposition((register) => {
        const counter = new client.Counter({ name: 'x_total', help: 'Xs done, by type', labelNames: ['type'], registers: [register] });
        for (const type of types) counter.labels(type).inc();
      });
      expect(hand).toEqual(library);
    }), { numRuns: 100 });
  });

  it('given a reset, when scraped, then every series reads 0 and counts on from there', () => {
    const counter = new HandCounter('x_total', 'x');
    const series = counter.child({ type: 'a' });
    HandCounter.inc(series);
    HandCounter.inc(series, 2);
    expect(counter.get().values).toEqual([{ labels: { type: 'a' }, value: 3 }]);
    counter.reset();
    HandCounter.inc(series);
    expect(counter.get().values).toEqual([{ labels: { type: 'a' }, value: 1 }]);
  });
});
