/**
 * Seed 4.3 through the real HTTP pipeline: creating a flag, its defaults, and every error row of
 * API-DECISIONS "Errors" that applies to it. Failed requests must leave the project as it was.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { createFlag, flagPath } from '../../helpers/flags.js';

const P = '/api/admin/projects/default';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /features (4.3 create)', () => {
  test('answers 201 with the flag record, its defaults and an ETag', async ({ h }) => {
    const r = await createFlag(h, 'checkout');
    expect(r.body).toEqual({
      name: 'checkout', description: '', type: 'release', project: 'default', stale: false,
      impressionData: false, createdAt: expect.stringMatching(ISO), lastSeenAt: null, variants: null,
    });
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
  });

  test('keeps given fields and accepts every flag type', async ({ h }) => {
    for (const type of ['release', 'experiment', 'operational', 'kill-switch', 'permission', 'sunset']) {
      const r = await createFlag(h, `f-${type}`, { type, description: 'why', impressionData: true });
      expect(r.body).toMatchObject({ name: `f-${type}`, type, description: 'why', impressionData: true });
    }
  });

  test('a null description is stored as ""', async ({ h }) => {
    expect((await createFlag(h, 'd', { description: null })).body.description).toBe('');
  });

  test('accepts a 100-character URL-friendly name with every unreserved mark', async ({ h }) => {
    const name = `a-_.!~*'()${'x'.repeat(90)}`;
    expect(name).toHaveLength(100);
    const r = await createFlag(h, name);
    expect(r.body.name).toBe(name);
    expect((await h.json('GET', flagPath(encodeURIComponent(name)))).status).toBe(200);
  });

  test('names are case-sensitive', async ({ h }) => {
    await createFlag(h, 'Flag');
    await createFlag(h, 'flag');
    const list = await h.json('GET', `${P}/features`);
    expect(list.body.features.map((f: { name: string }) => f.name)).toEqual(['Flag', 'flag']);
  });

  test('409 NameExistsError for a used name, archived flags included; nothing changes', async ({ h }) => {
    await createFlag(h, 'taken');
    await expectNoChange(h, async () => expectError(await h.json('POST', `${P}/features`, { name: 'taken', description: 'other' }), 409, 'NameExistsError', /taken/), 'taken');
    expect((await h.req('DELETE', flagPath('taken'))).status).toBe(202);
    await expectNoChange(h, async () => expectError(await h.json('POST', `${P}/features`, { name: 'taken' }), 409, 'NameExistsError'), 'taken');
  });

  test.for<[string, unknown, RegExp]>([
    ['missing name', {}, /"name": is required/],
    ['empty name', { name: '' }, /"name"/],
    ['101 characters', { name: 'x'.repeat(101) }, /"name": must be at most 100/],
    ['a space', { name: 'a b' }, /"name": must be URL-friendly/],
    ['..', { name: '..' }, /"name": must be URL-friendly/],
    ['.', { name: '.' }, /"name": must be URL-friendly/],
    ['%2e%2e', { name: '%2e%2e' }, /"name": must be URL-friendly/],
    ['a slash', { name: 'a/b' }, /"name"/],
    ['unicode', { name: 'flägg' }, /"name"/],
    ['an emoji', { name: '🚩' }, /"name"/],
    ['a number', { name: 5 }, /"name": must be a string/],
    ['unknown type', { name: 'x', type: 'bogus' }, /"type"/],
    ['impressionData as a string', { name: 'x', impressionData: 'true' }, /"impressionData": must be a boolean/],
    ['an unknown field', { name: 'x', colour: 'red' }, /"colour": is not a known property/],
    ['description too long', { name: 'x', description: 'd'.repeat(10_001) }, /"description"/],
    // valibot's strictObject takes an array for an object with index keys; still a 400 naming the property.
    ['an array', [{ name: 'x' }], /"name": is required/],
    ['null', null, /object/],
  ])('400 ValidationError for %s; nothing is created', async ([_label, body, message], { h }) => {
    await expectNoChange(h, async () => expectError(await h.json('POST', `${P}/features`, body), 400, 'ValidationError', message));
    expect((await h.json('GET', `${P}/features`)).body.features).toEqual([]);
  });

  test('a ValidationError names every property in details, the first three in its message', async ({ h }) => {
    const r = await h.json('POST', `${P}/features`, { name: 7, type: 'x', impressionData: 'y', a: 1, b: 2 });
    expectError(r, 400, 'ValidationError', /^"name": .*; "type": .*; "impressionData": .*; and \d+ more$/);
    const more = Number(/and (\d+) more$/.exec(r.body.message)![1]);
    const properties = r.body.details.map((d: { message: string }) => d.message.split(':')[0]);
    expect(properties).toHaveLength(3 + more);
    expect(properties.slice(0, 4)).toEqual(['"name"', '"type"', '"impressionData"', '"a"']);
  });

  test('404 for an unknown project, 401 without a valid token', async ({ h }) => {
    expectError(await h.json('POST', '/api/admin/projects/nope/features', { name: 'x' }), 404, 'NotFoundError', /nope/);
    expectError(await h.json('POST', `${P}/features`, { name: 'x' }, { token: null }), 401, 'AuthenticationRequired');
    expectError(await h.json('POST', `${P}/features`, { name: 'x' }, { token: 'not-a-token' }), 401, 'AuthenticationRequired');
    expect((await h.json('GET', `${P}/features`)).body.features).toEqual([]);
  });
});
