/**
 * Seed 4.5 and 4.6 through the real HTTP pipeline: replacing and patching a flag's metadata, with
 * If-Match, and every error row that applies. Failed requests must leave the flag as it was.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { createFlag, flagPath } from '../../helpers/flags.js';


describe('PUT /features/:featureName (4.5)', () => {
  test('replaces description, type, stale and impressionData; omitted ones go back to defaults', async ({ h }) => {
    const created = await createFlag(h, 'f', { description: 'old', type: 'experiment', impressionData: true });
    const r = await h.json('PUT', flagPath('f'), { name: 'f', description: 'new', type: 'kill-switch', stale: true });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...created.body, description: 'new', type: 'kill-switch', stale: true, impressionData: false });
    expect(Number(JSON.parse(r.headers.get('etag')!))).toBeGreaterThan(Number(JSON.parse(created.headers.get('etag')!)));
    const back = await h.json('PUT', flagPath('f'), { name: 'f' });
    expect(back.body).toMatchObject({ description: '', type: 'release', stale: false, impressionData: false });
  });

  test('ignores project, createdAt and lastSeenAt in the body', async ({ h }) => {
    const created = await createFlag(h, 'f');
    const r = await h.json('PUT', flagPath('f'), { name: 'f', project: 'other', createdAt: '2000-01-01T00:00:00.000Z', lastSeenAt: '2000-01-01T00:00:00.000Z' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(created.body);
  });

  test('400 when the name differs from the path, or for unknown fields and wrong types; nothing changes', async ({ h }) => {
    await createFlag(h, 'f', { description: 'keep' });
    for (const body of [{ name: 'g' }, { name: 'f', colour: 1 }, { name: 'f', stale: 'yes' }, { name: 'f', type: 'nope' }, { description: 'x' }]) {
      await expectNoChange(h, async () => expectError(await h.json('PUT', flagPath('f'), body), 400, 'ValidationError'), 'f');
    }
    expectError(await h.json('PUT', flagPath('f'), { name: 'g' }), 400, 'ValidationError', /"name"/);
  });

  test('If-Match: the current ETag is accepted, a stale one is 412 and changes nothing', async ({ h }) => {
    const created = await createFlag(h, 'f');
    const etag = created.headers.get('etag')!;
    const ok = await h.json('PUT', flagPath('f'), { name: 'f', description: 'one' }, { headers: { 'if-match': etag } });
    expect(ok.status).toBe(200);
    await expectNoChange(h, async () => {
      expectError(await h.json('PUT', flagPath('f'), { name: 'f', description: 'two' }, { headers: { 'if-match': etag } }), 412, 'PreconditionFailed');
      expectError(await h.json('PUT', flagPath('f'), { name: 'f', description: 'two' }, { headers: { 'if-match': 'garbage' } }), 412, 'PreconditionFailed');
    }, 'f');
    const weak = await h.json('PUT', flagPath('f'), { name: 'f', description: 'three' }, { headers: { 'if-match': `W/${ok.headers.get('etag')}` } });
    expect(weak.status).toBe(200);
    const any = await h.json('PUT', flagPath('f'), { name: 'f', description: 'four' }, { headers: { 'if-match': '*' } });
    expect(any.body.description).toBe('four');
  });

  test('400 ArchivedFeatureError for an archived flag, 404 for an unknown one', async ({ h }) => {
    await createFlag(h, 'f');
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(h, async () => expectError(await h.json('PUT', flagPath('f'), { name: 'f', description: 'x' }), 400, 'ArchivedFeatureError', /archived/), 'f');
    expectError(await h.json('PUT', flagPath('nope'), { name: 'nope' }), 404, 'NotFoundError');
  });
});

describe('PATCH /features/:featureName (4.6)', () => {
  test('applies operations to the record and answers it', async ({ h }) => {
    await createFlag(h, 'f', { description: 'old' });
    const r = await h.json('PATCH', flagPath('f'), [
      { op: 'test', path: '/description', value: 'old' },
      { op: 'replace', path: '/description', value: 'new' },
      { op: 'replace', path: '/stale', value: true },
      { op: 'replace', path: '/type', value: 'operational' },
      { op: 'copy', from: '/description', path: '/description' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'f', description: 'new', stale: true, type: 'operational' });
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect((await h.json('GET', flagPath('f'))).body).toMatchObject({ description: 'new', stale: true, type: 'operational' });
  });

  test('removing a field puts it back to its default', async ({ h }) => {
    await createFlag(h, 'f', { description: 'old', impressionData: true });
    const r = await h.json('PATCH', flagPath('f'), [{ op: 'remove', path: '/description' }, { op: 'remove', path: '/impressionData' }]);
    expect(r.body).toMatchObject({ description: '', impressionData: false });
  });

  test('409 PatchTestFailed when a test fails; earlier operations are not kept', async ({ h }) => {
    await createFlag(h, 'f', { description: 'old' });
    await expectNoChange(h, async () => expectError(await h.json('PATCH', flagPath('f'), [
      { op: 'replace', path: '/description', value: 'new' },
      { op: 'test', path: '/description', value: 'something else' },
    ]), 409, 'PatchTestFailed'), 'f');
  });

  test.for<[string, unknown, RegExp]>([
    ['/name', [{ op: 'replace', path: '/name', value: 'g' }], /name/],
    ['/project', [{ op: 'replace', path: '/project', value: 'p' }], /project/],
    ['/createdAt', [{ op: 'replace', path: '/createdAt', value: '2000-01-01T00:00:00.000Z' }], /createdAt/],
    ['/lastSeenAt', [{ op: 'add', path: '/lastSeenAt', value: null }], /lastSeenAt/],
    ['a move from /name', [{ op: 'move', from: '/name', path: '/description' }], /name/],
    ['/variants', [{ op: 'add', path: '/variants', value: [] }], /variants/],
    ['the whole document', [{ op: 'replace', path: '', value: {} }], /whole/],
    ['an unknown field', [{ op: 'add', path: '/colour', value: 'red' }], /"colour": is not a known property/],
    ['a wrong type', [{ op: 'replace', path: '/stale', value: 'yes' }], /"stale": must be a boolean/],
    ['an unknown flag type', [{ op: 'replace', path: '/type', value: 'bogus' }], /"type"/],
    ['a missing path', [{ op: 'remove', path: '/nothing/here' }], /JSON Patch/],
    ['__proto__', [{ op: 'add', path: '/__proto__/polluted', value: true }], /__proto__/],
    ['constructor/prototype', [{ op: 'add', path: '/constructor/prototype/polluted', value: true }], /"0.path"/],
    ['a hostile from', [{ op: 'copy', from: '/__proto__', path: '/description' }], /"0.from"/],
    ['a pointer without /', [{ op: 'replace', path: 'description', value: 'x' }], /JSON pointer/],
    ['an unknown op', [{ op: 'merge', path: '/description', value: 'x' }], /"0.op"/],
    ['a replace without value', [{ op: 'replace', path: '/description' }], /"0.value"/],
    ['a move without from', [{ op: 'move', path: '/description' }], /"0.from"/],
    ['an object instead of an array', { op: 'replace', path: '/description', value: 'x' }, /array/],
  ])('400 ValidationError for %s; nothing changes', async ([_label, body, message], { h }) => {
    await createFlag(h, 'f', { description: 'keep' });
    await expectNoChange(h, async () => expectError(await h.json('PATCH', flagPath('f'), body), 400, 'ValidationError', message), 'f');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('412 with a stale If-Match, 400 archived, 404 unknown', async ({ h }) => {
    const created = await createFlag(h, 'f');
    await h.json('PATCH', flagPath('f'), [{ op: 'replace', path: '/description', value: 'x' }]);
    const patch = [{ op: 'replace', path: '/description', value: 'y' }];
    await expectNoChange(h, async () => expectError(await h.json('PATCH', flagPath('f'), patch, { headers: { 'if-match': created.headers.get('etag')! } }), 412, 'PreconditionFailed'), 'f');
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(h, async () => expectError(await h.json('PATCH', flagPath('f'), patch), 400, 'ArchivedFeatureError'), 'f');
    expectError(await h.json('PATCH', flagPath('nope'), patch), 404, 'NotFoundError');
  });
});
