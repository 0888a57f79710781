/**
 * Finding 2 through HTTP: a 1 MiB body of invalid array items used to come back as a 20 to 40 MB error
 * body listing every issue. An error body now holds at most ten issues of at most 300 characters each,
 * and nothing is written.
 */
import { describe, expect } from 'vitest';
import { DETAILS_MAX, ISSUE_TEXT_MAX } from '../../src/schemas/issues.js';
import { expectError, expectNoChange } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { createFlag } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const P = '/api/admin/projects/default';
const MiB = 1024 * 1024;

/** Every test starts with flag `f`. */
const test = harnessTest({ arrange: (h) => createFlag(h, 'f') });

/** As many copies of `item` as fit in a body of just under 1 MiB, wrapped by `wrap`. */
function fill(item: unknown, wrap: (items: unknown[]) => unknown): string {
  const overhead = JSON.stringify(wrap([])).length;
  const each = JSON.stringify(item).length + 1;
  const body = JSON.stringify(wrap(Array.from({ length: Math.floor((MiB - overhead - 10) / each) }, () => item)));
  expect(body.length).toBeLessThanOrEqual(MiB);
  expect(body.length).toBeGreaterThan(MiB - 1000);
  return body;
}

/** Sends the body and asserts a small 400 listing at most ten bounded issues; nothing is written. */
async function smallRefusal(h: Harness, method: string, path: string, body: string, message: RegExp) {
  await expectNoChange(h, async () => {
    const response = await h.req(method, path, body);
    const text = await response.text();
    expect(text.length).toBeLessThan(8 * 1024);
    const r = { status: response.status, body: JSON.parse(text) };
    expectError(r, 400, 'ValidationError', message);
    expect(r.body.details.length).toBeLessThanOrEqual(DETAILS_MAX);
    for (const detail of r.body.details) expect(detail.message.length).toBeLessThanOrEqual(ISSUE_TEXT_MAX);
  }, 'f');
}

describe('a 1 MiB body of invalid items answers a small 400', () => {
  test('batch delete: {features: [1, 1, ...]}', async ({ h }) => {
    await smallRefusal(h, 'POST', `${P}/delete`, fill(1, (features) => ({ features })), /"features.0": must be a string, got 1; .*; and (at least \d+|\d{6}) more$/);
  });

  test('add a strategy: {constraints: [{}, {}, ...]}', async ({ h }) => {
    await smallRefusal(h, 'POST', `${P}/features/f/environments/development/strategies`, fill({}, (constraints) => ({ name: 'default', constraints })), /"constraints.0.contextName": is required/);
  });

  test('add a strategy: {segments: ["", "", ...]}', async ({ h }) => {
    await smallRefusal(h, 'POST', `${P}/features/f/environments/development/strategies`, fill('', (segments) => ({ name: 'default', segments })), /"segments.0": must be a number/);
  });

  test('PUT variants: [0, 0, ...]', async ({ h }) => {
    await smallRefusal(h, 'PUT', `${P}/features/f/variants`, fill(0, (variants) => variants), /must be an object/);
  });
});

describe('a long value or key is not echoed back', () => {
  test('a 1 MB flag type', async ({ h }) => {
    await smallRefusal(h, 'POST', `${P}/features`, JSON.stringify({ name: 'g', type: 'x'.repeat(MiB - 100) }), /^"type": must be one of .*, got "x+…$/);
  });

  test('a 1 MB unknown key', async ({ h }) => {
    await smallRefusal(h, 'POST', `${P}/features`, JSON.stringify({ name: 'g', ['k'.repeat(MiB - 100)]: 1 }), /^"k+…$/);
  });

  test('a JSON Patch result with a 900 KB flag type', async ({ h }) => {
    await smallRefusal(h, 'PATCH', `${P}/features/f`, JSON.stringify([{ op: 'replace', path: '/type', value: 't'.repeat(900_000) }]), /^"type": must be one of .*, got "t+…$/);
  });
});
