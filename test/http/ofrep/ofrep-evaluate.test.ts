/**
 * OFREP evaluation over HTTP (CLIENT-API "OpenFeature (OFREP)"): the answer shapes of single and bulk
 * evaluation, the context mapping, which tokens may call which route, the bulk `ETag`, and the OFREP error
 * bodies of an unknown flag and of bad input.
 */
import { describe, expect } from 'vitest';
import { flagPath } from '../../helpers/flags.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { createUser, personalToken } from '../access/access-fixtures.js';
import { apiToken, BULK, bulk, buildOfrepWorld, byKey, single } from './ofrep-fixtures.js';

const test = harnessTest({ arrange: buildOfrepWorld });

describe('bulk evaluation', () => {
  test('every flag of the token\'s projects and environment, typed by its variant\'s payload', async ({ h }) => {
    const token = await apiToken(h, 'frontend');
    const res = await bulk(h, token, { targetingKey: 'bob' });
    expect(res.status).toBe(200);
    const flags = byKey(res.body);
    // Archived and other-project flags are not there; a flag on in another environment only is off here.
    expect(Object.keys(flags).sort()).toEqual(['beta', 'dark-mode', 'greeting', 'limit', 'off-flag', 'prod-only', 'tagged', 'theme']);
    expect(flags['prod-only']).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(flags['dark-mode']).toEqual({ key: 'dark-mode', value: true, reason: 'TARGETING_MATCH', metadata: { project: 'default', impressionData: false } });
    expect(flags['off-flag']).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(flags['off-flag'].variant).toBeUndefined();
    expect(flags['beta']).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(flags['theme']).toMatchObject({ value: { color: 'teal', sizes: [1, 2, 3] }, variant: 'teal', reason: 'SPLIT' });
    expect(flags['limit']).toMatchObject({ value: 42, variant: 'big', reason: 'SPLIT' });
    expect(flags['greeting']).toMatchObject({ value: 'hello, world', variant: 'hello' });
    expect(flags['tagged']).toMatchObject({ value: true, variant: 'plain', reason: 'SPLIT' });
    expect(res.body.eventStreams).toEqual([{ type: 'sse', url: expect.stringMatching(/^http:\/\/localhost\/ofrep\/v1\/events\?ticket=v1\.[\w-]+\.[\w-]{43}$/) }]);
  });

  test('targetingKey is the userId; the other keys are properties, numbers and booleans as strings', async ({ h }) => {
    const token = await apiToken(h, 'client');
    expect(byKey((await bulk(h, token, { targetingKey: 'alice' })).body)['beta']).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(byKey((await bulk(h, token, { targetingKey: 'bob', userId: 'alice' })).body)['beta'].value).toBe(false);
    const res = await h.json('POST', '/api/admin/projects/default/features', { name: 'pro' });
    expect(res.status).toBe(201);
    expect((await h.json('POST', `${flagPath('pro')}/environments/development/strategies`, { name: 'default', constraints: [{ contextName: 'seats', operator: 'NUM_GTE', value: '10' }, { contextName: 'trial', operator: 'IN', values: ['false'] }] })).status).toBe(200);
    expect((await h.req('POST', `${flagPath('pro')}/environments/development/on`)).status).toBe(200);
    expect(byKey((await bulk(h, token, { seats: 12, trial: false })).body)['pro'].value).toBe(true);
    expect(byKey((await bulk(h, token, { seats: 9, trial: false })).body)['pro'].value).toBe(false);
  });

  test('a weak ETag; If-None-Match naming it is a 304 without a body; a change moves it', async ({ h }) => {
    const token = await apiToken(h, 'frontend');
    const first = await bulk(h, token, { targetingKey: 'bob' });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+:\d+"$/);
    expect((await bulk(h, token, { targetingKey: 'bob' })).headers.get('etag')).toBe(etag);
    const again = await h.req('POST', BULK, { context: { targetingKey: 'bob' } }, { token, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // Another context is another answer.
    expect((await h.req('POST', BULK, { context: { targetingKey: 'alice' } }, { token, headers: { 'if-none-match': etag } })).status).toBe(200);
    expect((await h.req('POST', `${flagPath('dark-mode')}/environments/development/off`)).status).toBe(200);
    const changed = await h.req('POST', BULK, { context: { targetingKey: 'bob' } }, { token, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  test('an admin token reads every project in default; client and frontend tokens their own scope', async ({ h }) => {
    const admin = await bulk(h, await apiToken(h, 'admin'));
    expect(admin.status).toBe(200);
    // `default` is no environment of this world: every flag of every project, off.
    expect(admin.body.flags.map((f: { key: string }) => f.key)).toContain('elsewhere');
    expect(admin.body.flags.filter((f: { value: unknown }) => f.value !== false)).toEqual([]);
    const other = await bulk(h, await apiToken(h, 'client', ['other']));
    expect(other.body.flags.map((f: { key: string }) => f.key)).toEqual(['elsewhere']);
    const production = await bulk(h, await apiToken(h, 'frontend', ['*'], 'production'));
    expect(byKey(production.body)['prod-only'].value).toBe(true);
    expect(byKey(production.body)['dark-mode'].value).toBe(false);
  });

  test('the body may be left out: an empty context', async ({ h }) => {
    const res = await h.json('POST', BULK, undefined, { token: await apiToken(h, 'frontend') });
    expect(res.status).toBe(200);
    expect(byKey(res.body)['dark-mode'].value).toBe(true);
  });
});

describe('single evaluation', () => {
  test('one flag in the shape of the bulk entries; unknown and archived flags are FLAG_NOT_FOUND', async ({ h }) => {
    const token = await apiToken(h, 'client');
    const theme = await h.json('POST', single('theme'), { context: { targetingKey: 'bob' } }, { token });
    expect(theme).toMatchObject({ status: 200, body: { key: 'theme', value: { color: 'teal', sizes: [1, 2, 3] }, variant: 'teal', reason: 'SPLIT' } });
    expect((await h.json('POST', single('beta'), { context: { targetingKey: 'alice' } }, { token })).body.value).toBe(true);
    for (const key of ['nope', 'gone', 'elsewhere', '__proto__', 'constructor', 'x'.repeat(1000)]) {
      const res = await h.json('POST', single(key), { context: {} }, { token });
      expect(res, key).toMatchObject({ status: 404, body: { key, errorCode: 'FLAG_NOT_FOUND', errorDetails: expect.any(String) } });
    }
  });
});

describe('who may call', () => {
  test('single: client and admin tokens; bulk: client, frontend and admin tokens; never a personal token', async ({ h }) => {
    const client = await apiToken(h, 'client');
    const frontend = await apiToken(h, 'frontend');
    const admin = await apiToken(h, 'admin');
    const personal = await personalToken(h, await createUser(h, { username: 'someone', rootRole: 1 }));
    const status = async (path: string, token: string | null) => (await h.req('POST', path, { context: {} }, { token })).status;
    expect(await Promise.all([client, admin, frontend, personal].map((t) => status(single('dark-mode'), t)))).toEqual([200, 200, 403, 403]);
    expect(await Promise.all([client, admin, frontend, personal].map((t) => status(BULK, t)))).toEqual([200, 200, 200, 403]);
    const refused = await h.json('POST', single('dark-mode'), { context: {} }, { token: frontend });
    expect(refused.body).toMatchObject({ name: 'NoAccessError', message: expect.stringContaining('CLIENT_API') });
    for (const token of [null, 'default:development.not-a-token', `${client}x`]) {
      for (const path of [BULK, single('dark-mode')]) {
        const res = await h.json('POST', path, { context: {} }, { token });
        expect(res.status).toBe(401);
        expect(JSON.stringify(res.body)).not.toContain(client);
      }
    }
  });
});

describe('bad input', () => {
  test('a body that is not JSON or not an object is PARSE_ERROR; a bad context INVALID_CONTEXT; nothing is written', async ({ h }) => {
    const token = await apiToken(h, 'client');
    const revision = h.registry.feed.revision;
    const bad: [string, string, string][] = [
      ['{"context": ', 'PARSE_ERROR', 'not valid JSON'],
      ['[]', 'PARSE_ERROR', 'array'],
      ['"context"', 'PARSE_ERROR', ''],
      ['{"context": "alice"}', 'INVALID_CONTEXT', '"context" must be an object'],
      ['{"context": [1]}', 'INVALID_CONTEXT', '"context" must be an object'],
      ['{"context": {"targetingKey": {"id": 1}}}', 'INVALID_CONTEXT', '"context.targetingKey" must be a string'],
      ['{"context": {"plan": ["pro"]}}', 'INVALID_CONTEXT', '"context.plan" must be a string'],
      ['{"context": {"__proto__": {"admin": true}}}', 'INVALID_CONTEXT', '__proto__'],
      ['{"context": {"constructor": "x"}}', 'INVALID_CONTEXT', 'constructor'],
      ['{"context": {"currentTime": "yesterday"}}', 'INVALID_CONTEXT', 'ISO 8601'],
      [JSON.stringify({ context: { targetingKey: 'k'.repeat(5000) } }), 'INVALID_CONTEXT', 'at most 1000 characters'],
      [JSON.stringify({ context: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, 'v'])) }), 'INVALID_CONTEXT', 'at most 50 properties'],
    ];
    for (const [body, errorCode, detail] of bad) {
      for (const path of [BULK, single('dark-mode')]) {
        const res = await h.json('POST', path, body, { token });
        expect(res.status, `${path} ${body.slice(0, 80)}`).toBe(400);
        expect(res.body, body.slice(0, 80)).toEqual({ ...(path === BULK ? {} : { key: 'dark-mode' }), errorCode, errorDetails: expect.stringContaining(detail) });
      }
    }
    expect(h.registry.feed.revision).toBe(revision);
  });

  test('a 1 MB targetingKey is refused (413) before it is read; a body that is not JSON content 415; never a 500', async ({ h }) => {
    const token = await apiToken(h, 'client');
    const huge = JSON.stringify({ context: { targetingKey: 'k'.repeat(1024 * 1024) } });
    for (const path of [BULK, single('dark-mode')]) {
      const big = await h.json('POST', path, huge, { token });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ name: 'PayloadTooLarge' });
      const text = await h.json('POST', path, 'context', { token, headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
    }
    // Unknown query hints are ignored; an overlong one is a 400, not a 500.
    expect((await h.req('POST', `${BULK}?flagConfigEtag=12&flagConfigLastModified=1`, { context: {} }, { token })).status).toBe(200);
    const long = await h.json('POST', `${BULK}?flagConfigEtag=${'e'.repeat(300)}`, { context: {} }, { token });
    expect(long).toMatchObject({ status: 400, body: { errorCode: 'PARSE_ERROR' } });
  });
});
