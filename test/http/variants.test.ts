/**
 * Seed 4.14 and 4.15 through HTTP: flag-level variants, the weight distribution and the rules of a list
 * (API-DECISIONS "Variants").
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange as noChange } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { createFlag, flagPath } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const VARIANTS = `${flagPath('f')}/variants`;

/** Every test starts with flag `f`. */
const test = harnessTest({ arrange: (h) => createFlag(h, 'f') });

const expectNoChange = (h: Harness, act: () => Promise<unknown>) => noChange(h, act, 'f');

const variable = (name: string, weight = 0) => ({ name, weightType: 'variable', weight });
const fix = (name: string, weight: number) => ({ name, weightType: 'fix', weight });
const weights = (body: { variants: { name: string; weight: number }[] }) => body.variants.map((x) => [x.name, x.weight]);

describe('PUT .../variants (4.14)', () => {
  test('answers 200 {version: "1", variants} with defaults; the flag record shows them', async ({ h }) => {
    const r = await h.json('PUT', VARIANTS, [variable('a', 500), variable('b', 500)]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      version: '1',
      variants: [
        { name: 'a', weightType: 'variable', weight: 500, stickiness: 'default', overrides: [] },
        { name: 'b', weightType: 'variable', weight: 500, stickiness: 'default', overrides: [] },
      ],
    });
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect((await h.json('GET', flagPath('f'))).body.variants).toEqual(r.body.variants);
    expect((await h.json('GET', VARIANTS)).body).toEqual(r.body);
  });

  test.for<[string, unknown, unknown]>([
    ['three variable variants', [variable('a'), variable('b'), variable('c')], [['a', 334], ['b', 333], ['c', 333]]],
    ['fix 200 and two variable', [fix('x', 200), variable('a', 1), variable('b', 999)], [['x', 200], ['a', 400], ['b', 400]]],
    ['remainder to the first variable ones in list order', [variable('a'), fix('x', 1), variable('b'), variable('c')], [['a', 333], ['x', 1], ['b', 333], ['c', 333]]],
    ['fix 999 and one variable', [variable('a', 5), fix('x', 999)], [['a', 1], ['x', 999]]],
    ['seven variable variants', 'abcdefg'.split('').map((n) => variable(n)), [['a', 143], ['b', 143], ['c', 143], ['d', 143], ['e', 143], ['f', 143], ['g', 142]]],
  ])('distributes weights: %s', async ([_label, body, expected], { h }) => {
    const r = await h.json('PUT', VARIANTS, body);
    expect(r.status).toBe(200);
    expect(weights(r.body)).toEqual(expected);
    expect(r.body.variants.reduce((sum: number, x: { weight: number }) => sum + x.weight, 0)).toBe(1000);
  });

  test('keeps payload, stickiness and overrides; replaces the whole list; [] clears it', async ({ h }) => {
    const full = {
      name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'userId',
      payload: { type: 'json', value: '{"color":"blue"}' }, overrides: [{ contextName: 'userId', values: ['1', '2'] }],
    };
    const r = await h.json('PUT', VARIANTS, [full, variable('red')]);
    expect(r.body.variants[0]).toEqual({ ...full, weight: 500 });
    const replaced = await h.json('PUT', VARIANTS, [variable('green')]);
    expect(weights(replaced.body)).toEqual([['green', 1000]]);
    const cleared = await h.json('PUT', VARIANTS, []);
    expect(cleared.body).toEqual({ version: '1', variants: [] });
    expect((await h.json('GET', flagPath('f'))).body.variants).toBeNull();
  });

  test.for<[string, unknown, RegExp]>([
    ['no variable variant', [fix('a', 100)], /variable/],
    ['fix weights totalling 1000', [fix('a', 600), fix('b', 400), variable('c')], /less than 1000/],
    ['fix weights over 1000', [fix('a', 999), fix('b', 2), variable('c')], /less than 1000/],
    ['a duplicate name', [variable('a'), variable('a')], /"1.name": variant names must be unique/],
    ['a weight over 1000', [variable('a', 1001)], /"0.weight"/],
    ['a negative weight', [variable('a', -1)], /"0.weight"/],
    ['a fractional weight', [variable('a', 1.5)], /"0.weight"/],
    ['a weight as a string', [{ name: 'a', weightType: 'variable', weight: '5' }], /"0.weight"/],
    ['an unknown weightType', [{ name: 'a', weightType: 'fixed', weight: 5 }], /"0.weightType"/],
    ['a name that is not URL-friendly', [variable('a b')], /"0.name"/],
    ['a json payload that does not parse', [{ ...variable('a'), payload: { type: 'json', value: '{nope' } }], /"0.payload/],
    ['an unknown payload type', [{ ...variable('a'), payload: { type: 'xml', value: '<a/>' } }], /"0.payload.type"/],
    ['an override without values', [{ ...variable('a'), overrides: [{ contextName: 'userId' }] }], /"0.overrides.0.values"/],
    ['an unknown field', [{ ...variable('a'), colour: 'red' }], /"0.colour"/],
    ['an object instead of a list', { a: variable('a') }, /array/],
  ])('400 ValidationError for %s; nothing changes', async ([_label, body, message], { h }) => {
    await h.json('PUT', VARIANTS, [variable('keep')]);
    await expectNoChange(h, async () => expectError(await h.json('PUT', VARIANTS, body), 400, 'ValidationError', message));
  });

  test('404 unknown flag, 400 archived, 412 stale If-Match', async ({ h }) => {
    expectError(await h.json('PUT', `${flagPath('nope')}/variants`, [variable('a')]), 404, 'NotFoundError');
    expectError(await h.json('GET', `${flagPath('nope')}/variants`), 404, 'NotFoundError');
    const tag = (await h.json('GET', flagPath('f'))).headers.get('etag')!;
    const first = await h.json('PUT', VARIANTS, [variable('a')], { headers: { 'if-match': tag } });
    expect(first.status).toBe(200);
    await expectNoChange(h, async () => expectError(await h.json('PUT', VARIANTS, [variable('b')], { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'));
    expect((await h.json('PUT', VARIANTS, [variable('b')], { headers: { 'if-match': first.headers.get('etag')! } })).status).toBe(200);
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(h, async () => expectError(await h.json('PUT', VARIANTS, [variable('c')]), 400, 'ArchivedFeatureError'));
  });
});

describe('PATCH .../variants (4.15)', () => {
  test('applies operations to the list and recomputes the weights', async ({ h }) => {
    await h.json('PUT', VARIANTS, [variable('a'), variable('b')]);
    const r = await h.json('PATCH', VARIANTS, [
      { op: 'add', path: '/1', value: variable('c', 7) },
      { op: 'replace', path: '/0/weightType', value: 'fix' },
      { op: 'replace', path: '/0/weight', value: 100 },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.version).toBe('1');
    expect(weights(r.body)).toEqual([['a', 100], ['c', 450], ['b', 450]]);
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect((await h.json('GET', flagPath('f'))).body.variants).toEqual(r.body.variants);
  });

  test('works on a flag without variants (an add at /0 or /-)', async ({ h }) => {
    const r = await h.json('PATCH', VARIANTS, [{ op: 'add', path: '/-', value: variable('a') }, { op: 'add', path: '/0', value: variable('z') }]);
    expect(weights(r.body)).toEqual([['z', 500], ['a', 500]]);
  });

  test.for<[string, unknown, number, string, RegExp]>([
    ['a result without a variable variant', [{ op: 'replace', path: '/0/weightType', value: 'fix' }], 400, 'ValidationError', /variable/],
    ['a result with fix weights of 1000', [{ op: 'add', path: '/-', value: fix('x', 1000) }], 400, 'ValidationError', /less than 1000/],
    ['a duplicate name', [{ op: 'add', path: '/-', value: variable('a') }], 400, 'ValidationError', /unique/],
    ['an index out of range', [{ op: 'replace', path: '/5', value: variable('q') }], 400, 'ValidationError', /JSON Patch/],
    ['a hostile path', [{ op: 'add', path: '/0/__proto__', value: { polluted: true } }], 400, 'ValidationError', /__proto__/],
    ['constructor/prototype', [{ op: 'add', path: '/constructor/prototype/polluted', value: true }], 400, 'ValidationError', /"0.path"/],
    ['a hostile from', [{ op: 'copy', from: '/0/constructor', path: '/1' }], 400, 'ValidationError', /"0.from"/],
    ['a failed test', [{ op: 'remove', path: '/0/stickiness' }, { op: 'test', path: '/0/name', value: 'nobody' }], 409, 'PatchTestFailed', /test/],
    ['not a patch document', [variable('a')], 400, 'ValidationError', /"0.op"/],
  ])('%s: refused, nothing changes', async ([_label, body, status, name, message], { h }) => {
    await h.json('PUT', VARIANTS, [variable('a')]);
    await expectNoChange(h, async () => expectError(await h.json('PATCH', VARIANTS, body), status, name, message));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('404 unknown flag, 400 archived, 412 stale If-Match', async ({ h }) => {
    const patch = [{ op: 'add', path: '/-', value: variable('a') }];
    expectError(await h.json('PATCH', `${flagPath('nope')}/variants`, patch), 404, 'NotFoundError');
    const tag = (await h.json('GET', flagPath('f'))).headers.get('etag')!;
    await h.json('PATCH', VARIANTS, patch);
    await expectNoChange(h, async () => expectError(await h.json('PATCH', VARIANTS, [{ op: 'remove', path: '/0' }], { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'));
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(h, async () => expectError(await h.json('PATCH', VARIANTS, [{ op: 'remove', path: '/0' }]), 400, 'ArchivedFeatureError'));
  });
});
