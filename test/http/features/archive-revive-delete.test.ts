/**
 * Seed 4.8, revive and 4.20 through the real HTTP pipeline: archiving, what an archived flag refuses,
 * reviving, and deleting archived flags for good. Failed requests must leave the project as it was.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';

const P = '/api/admin/projects/default';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const seq = (h: Harness) => h.registry.project('default')!.seq;

describe('DELETE /features/:featureName (4.8 archive)', () => {
  test('answers 202 with no body, also when already archived; the flag leaves the list and overview', async ({ h }) => {
    await createFlag(h, 'f');
    await createFlag(h, 'stay');
    const r = await h.req('DELETE', flagPath('f'));
    expect(r.status).toBe(202);
    expect(await r.text()).toBe('');
    const atSeq = seq(h);
    expect((await h.req('DELETE', flagPath('f'))).status).toBe(202);
    expect(seq(h)).toBe(atSeq);
    const detail = (await h.json('GET', flagPath('f'))).body;
    expect(detail).toMatchObject({ archived: true, archivedAt: expect.stringMatching(ISO) });
    expect((await h.json('GET', `${P}/features`)).body.features.map((f: { name: string }) => f.name)).toEqual(['stay']);
    expect((await h.json('GET', P)).body.features.map((f: { name: string }) => f.name)).toEqual(['stay']);
  });

  test('keeps the data of the archived flag', async ({ h }) => {
    await createFlag(h, 'f', { description: 'kept' });
    const strategy = await addStrategy(h, 'f', 'production');
    await h.req('DELETE', flagPath('f'));
    const detail = (await h.json('GET', flagPath('f'))).body;
    expect(detail.description).toBe('kept');
    expect(detail.environments[1].strategies).toEqual([strategy]);
  });

  test('an archived flag refuses every change with 400 ArchivedFeatureError', async ({ h }) => {
    await createFlag(h, 'f');
    const strategy = await addStrategy(h, 'f', 'development');
    await h.req('DELETE', flagPath('f'));
    const env = `${flagPath('f')}/environments/development`;
    const attempts: [string, string, unknown][] = [
      ['PUT', flagPath('f'), { name: 'f' }],
      ['PATCH', flagPath('f'), [{ op: 'replace', path: '/description', value: 'x' }]],
      ['POST', `${env}/strategies`, { name: 'default' }],
      ['PUT', `${env}/strategies/${strategy.id}`, { name: 'default' }],
      ['PATCH', `${env}/strategies/${strategy.id}`, [{ op: 'replace', path: '/title', value: 't' }]],
      ['DELETE', `${env}/strategies/${strategy.id}`, undefined],
      ['POST', `${env}/on`, undefined],
      ['POST', `${env}/off`, undefined],
      ['PUT', `${flagPath('f')}/variants`, [{ name: 'a', weightType: 'variable', weight: 1 }]],
      ['PATCH', `${flagPath('f')}/variants`, [{ op: 'add', path: '/0', value: { name: 'a', weightType: 'variable', weight: 1 } }]],
      ['POST', `${flagPath('f')}/clone`, { name: 'g' }],
    ];
    for (const [method, path, body] of attempts) {
      await expectNoChange(h, async () => expectError(await h.json(method, path, body), 400, 'ArchivedFeatureError', /archived/), 'f');
    }
  });

  test('404 for an unknown flag, 412 for a stale If-Match', async ({ h }) => {
    const created = await createFlag(h, 'f');
    await h.json('PUT', flagPath('f'), { name: 'f', description: 'changed' });
    expectError(await h.json('DELETE', flagPath('nope')), 404, 'NotFoundError');
    await expectNoChange(h, async () => expectError(await h.json('DELETE', flagPath('f'), undefined, { headers: { 'if-match': created.headers.get('etag')! } }), 412, 'PreconditionFailed'), 'f');
  });
});

describe('POST /revive', () => {
  test('brings archived flags back disabled everywhere, strategies kept; other names are left alone', async ({ h }) => {
    await createFlag(h, 'f');
    const strategy = await addStrategy(h, 'f', 'development');
    expect((await h.req('POST', `${flagPath('f')}/environments/development/on`)).status).toBe(200);
    await createFlag(h, 'active', { description: 'untouched' });
    await h.req('DELETE', flagPath('f'));
    const activeBefore = (await h.json('GET', flagPath('active'))).body;
    const r = await h.req('POST', `${P}/revive`, { features: ['f', 'active', 'unknown'] });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    const detail = (await h.json('GET', flagPath('f'))).body;
    expect(detail).toMatchObject({ archived: false, archivedAt: null });
    expect(detail.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, false]);
    expect(detail.environments[0].strategies).toEqual([strategy]);
    expect((await h.json('GET', flagPath('active'))).body).toEqual(activeBefore);
    expect((await h.json('GET', `${P}/features`)).body.features.map((f: { name: string }) => f.name).sort()).toEqual(['active', 'f']);
    expect((await h.json('PUT', flagPath('f'), { name: 'f', description: 'editable again' })).status).toBe(200);
  });

  test.for([
    [{}], [{ features: 'f' }], [{ features: [1] }], [{ features: [''] }], [{ features: ['f'], more: true }], [['f']],
  ])('400 ValidationError naming features for %j; nothing changes', async ([body], { h }) => {
    await createFlag(h, 'f');
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(h, async () => expectError(await h.json('POST', `${P}/revive`, body), 400, 'ValidationError'), 'f');
  });
});

describe('POST /delete (4.20 batch delete)', () => {
  test('removes the listed archived flags only; 200 with no body; the name becomes free', async ({ h }) => {
    await createFlag(h, 'archived-1');
    await createFlag(h, 'archived-2');
    await createFlag(h, 'active');
    await createFlag(h, 'archived-unlisted');
    for (const name of ['archived-1', 'archived-2', 'archived-unlisted']) await h.req('DELETE', flagPath(name));
    const activeBefore = (await h.json('GET', flagPath('active'))).body;
    const r = await h.req('POST', `${P}/delete`, { features: ['archived-1', 'archived-2', 'active', 'unknown', 'archived-1'] });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    expect((await h.json('GET', flagPath('archived-1'))).status).toBe(404);
    expect((await h.json('GET', flagPath('archived-2'))).status).toBe(404);
    expect((await h.json('GET', flagPath('active'))).body).toEqual(activeBefore);
    expect((await h.json('GET', flagPath('archived-unlisted'))).body.archived).toBe(true);
    await createFlag(h, 'archived-1');
  });

  test('only unknown or active names: 200 and nothing changes', async ({ h }) => {
    await createFlag(h, 'active');
    await expectNoChange(h, async () => expect((await h.req('POST', `${P}/delete`, { features: ['active', 'ghost'] })).status).toBe(200), 'active');
  });

  test.for<[string, unknown, RegExp]>([
    ['no features', {}, /"features": is required/],
    ['features a string', { features: 'a' }, /"features"/],
    ['a number in the list', { features: ['a', 2] }, /"features.1"/],
    ['an extra key', { features: [], x: 1 }, /"x"/],
    ['an array body', ['a'], /"features": is required/],
  ])('400 ValidationError for %s; nothing changes', async ([_label, body, message], { h }) => {
    await createFlag(h, 'a');
    await h.req('DELETE', flagPath('a'));
    await expectNoChange(h, async () => expectError(await h.json('POST', `${P}/delete`, body), 400, 'ValidationError', message), 'a');
  });

  test('401 without a token, 404 for an unknown project', async ({ h }) => {
    await createFlag(h, 'a');
    await h.req('DELETE', flagPath('a'));
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', `${P}/delete`, { features: ['a'] }, { token: null }), 401, 'AuthenticationRequired');
      expectError(await h.json('POST', '/api/admin/projects/nope/delete', { features: ['a'] }), 404, 'NotFoundError');
    }, 'a');
  });
});
