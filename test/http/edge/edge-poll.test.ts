/**
 * Unleash Edge's own requests for the flags it serves, over a real socket with Edge's headers
 * (test/fixtures/edge/headers.json): it registers itself (`POST /api/client/register`, its registration as its
 * source builds it), then polls `GET /api/client/features` with its token and, from the second poll on, the last
 * `ETag`. What Edge relies on: an `ETag` its parser (the `etag` crate) reads, else it never revalidates; 304 while
 * nothing changed; a new answer and `ETag` when a flag changes; `meta.revisionId`, which it reports as its revision.
 */
import { expect } from 'vitest';
import { addStrategy, createFlag, envPath, switchOn } from '../../helpers/flags.js';
import { clientToken } from '../client/client-fixtures.js';
import { servedTest } from '../client/stream-fixtures.js';
import { chronoTime, EDGE_HEADERS, edgeBody, edgePollHeaders } from './edge-fixtures.js';

const test = servedTest();

/** An entity tag as RFC 7232 (and the `etag` crate Edge parses it with) allows: quoted, of visible characters but `"`. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e]*"$/;

test('Edge registers, polls with its headers, gets 304 while nothing changes and the change once a flag is switched off', async ({ h, base, seen }) => {
  await createFlag(h, 'checkout');
  await addStrategy(h, 'checkout', 'development');
  await switchOn(h, 'checkout', 'development');
  const token = await clientToken(h, ['*'], 'development');

  const registration = edgeBody('register-request', { ENVIRONMENT: 'development', STARTED: chronoTime(Date.now()) });
  const registered = await fetch(`${base}/api/client/register`, {
    method: 'POST', headers: { ...EDGE_HEADERS, Authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(registration),
  });
  expect(registered.status, await registered.clone().text()).toBe(202);

  const poll = async (etag?: string) => {
    const response = await fetch(`${base}/api/client/features`, { headers: edgePollHeaders(token, etag) });
    const text = await response.text();
    return { status: response.status, etag: response.headers.get('etag'), body: text === '' ? null : JSON.parse(text) };
  };
  const first = await poll();
  expect(first.status).toBe(200);
  expect(first.etag).toMatch(ENTITY_TAG);
  expect(first.body.meta.revisionId).toEqual(expect.any(Number));
  expect(first.body.features).toEqual([expect.objectContaining({ name: 'checkout', enabled: true })]);
  // Unleash-Client-Spec 6.1.0: segments by id, as Edge's engine reads them.
  expect(first.body.segments).toEqual([]);

  const unchanged = await poll(first.etag!);
  expect(unchanged).toEqual({ status: 304, etag: first.etag, body: null });

  expect((await h.req('POST', `${envPath('checkout', 'development')}/off`)).status).toBe(200);
  const changed = await poll(first.etag!);
  expect(changed.status).toBe(200);
  expect(changed.etag).toMatch(ENTITY_TAG);
  expect(changed.etag).not.toBe(first.etag);
  expect(changed.body.meta.revisionId).toBeGreaterThan(first.body.meta.revisionId);
  expect(changed.body.features).toEqual([expect.objectContaining({ name: 'checkout', enabled: false })]);
  expect(await poll(changed.etag!)).toMatchObject({ status: 304, etag: changed.etag });
  expect(seen.filter((r) => r.path === '/api/client/features').map((r) => [r.status, r.ifNoneMatch])).toEqual([
    [200, null], [304, first.etag], [200, first.etag], [304, changed.etag],
  ]);

  // Edge shows among the applications as it registered itself.
  await h.registry.usage.flush();
  const app = await h.json('GET', '/api/admin/metrics/applications/unleash-edge');
  expect(app.status).toBe(200);
  expect(app.body).toMatchObject({ appName: 'unleash-edge', sdkVersion: 'unleash-edge:20.4.1' });
  expect(app.body.instances).toEqual([expect.objectContaining({ instanceId: '01KAZ3V4Q8F5XH2N6T9R7M1C0D', environment: 'development' })]);
});
