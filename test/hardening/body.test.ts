/**
 * Bodies the server does not read as sent are refused before any work: an encoding it does not decode
 * (415), bytes that are not UTF-8 (400, never silently replaced), and an array where an object is expected
 * (400). Nothing is written.
 */
import { expect, test } from 'vitest';
import { expectError, expectNoChange } from '../helpers/expect.js';
import { ADMIN_TOKEN, harness } from '../helpers/harness.js';

const FEATURES = '/api/admin/projects/default/features';

const send = (h: Awaited<ReturnType<typeof harness>>, path: string, body: string | Uint8Array, headers: Record<string, string>) =>
  h.app.request(path, { method: 'POST', headers: { authorization: ADMIN_TOKEN, 'content-type': 'application/json', ...headers }, body: body as string });

test('a Content-Encoding the server does not decode is a 415, whatever the body holds', async () => {
  const h = await harness();
  try {
    await expectNoChange(h, async () => {
      for (const encoding of ['gzip', 'deflate', 'br', 'x-anything']) {
        const r = await send(h, FEATURES, '{"name":"plain-json-labelled-gzip"}', { 'content-encoding': encoding });
        expectError({ status: r.status, body: await r.json() }, 415, 'ContentTypeError', /Content-Encoding/);
      }
    });
    const identity = await send(h, FEATURES, '{"name":"identity-is-fine"}', { 'content-encoding': 'identity' });
    expect(identity.status).toBe(201);
  } finally {
    await h.close();
  }
});

test('invalid UTF-8 in a JSON body is a 400, not a name with U+FFFD in it', async () => {
  const h = await harness();
  try {
    await expectNoChange(h, async () => {
      for (const bytes of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
        const body = Buffer.concat([Buffer.from('{"name":"bad'), Buffer.from(bytes), Buffer.from('"}')]);
        const r = await send(h, FEATURES, body, {});
        expectError({ status: r.status, body: await r.json() }, 400, 'ValidationError', /UTF-8/);
      }
    });
    const valid = await send(h, FEATURES, Buffer.from('{"name":"ok","description":"grüße 🚩"}'), {});
    expect(valid.status).toBe(201);
    expect(((await valid.json()) as { description: string }).description).toBe('grüße 🚩');
  } finally {
    await h.close();
  }
});

test('an array where an object is expected is a 400 on every object body', async () => {
  const h = await harness();
  try {
    expect((await h.json('POST', FEATURES, { name: 'f' })).status).toBe(201);
    await expectNoChange(h, async () => {
      for (const [method, path] of [
        ['POST', FEATURES], ['PUT', `${FEATURES}/f`], ['POST', `${FEATURES}/f/clone`], ['POST', '/api/admin/projects/default/delete'],
        ['POST', `${FEATURES}/f/environments/development/strategies`], ['POST', '/api/admin/projects'], ['POST', '/api/admin/environments'],
        ['POST', '/api/admin/user-admin'], ['POST', '/api/admin/api-tokens'],
      ] as const) {
        expectError(await h.json(method, path, []), 400, 'ValidationError', /must be an object|is required|not a known property/);
        expectError(await h.json(method, path, [{ name: 'x' }]), 400, 'ValidationError', /must be an object|is required|not a known property/);
      }
      // Nested, an array misses the object's required keys: a 400 naming them.
      expectError(await h.json('POST', `${FEATURES}/f/environments/development/strategies`, { name: 'default', constraints: [[]] }), 400, 'ValidationError', /constraints\.0/);
      // An optional body (the membership routes) that is an array is refused, not read as "no fields".
      const refused = await h.json('POST', '/api/admin/projects/default/users/1/roles/5', []);
      expect(refused.body).toEqual([{ msg: 'The body must be an object, got an array' }]);
    });
  } finally {
    await h.close();
  }
});
