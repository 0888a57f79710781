/**
 * `POST /edge/validate` as Unleash Edge calls it before it serves a token (test/fixtures/edge/validate-request.json,
 * sent with Edge's headers and no `Authorization`): the valid texts come back with the scope Edge will serve them
 * in, matched by the text; anything else is left out and told apart by nothing; each address has a budget of
 * token checks a minute (a 429 past it), and a list is bounded (400).
 */
import { describe, expect } from 'vitest';
import { ROOT_ADMIN } from '../../../src/domain/roles.js';
import { validateEdgeTokens } from '../../../src/use-cases/edge-tokens.use-cases.js';
import { EDGE_VALIDATE_BUDGET, SHAPE_LIMITS } from '../../../src/limits.js';
import { expectError } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { ADMIN_TOKEN } from '../../helpers/harness.js';
import { createProject, createUser, personalToken } from '../access/access-fixtures.js';
import { clientToken } from '../client/client-fixtures.js';
import { servedTest } from '../client/stream-fixtures.js';
import { edgeBody, edgePost, validateFrom } from './edge-fixtures.js';

const VALIDATE = '/edge/validate';
const test = harnessTest({ env: { LOG_LEVEL: 'debug' } });

/** `text` with its last random character changed: a token's shape, and no token. */
const forged = (text: string) => text.replace(/.$/, (c) => (c === '0' ? '1' : '0'));

describe('POST /edge/validate', () => {
  test('lists the valid client and frontend tokens Edge sends, with their scope, and leaves the forged one out; no token needed', async ({ h }) => {
    await createProject(h, 'web');
    const client = await clientToken(h, ['default', 'web'], 'development');
    const frontend = await clientToken(h, ['web'], 'production', 'frontend');
    const body = edgeBody('validate-request', { CLIENT_TOKEN: client, FRONTEND_TOKEN: frontend, FORGED_TOKEN: forged(client) });
    const expected = { tokens: [
      { token: client, type: 'client', projects: ['default', 'web'], environment: 'development' },
      { token: frontend, type: 'frontend', projects: ['web'], environment: 'production' },
    ] };
    const r = await edgePost(h, VALIDATE, body, null);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual(expected);
    // An Authorization header is not read: a wrong one changes nothing.
    expect(await edgePost(h, VALIDATE, body, 'not-a-token')).toMatchObject({ status: 200, body: expected });
  });

  test('admin tokens are listed as Unleash lists them; personal, deleted and expired tokens are not', async ({ h }) => {
    const user = await createUser(h, { username: 'pat', rootRole: ROOT_ADMIN });
    const personal = await personalToken(h, user);
    const deleted = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'gone', type: 'client', projects: ['*'], environment: 'development' });
    expect((await h.req('DELETE', `/api/admin/api-tokens/${deleted.body.id}`)).status).toBe(200);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const expiring = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'expiring', type: 'client', projects: ['*'], environment: 'production', expiresAt });
    expect(expiring.status, JSON.stringify(expiring.body)).toBe(201);
    const tokens = [ADMIN_TOKEN, personal, deleted.body.secret, expiring.body.secret, `Bearer ${expiring.body.secret}`];

    const r = await edgePost(h, VALIDATE, { tokens }, null);
    expect(r.body.tokens).toEqual([
      { token: ADMIN_TOKEN, type: 'admin', projects: ['*'], environment: '*' },
      { token: expiring.body.secret, type: 'client', projects: ['*'], environment: 'production' },
      // A text whose Authorization header would be accepted, listed as sent: Edge sends it back as it is.
      { token: `Bearer ${expiring.body.secret}`, type: 'client', projects: ['*'], environment: 'production' },
    ]);
    // Once it has expired it is no longer listed (the same lookup, an hour later).
    const later = await validateEdgeTokens(h.registry, { tokens, hasher: h.tokenHasher }, Date.parse(expiresAt) + 1);
    expect(later).toEqual({ ok: true, value: [{ token: ADMIN_TOKEN, type: 'admin', projects: ['*'], environment: '*' }] });
  });

  test('says nothing about a text that is no token, and no token text reaches the log', async ({ h }) => {
    const client = await clientToken(h, ['*'], 'development');
    for (const tokens of [[forged(client)], ['nonsense'], [''], [`*:*.${'a'.repeat(56)}`], ['x'.repeat(SHAPE_LIMITS.edgeToken)], []]) {
      const r = await edgePost(h, VALIDATE, { tokens }, null);
      expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { tokens: [] } });
    }
    expect((await edgePost(h, VALIDATE, { tokens: [forged(client), client, client] }, null)).body.tokens.map((t: { token: string }) => t.token)).toEqual([client]);
    // A list too long, a text too long, a text where the list belongs: 400, the text not repeated.
    expectError(await edgePost(h, VALIDATE, { tokens: Array.from({ length: SHAPE_LIMITS.edgeTokens + 1 }, (_, i) => `t${i}`) }, null), 400, 'ValidationError', /at most 1000 tokens/);
    expectError(await edgePost(h, VALIDATE, { tokens: ['x'.repeat(SHAPE_LIMITS.edgeToken + 1)] }, null), 400, 'ValidationError', /at most 1000 characters/);
    const misplaced = await edgePost(h, VALIDATE, { tokens: client }, null);
    expectError(misplaced, 400, 'ValidationError', /must be an array of tokens/);
    expect(JSON.stringify(misplaced.body)).not.toContain(client);
    expect((await edgePost(h, VALIDATE, { tokens: Array.from({ length: SHAPE_LIMITS.edgeTokens }, () => client) }, null)).status).toBe(200);

    const logged = JSON.stringify(h.logs());
    expect(logged).toContain('/edge/validate');
    const random = client.slice(client.indexOf('.') + 1);
    expect(logged).not.toContain(random);
    expect(logged).not.toContain(forged(client).slice(client.indexOf('.') + 1));
  });
});

describe('POST /edge/validate, served', () => {
  const served = servedTest();

  served('each address may have 10,000 token texts checked a minute; past that a 429 says when to come back, other addresses are not held up', async ({ h, base }) => {
    const client = await clientToken(h, ['*'], 'development');
    const calls = EDGE_VALIDATE_BUDGET.tokensPerWindow / SHAPE_LIMITS.edgeTokens;
    const list = [client, ...Array.from({ length: SHAPE_LIMITS.edgeTokens - 1 }, (_, i) => `*:development.unknown-${i}`)];
    for (let i = 0; i < calls; i += 1) {
      const r = await validateFrom(base, '127.0.0.1', list);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.tokens).toEqual([{ token: client, type: 'client', projects: ['*'], environment: 'development' }]);
    }
    const refused = await validateFrom(base, '127.0.0.1', [client]);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ name: 'TooManyRequests', message: expect.stringMatching(/10000 token texts checked in the last minute.*try again in \d+ s/) });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    // Another Edge, at another address, is answered.
    const other = await validateFrom(base, '127.0.0.2', [client]);
    expect(other).toMatchObject({ status: 200, body: { tokens: [{ token: client }] } });
  });
});
