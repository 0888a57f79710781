/**
 * ETags over HTTP: every write scoped to one flag answers an `ETag` that is the flag's version, the same a
 * GET of the flag answers right after; a write that changes nothing answers the unchanged ETag. `If-Match`
 * with a stale ETag on `/on` and `/off` is a 412 that changes nothing.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { addStrategy, createFlag, envPath, featuresPath, flagPath, strategiesPath, switchOn } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const ETAG = /^"\d+"$/;

/** Every test starts with flag `f` holding one strategy in development (`strategyId`). */
const test = harnessTest({ arrange: (h) => createFlag(h, 'f') }).extend<{ strategyId: string }>({
  strategyId: [async ({ h }, use) => { await use((await addStrategy(h, 'f', 'development')).id); }, { auto: true }],
});

/** The ETag a GET of the flag answers now. */
async function etagOf(h: Harness, flag = 'f'): Promise<string> {
  const r = await h.req('GET', flagPath(flag));
  expect(r.status).toBe(200);
  return r.headers.get('etag')!;
}

/** `r` succeeded with an ETag equal to what a following GET of `flag` answers; returns it. */
async function expectEtagOfFlag(h: Harness, r: Response, flag = 'f'): Promise<string> {
  expect(r.status, await r.clone().text()).toBeLessThan(300);
  const etag = r.headers.get('etag');
  expect(etag).toMatch(ETAG);
  expect(await etagOf(h, flag)).toBe(etag);
  return etag!;
}

const version = (etag: string) => Number(JSON.parse(etag));

interface Write {
  /** Sends the write (after `arrange`). */
  send(h: Harness, strategyId: string): Promise<Response>;
  /** What must hold before it. */
  arrange?(h: Harness): Promise<unknown>;
  /** The flag whose ETag it answers (the clone's for a clone). */
  flag?: string;
}

const WRITES: [string, Write][] = [
  ['PUT the flag', { send: (h) => h.req('PUT', flagPath('f'), { name: 'f', description: 'put' }) }],
  ['PATCH the flag', { send: (h) => h.req('PATCH', flagPath('f'), [{ op: 'replace', path: '/description', value: 'patched' }]) }],
  ['clone the flag', { send: (h) => h.req('POST', `${flagPath('f')}/clone`, { name: 'g' }), flag: 'g' }],
  ['DELETE (archive) the flag', { send: (h) => h.req('DELETE', flagPath('f')) }],
  ['add a strategy', { send: (h) => h.req('POST', strategiesPath('f', 'production'), { name: 'default' }) }],
  ['PUT a strategy', { send: (h, id) => h.req('PUT', `${strategiesPath('f', 'development')}/${id}`, { name: 'default', title: 'put' }) }],
  ['PATCH a strategy', { send: (h, id) => h.req('PATCH', `${strategiesPath('f', 'development')}/${id}`, [{ op: 'replace', path: '/title', value: 'patched' }]) }],
  ['DELETE a strategy', { send: (h, id) => h.req('DELETE', `${strategiesPath('f', 'development')}/${id}`) }],
  ['/on', { send: (h) => h.req('POST', `${envPath('f', 'development')}/on`) }],
  ['/off', { send: (h) => h.req('POST', `${envPath('f', 'development')}/off`), arrange: (h) => switchOn(h, 'f', 'development') }],
  ['PUT variants', { send: (h) => h.req('PUT', `${flagPath('f')}/variants`, [{ name: 'a', weightType: 'variable', weight: 1000 }]) }],
  ['PATCH variants', { send: (h) => h.req('PATCH', `${flagPath('f')}/variants`, [{ op: 'add', path: '/-', value: { name: 'b', weightType: 'variable', weight: 0 } }]) }],
];

describe('the ETag of a flag-scoped write is the version a following GET answers', () => {
  test('POST a flag: 201 with the ETag its GET answers', async ({ h }) => {
    const r = await h.req('POST', featuresPath(), { name: 'new' });
    expect(r.status).toBe(201);
    const etag = await expectEtagOfFlag(h, r, 'new');
    expect(version(etag)).toBeGreaterThan(version(await etagOf(h, 'f')));
  });

  test.for(WRITES)('%s: its ETag is the new version, newer than the one before', async ([_label, write], { h, strategyId }) => {
    await write.arrange?.(h);
    const before = await etagOf(h);
    const etag = await expectEtagOfFlag(h, await write.send(h, strategyId), write.flag ?? 'f');
    expect(version(etag)).toBeGreaterThan(version(before));
  });

  test('a clone leaves the source\'s ETag as it was', async ({ h }) => {
    const before = await etagOf(h);
    expect((await h.req('POST', `${flagPath('f')}/clone`, { name: 'g' })).status).toBe(201);
    expect(await etagOf(h)).toBe(before);
  });

  test('writes that change nothing answer the unchanged ETag: a repeated /on, a repeated /off, archiving twice', async ({ h }) => {
    const on = await expectEtagOfFlag(h, await h.req('POST', `${envPath('f', 'development')}/on`));
    await expectNoChange(h, async () => expect((await expectEtagOfFlag(h, await h.req('POST', `${envPath('f', 'development')}/on`)))).toBe(on), 'f');
    const off = await expectEtagOfFlag(h, await h.req('POST', `${envPath('f', 'development')}/off`));
    expect(version(off)).toBeGreaterThan(version(on));
    await expectNoChange(h, async () => expect(await expectEtagOfFlag(h, await h.req('POST', `${envPath('f', 'development')}/off`))).toBe(off), 'f');
    const archived = await expectEtagOfFlag(h, await h.req('DELETE', flagPath('f')));
    await expectNoChange(h, async () => expect(await expectEtagOfFlag(h, await h.req('DELETE', flagPath('f')))).toBe(archived), 'f');
  });

  test('every ETag of a sequence of writes is what the GET after it answers, and they only grow', async ({ h, strategyId }) => {
    const seen = [await etagOf(h)];
    for (const [, write] of WRITES.filter(([label]) => !/DELETE|clone/.test(label))) {
      await write.arrange?.(h);
      const etag = await expectEtagOfFlag(h, await write.send(h, strategyId));
      expect(version(etag)).toBeGreaterThan(version(seen.at(-1)!));
      seen.push(etag);
    }
  });
});

describe('If-Match on /on and /off', () => {
  test.for(['on', 'off'])('/%s with a stale ETag: 412 PreconditionFailed, nothing changes', async (action, { h }) => {
    const stale = await etagOf(h);
    await h.json('PUT', flagPath('f'), { name: 'f', description: 'moved on' });
    if (action === 'off') await switchOn(h, 'f', 'development');
    expect(await etagOf(h)).not.toBe(stale);
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', `${envPath('f', 'development')}/${action}`, undefined, { headers: { 'if-match': stale } }), 412, 'PreconditionFailed');
      expectError(await h.json('POST', `${envPath('f', 'development')}/${action}`, undefined, { headers: { 'if-match': `W/${stale}` } }), 412, 'PreconditionFailed');
      expectError(await h.json('POST', `${envPath('f', 'development')}/${action}`, undefined, { headers: { 'if-match': '"not-a-version"' } }), 412, 'PreconditionFailed');
    }, 'f');
  });

  test.for(['on', 'off'])('/%s with the current ETag: accepted, answering the new one', async (action, { h }) => {
    if (action === 'off') await switchOn(h, 'f', 'development');
    const current = await etagOf(h);
    const r = await h.req('POST', `${envPath('f', 'development')}/${action}`, undefined, { headers: { 'if-match': current } });
    const etag = await expectEtagOfFlag(h, r);
    expect(version(etag)).toBeGreaterThan(version(current));
  });
});
