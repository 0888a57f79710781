/**
 * What the service logs about requests (`LOG_LEVEL=info`): one line per request with the method, the route
 * template (never the raw path), the status, the duration and the request id the response carries (an answer
 * 304, an SDK poll with nothing new, only at `debug`); and never
 * a secret, whatever the request: not the admin token, not an API or personal token created on the way.
 */
import { describe, expect } from 'vitest';
import { UUID } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { addStrategy, createFlag, featuresPath, flagPath, strategiesPath } from '../helpers/flags.js';
import { ADMIN_TOKEN, type Harness } from '../helpers/harness.js';
import { clientToken, FEATURES } from './client/client-fixtures.js';

const test = harnessTest({ env: { LOG_LEVEL: 'info' } });

/** The request lines logged so far. */
const requestLines = (h: Harness) => h.logs().filter((line) => line['msg'] === 'request');

/** The one request line of the request that answered `r`. */
function lineOf(h: Harness, r: { headers: Headers }): Record<string, unknown> {
  const id = r.headers.get('x-request-id');
  const lines = requestLines(h).filter((line) => line['reqId'] === id);
  expect(lines, `request lines with reqId ${id}`).toHaveLength(1);
  return lines[0]!;
}

describe('request lines', () => {
  test('a request line has method, route template, status, ms, and reqId equal to the response\'s X-Request-Id', async ({ h }) => {
    await createFlag(h, 'checkout-flow');
    const r = await h.json('GET', flagPath('checkout-flow'));
    expect(r.status).toBe(200);
    const line = lineOf(h, r);
    expect(line).toMatchObject({
      level: 30, msg: 'request', method: 'GET', route: '/api/admin/projects/:projectId/features/:featureName', status: 200,
      reqId: r.headers.get('x-request-id'),
    });
    expect(line['reqId']).toMatch(UUID);
    expect(typeof line['ms']).toBe('number');
    expect(line['ms']).toBeGreaterThanOrEqual(0);
    // The template, never the path with its values.
    expect(JSON.stringify(line)).not.toContain('checkout-flow');
  });

  test('every request is logged once, with its own status and route; errors too, with the id of their body', async ({ h }) => {
    await createFlag(h, 'f');
    const strategy = await addStrategy(h, 'f', 'development');
    const answers = [
      ['POST', featuresPath(), { name: 'g' }, 201, '/api/admin/projects/:projectId/features'],
      ['PATCH', `${strategiesPath('f', 'development')}/${strategy.id}`, [{ op: 'replace', path: '/title', value: 't' }], 200,
        '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId'],
      ['DELETE', flagPath('g'), undefined, 202, '/api/admin/projects/:projectId/features/:featureName'],
      ['GET', flagPath('missing'), undefined, 404, '/api/admin/projects/:projectId/features/:featureName'],
      ['POST', featuresPath(), { name: 'f' }, 409, '/api/admin/projects/:projectId/features'],
      ['POST', featuresPath(), { name: 'a b' }, 400, '/api/admin/projects/:projectId/features'],
    ] as const;
    for (const [method, path, body, status, route] of answers) {
      const r = await h.json(method, path, body);
      expect(r.status).toBe(status);
      expect(lineOf(h, r)).toMatchObject({ method, route, status, reqId: r.headers.get('x-request-id') });
      if (status >= 400) expect(r.body.id).toBe(lineOf(h, r)['reqId']);
    }
  });

  test('an answer 304 Not Modified (an SDK poll with nothing new) has no line at info; its metric counts it', async ({ h }) => {
    await createFlag(h, 'f');
    const token = await clientToken(h, ['default'], 'development');
    const first = await h.req('GET', FEATURES, undefined, { token });
    expect(first.status).toBe(200);
    expect(lineOf(h, first)).toMatchObject({ level: 30, route: FEATURES, status: 200 });
    const again = await h.req('GET', FEATURES, undefined, { token, headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const id = again.headers.get('x-request-id');
    expect(requestLines(h).filter((line) => line['reqId'] === id)).toEqual([]);
    const scrape = await (await h.req('GET', '/internal-backstage/prometheus')).text();
    expect(scrape).toMatch(/flagpole_http_request_duration_seconds_count\{[^}]*status="304"[^}]*\} 1\n/);
  });

  test('a sent X-Request-Id is the reqId of the line', async ({ h }) => {
    const r = await h.req('GET', featuresPath(), undefined, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(lineOf(h, r)).toMatchObject({ reqId: 'abc-123', route: '/api/admin/projects/:projectId/features', status: 200 });
  });

  test('an unexpected failure is a 500 whose id is the reqId of the error line and of the request line', async ({ h }) => {
    // A disk failure is a 503 StorageUnavailable (test/faults/); an unexpected exception is what a bug throws.
    const actor = h.registry.project('default')!;
    const send = actor.send.bind(actor);
    actor.send = async () => { throw new Error('disk on fire'); };
    const r = await h.json('POST', featuresPath(), { name: 'doomed' });
    actor.send = send;
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ id: r.headers.get('x-request-id'), name: 'InternalError', message: expect.not.stringContaining('disk') });
    const errors = h.logs().filter((line) => line['msg'] === 'internal error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ level: 50, reqId: r.body.id, method: 'POST', route: '/api/admin/projects/:projectId/features' });
    expect(JSON.stringify(errors[0])).toContain('disk on fire');
    expect(lineOf(h, r)).toMatchObject({ status: 500, reqId: r.body.id });
  });
});

describe('secrets', () => {
  test('no log line ever contains the admin token or a token secret created during the test', async ({ h }) => {
    await createFlag(h, 'f');
    const api = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' });
    const client = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['default'], environment: 'development' });
    const user = await h.json('POST', '/api/admin/user-admin', { username: 'ada', rootRole: 'Editor' });
    const personal = await h.json('POST', `/api/admin/user-admin/${user.body.id}/tokens`, { description: 'laptop' });
    for (const created of [api, client, user, personal]) expect(created.status).toBe(201);
    const secrets = [ADMIN_TOKEN, api.body.secret as string, client.body.secret as string, personal.body.secret as string];
    for (const secret of secrets) expect(secret.length).toBeGreaterThan(20);

    // Use every one: allowed, refused (403), failed (404, 400), wrong by one character (401), as Bearer, and in a body.
    for (const token of secrets) {
      for (const authorization of [token, `Bearer ${token}`, `${token}x`]) {
        await h.req('GET', flagPath('f'), undefined, { token: authorization });
        await h.req('POST', featuresPath(), { name: 'made-by-token' }, { token: authorization });
        await h.req('GET', flagPath('missing'), undefined, { token: authorization });
        await h.req('GET', '/api/admin/user-admin', undefined, { token: authorization });
      }
      await h.req('POST', featuresPath(), { name: 'x', description: token }, { token });
      await h.req('POST', featuresPath(), `{"name": "${token}"`);
      await h.req('GET', `${featuresPath()}?token=${encodeURIComponent(token)}`);
    }
    // A failure that logs its cause; then a restart, and the tokens again.
    const actor = h.registry.project('default')!;
    const send = actor.send.bind(actor);
    actor.send = async () => { throw new Error('disk on fire'); };
    expect((await h.req('POST', featuresPath(), { name: 'doomed' }, { token: personal.body.secret })).status).toBe(500);
    actor.send = send;
    await h.restart();
    for (const token of secrets.slice(1)) await h.req('GET', flagPath('f'), undefined, { token });

    const lines = h.logs();
    expect(lines.filter((line) => line['msg'] === 'request').length).toBeGreaterThan(secrets.length * 12);
    expect(lines.some((line) => line['msg'] === 'internal error')).toBe(true);
    for (const line of lines) {
      const text = JSON.stringify(line);
      for (const secret of secrets) {
        // The part after the scope prefix is what makes it secret; no line holds any of it.
        const secretPart = secret.slice(secret.indexOf('.') + 1);
        expect(text.includes(secretPart), `a log line contains a secret: ${text.slice(0, 300)}`).toBe(false);
      }
    }
  });
});
