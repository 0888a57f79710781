/**
 * Finding 1 through HTTP: a JSON Patch of a few kilobytes whose copies double the document at every step
 * used to stall the event loop for seconds and then exhaust the heap. On each of the three PATCH routes it
 * is now a 400 naming the limit and the operation that would have passed it (so the work done was that of a
 * document under the limit), and nothing is written.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { createFlag } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const P = '/api/admin/projects/default';
const FLAG = `${P}/features/f`;
const STRATEGIES = `${FLAG}/environments/development/strategies`;

/** Every test starts with flag `f`. */
const test = harnessTest({ arrange: (h) => createFlag(h, 'f') });

/** A 2.8 KB value, then sixteen copies of the whole document into itself: 3.6 KB that would grow to 180 MB. */
const doubling = (seed: { path: string; value: unknown }, target: (i: number) => string) => [
  { op: 'add', ...seed },
  ...Array.from({ length: 16 }, (_, i) => ({ op: 'copy', from: '', path: target(i) })),
];

/**
 * Sends `body` and asserts a 400 naming the size limit at operation `at` (a copy: the document doubled at
 * each one before it, so it stayed under 1 MiB and no later operation was done), with nothing written.
 */
async function refusedAt(h: Harness, path: string, body: unknown, at: number) {
  expect(JSON.stringify(body).length).toBeLessThan(4000);
  await expectNoChange(h, async () => {
    const r = await h.json('PATCH', path, body);
    expectError(r, 400, 'ValidationError', new RegExp(`operation ${at} \\("copy"\\) would make the document larger than 1048576 bytes`));
  }, 'f');
}

describe('the doubling patch of the hardening issue', () => {
  test('PATCH a flag', async ({ h }) => {
    await refusedAt(h, FLAG, doubling({ path: '/description', value: 'x'.repeat(2800) }, (i) => `/copy${i}`), 9);
  });

  test('PATCH a strategy', async ({ h }) => {
    const { body: strategy } = await h.json('POST', STRATEGIES, { name: 'default' });
    await refusedAt(h, `${STRATEGIES}/${strategy.id}`, doubling({ path: '/title', value: 'x'.repeat(2800) }, () => '/constraints/-'), 9);
  });

  test('PATCH the variants of a flag', async ({ h }) => {
    const variant = { name: 'v', weightType: 'variable', weight: 0, payload: { type: 'string', value: 'x'.repeat(2800) } };
    await refusedAt(h, `${FLAG}/variants`, doubling({ path: '/-', value: variant }, () => '/-'), 9);
  });

  test('a patch within the limits still applies', async ({ h }) => {
    const { body: strategy } = await h.json('POST', STRATEGIES, { name: 'flexibleRollout', constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] });
    const r = await h.json('PATCH', `${STRATEGIES}/${strategy.id}`, [
      { op: 'copy', from: '/constraints/0', path: '/constraints/-' },
      { op: 'replace', path: '/constraints/1/values', value: Array.from({ length: 1000 }, (_, i) => `user-${i}`) },
      { op: 'move', from: '/constraints/1', path: '/constraints/0' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.constraints.map((c: { values: string[] }) => c.values.length)).toEqual([1000, 1]);
  });
});
