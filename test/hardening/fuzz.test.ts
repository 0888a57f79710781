/**
 * Property-based fuzz (fast-check) of the JSON Patch routes and a few body routes, through the real HTTP
 * pipeline. Patches are generated to be hostile as often as ordinary: root and subtree copies that double
 * the document, deep and prototype paths, huge values, move and copy loops, a hundred operations, malformed
 * JSON. Whatever comes in, every answer is below 500, a 4xx writes nothing (no log position moves), an
 * error body is at most 64 KB. What a patch may cost is bounded by its pricing (test/hardening/json-patch-limits.test.ts
 * counts it); a request that ran away would meet the test's timeout.
 * The seed is fixed so a failure replays exactly; change it to explore further.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { positions } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

const SEED = 0x9a7c4;
const P = '/api/admin/projects/default';
const FLAG = `${P}/features/f`;
const STRATEGIES = `${FLAG}/environments/development/strategies`;
const ERROR_BODY_MAX = 64 * 1024;

/** Creates flag `f` with one strategy in development and one variant; returns the strategy's id. */
async function arrange(h: Harness): Promise<string> {
  expect((await h.json('POST', `${P}/features`, { name: 'f', description: 'fuzzed' })).status).toBe(201);
  const strategy = await h.json('POST', STRATEGIES, {
    name: 'flexibleRollout', parameters: { rollout: 50, stickiness: 'default', groupId: 'f' },
    constraints: [{ contextName: 'userId', operator: 'IN', values: ['a', 'b'] }],
  });
  expect(strategy.status).toBe(200);
  const strategyId: string = strategy.body.id;
  expect((await h.json('PUT', `${FLAG}/variants`, [{ name: 'v', weightType: 'variable', weight: 0, payload: { type: 'string', value: 'p' } }])).status).toBe(200);
  return strategyId;
}

/** Every test starts with flag `f`, one strategy on it in development (`strategyId`) and one variant. */
const test = harnessTest().extend<{ strategyId: string }>({
  strategyId: [async ({ h }, use) => { await use(await arrange(h)); }, { auto: true }],
});

/** Sends a raw JSON text (or anything else) to `h` and checks the invariants of this file. */
async function sendChecked(h: Harness, method: string, path: string, text: string): Promise<void> {
  const before = positions(h);
  const response = await h.req(method, path, text);
  const answer = await response.text();
  const context = `${method} ${path} with ${text.length} bytes: ${response.status}, ${answer.slice(0, 200)}`;
  expect(response.status, context).toBeLessThan(500);
  if (response.status >= 400) {
    expect(positions(h), context).toBe(before);
    expect(answer.length, context).toBeLessThanOrEqual(ERROR_BODY_MAX);
    expect(typeof JSON.parse(answer).message, context).toBe('string');
  }
  expect(Object.keys(Object.prototype), 'Object.prototype was polluted').toEqual([]);
}

// Building blocks -------------------------------------------------------------------------------------

/** A value nested `depth` levels deep. */
const nested = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { n: value };
  return value;
};

const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(
    'title', 'parameters', 'constraints', 'variants', 'segments', 'values', 'rollout', 'description', 'type',
    'stale', 'name', 'payload', 'value', 'weight', 'weightType', 'id', 'sortOrder', 'impressionData',
    '0', '1', '2', '-', '00', '01', '-1', '99999999999', '',
  ) },
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'length') },
  { weight: 1, arbitrary: fc.constantFrom('a~1b', '~0', '~', '~2', 'x'.repeat(300)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);

const pointer = fc.oneof(
  { weight: 10, arbitrary: fc.array(segment, { maxLength: 4 }).map((s) => (s.length === 0 ? '' : `/${s.join('/')}`)) },
  { weight: 1, arbitrary: fc.integer({ min: 30, max: 500 }).map((n) => '/a'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom('x', 'a/b', '#/a', '/', '//', 'x'.repeat(1001)) },
);

const value = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(
    'default', 'flexibleRollout', 50, '50', true, null, [], {}, 'x'.repeat(101),
    { contextName: 'userId', operator: 'IN', values: ['a'] }, { name: 'w', weightType: 'variable', weight: 0 },
  ) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 900_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => `v${i}`)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 70 }).map(nested) },
);

const operation = fc.record(
  { op: fc.constantFrom<unknown>('add', 'remove', 'replace', 'move', 'copy', 'test', '_get', 'merge', 1, null), path: pointer, value, from: pointer },
  { requiredKeys: [] },
);

const repeat = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/** Patches built to be expensive: doubling copies, copy loops, move loops, a large seed copied around. */
const hostile = fc.oneof(
  fc.tuple(fc.integer({ min: 10, max: 100 }), fc.constantFrom('/x', '/-', '/constraints/-', '/parameters/k', '/0/payload', '/segments/-'))
    .map(([n, base]) => repeat(n, (i) => ({ op: 'copy', from: '', path: base.endsWith('-') ? base : `${base}${i}` }))),
  fc.tuple(fc.integer({ min: 10, max: 100 }), pointer, pointer)
    .map(([n, from, to]) => repeat(n, (i) => ({ op: 'copy', from, path: i % 2 === 0 ? to : `${to}/${i}` }))),
  fc.tuple(value, pointer, fc.integer({ min: 5, max: 60 }))
    .map(([seed, at, n]) => [{ op: 'add', path: at, value: seed }, ...repeat(n, () => ({ op: 'copy', from: '', path: `${at}/-` }))]),
  fc.tuple(pointer, pointer, fc.integer({ min: 2, max: 100 }))
    .map(([a, b, n]) => repeat(n, (i) => (i % 2 === 0 ? { op: 'move', from: a, path: b } : { op: 'move', from: b, path: a }))),
  fc.tuple(fc.constantFrom('/description', '/title', '/parameters/seed', '/0/payload/value'), fc.integer({ min: 100_000, max: 600_000 }), fc.integer({ min: 2, max: 99 }))
    .map(([at, size, n]) => [
      { op: 'add', path: at, value: 'x'.repeat(size) },
      ...repeat(n, (i) => (i % 2 === 0 ? { op: 'copy', from: at, path: `${at}2` } : { op: 'remove', path: `${at}2` })),
    ]),
);

const malformed = fc.oneof(
  fc.constantFrom('', ' ', '[', '{', 'nul', '[{"op":"add"', '\u0000', '[1,]', '{"__proto__":{"polluted":1}}', '[{"op":"add","path":"/__proto__/polluted","value":1}]'),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 1000, max: 29_000 }).map((n) => `[${'{"op":"copy","from":"","path":"/-"},'.repeat(n)}{"op":"test","path":"","value":1}]`),
  fc.integer({ min: 70, max: 200 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
);

/** Operations each resource accepts, so that some patches apply and the fuzz also walks the write path. */
const plausible = {
  flag: fc.oneof(
    fc.record({ op: fc.constant('replace'), path: fc.constant('/description'), value: fc.string({ maxLength: 50 }) }),
    fc.record({ op: fc.constant('replace'), path: fc.constant('/type'), value: fc.constantFrom('release', 'experiment', 'operational', 'kill-switch') }),
    fc.record({ op: fc.constant('replace'), path: fc.constantFrom('/stale', '/impressionData'), value: fc.boolean() }),
    fc.constant({ op: 'copy', from: '/name', path: '/description' }),
  ),
  strategy: fc.oneof(
    fc.record({ op: fc.constant('replace'), path: fc.constant('/title'), value: fc.string({ maxLength: 50 }) }),
    fc.record({ op: fc.constant('replace'), path: fc.constant('/parameters/rollout'), value: fc.integer({ min: 0, max: 100 }).map(String) }),
    fc.record({ op: fc.constant('add'), path: fc.constant('/constraints/-'), value: fc.record({ contextName: fc.constantFrom('userId', 'appName'), operator: fc.constant('IN'), values: fc.array(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }) }) }),
    fc.constantFrom(
      { op: 'copy', from: '/constraints/0', path: '/constraints/-' }, { op: 'move', from: '/constraints/0', path: '/constraints/-' },
      { op: 'remove', path: '/constraints/0' }, { op: 'replace', path: '/disabled', value: true }, { op: 'test', path: '/name', value: 'flexibleRollout' },
    ),
  ),
  variants: fc.oneof(
    fc.record({ op: fc.constant('replace'), path: fc.constant('/0/payload/value'), value: fc.string({ maxLength: 50 }) }),
    fc.record({ op: fc.constant('add'), path: fc.constant('/-'), value: fc.record({ name: fc.string({ minLength: 1, maxLength: 8 }), weightType: fc.constant('variable'), weight: fc.constant(0) }) }),
    fc.constantFrom({ op: 'copy', from: '/0/payload', path: '/0/payload' }, { op: 'move', from: '/0', path: '/-' }, { op: 'remove', path: '/1' }, { op: 'replace', path: '/0/stickiness', value: 'userId' }),
  ),
};

/** Any patch body for a resource, as JSON text. */
const patchBody = (ok: fc.Arbitrary<unknown>) => fc.oneof(
  { weight: 3, arbitrary: fc.array(ok, { minLength: 1, maxLength: 4 }).map((ops) => JSON.stringify(ops)) },
  { weight: 4, arbitrary: fc.array(fc.oneof(operation, ok), { maxLength: 8 }).map((ops) => JSON.stringify(ops)) },
  { weight: 4, arbitrary: hostile.map((ops) => JSON.stringify(ops)) },
  { weight: 1, arbitrary: fc.array(fc.oneof(operation, ok), { minLength: 95, maxLength: 110 }).map((ops) => JSON.stringify(ops)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => JSON.stringify(json)) },
  { weight: 1, arbitrary: malformed },
);

const PATCH_RUNS = 150;

test('PATCH a flag: any patch answers below 500 with a short error body, and a refusal writes nothing', async ({ h }) => {
  await fc.assert(fc.asyncProperty(patchBody(plausible.flag), (text) => sendChecked(h, 'PATCH', FLAG, text)), { seed: SEED, numRuns: PATCH_RUNS });
}, HEAVY_TEST_MS);

test('PATCH a strategy: any patch answers below 500 with a short error body, and a refusal writes nothing', async ({ h, strategyId }) => {
  await fc.assert(fc.asyncProperty(patchBody(plausible.strategy), (text) => sendChecked(h, 'PATCH', `${STRATEGIES}/${strategyId}`, text)), { seed: SEED + 1, numRuns: PATCH_RUNS });
}, HEAVY_TEST_MS);

test('PATCH the variants: any patch answers below 500 with a short error body, and a refusal writes nothing', async ({ h }) => {
  await fc.assert(fc.asyncProperty(patchBody(plausible.variants), (text) => sendChecked(h, 'PATCH', `${FLAG}/variants`, text)), { seed: SEED + 2, numRuns: PATCH_RUNS });
}, HEAVY_TEST_MS);

// Body routes -----------------------------------------------------------------------------------------

const junk = fc.oneof(fc.jsonValue({ maxDepth: 2 }), value);
/** Lists of junk long enough to raise thousands of issues (kept under 100 KB: see the report on valibot). */
const junkList = fc.tuple(fc.constantFrom<unknown>(1, {}, '', null, [], 'x'.repeat(50)), fc.integer({ min: 100, max: 20_000 }))
  .map(([item, n]) => repeat(n, () => item));
const listOf = (item: fc.Arbitrary<unknown>) => fc.oneof(fc.array(item, { maxLength: 5 }), junkList, junk);

const bodies: [string, string, fc.Arbitrary<unknown>][] = [
  ['POST', `${P}/features`, fc.record({
    name: fc.oneof(fc.constantFrom('g', 'f', 'a b', '..', 'x'.repeat(101)), junk),
    description: junk, type: fc.oneof(fc.constantFrom('release', 'experiment'), junk), impressionData: junk, extra: junk,
  }, { requiredKeys: [] })],
  ['POST', STRATEGIES, fc.record({
    name: fc.oneof(fc.constantFrom('default', 'flexibleRollout', 'userWithId'), junk),
    constraints: listOf(fc.record({ contextName: junk, operator: fc.oneof(fc.constantFrom('IN', 'NOT_IN'), junk), values: listOf(junk) }, { requiredKeys: [] })),
    parameters: fc.oneof(fc.dictionary(fc.string({ maxLength: 10 }), junk, { maxKeys: 5 }), junk),
    segments: listOf(junk), variants: listOf(junk), sortOrder: junk, title: junk, extra: junk,
  }, { requiredKeys: [] })],
  ['POST', `${P}/delete`, fc.record({ features: listOf(fc.oneof(fc.constantFrom('f', 'g'), junk)) }, { requiredKeys: [] })],
  ['PUT', `${FLAG}/variants`, listOf(fc.record({ name: junk, weightType: fc.oneof(fc.constantFrom('variable', 'fix'), junk), weight: junk, payload: junk }, { requiredKeys: [] }))],
];

test('POST and PUT bodies: any body answers below 500 with a short error body, and a refusal writes nothing', async ({ h }) => {
  const request = fc.oneof(
    ...bodies.map(([method, path, body]) => fc.tuple(fc.constant(method), fc.constant(path), fc.oneof(
      { weight: 5, arbitrary: body.map((b) => JSON.stringify(b)) },
      { weight: 1, arbitrary: malformed },
    ))),
  );
  await fc.assert(fc.asyncProperty(request, ([method, path, text]) => sendChecked(h, method, path, text)), { seed: SEED + 3, numRuns: 200 });
}, HEAVY_TEST_MS);
