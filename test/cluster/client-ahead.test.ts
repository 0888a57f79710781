/**
 * An SDK a load balancer moves between nodes never goes back in time: a node behind the revision the client
 * shows (its ETag, its delta revision, its stream's Last-Event-ID) waits for it a little, or answers "no change".
 */
import { expect, test, vi } from 'vitest';
import { clusterForTest } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

const FEATURES = '/api/admin/projects/default/features';
/** Two nodes, a client token, and flag `f` with a strategy in development, seen by both. */
async function setUp(env: Record<string, string>): Promise<{ a: Harness; b: Harness; token: string }> {
  const current = await clusterForTest(2, env);
  const [a, b] = current.nodes as [Harness, Harness];
  const token = (await a.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] })).body.secret as string;
  expect((await a.json('POST', FEATURES, { name: 'f' })).status).toBe(201);
  expect((await a.json('POST', `${FEATURES}/f/environments/development/strategies`, { name: 'default' })).status).toBe(200);
  await expect.poll(() => b.registry.feed.revision).toBe(a.registry.feed.revision);
  return { a, b, token };
}

const enabledIn = (body: { features: { name: string; enabled: boolean }[] }) => body.features.find((f) => f.name === 'f')?.enabled;

test('a node behind the client answers "no change" to its poll, its delta and its stream, then serves the change once it has it', async () => {
  const { a, b, token } = await setUp({ NODE_CATCH_UP_WAIT_MS: '0' });
  const release = b.registry.node.sequencer.hold();
  expect((await a.json('POST', `${FEATURES}/f/environments/development/on`)).status).toBe(200);
  const onA = await a.json('GET', '/api/client/features', undefined, { token });
  expect(enabledIn(onA.body)).toBe(true);
  const etag = onA.headers.get('etag')!;
  const revision = a.registry.feed.revision;
  expect(b.registry.feed.revision).toBeLessThan(revision);

  // b has not applied the switch: it must not hand the client its older state.
  const poll = await b.req('GET', '/api/client/features', undefined, { token, headers: { 'if-none-match': etag } });
  expect(poll.status).toBe(304);
  expect(poll.headers.get('etag')).toBe(etag);
  const delta = await b.req('GET', '/api/client/delta', undefined, { token, headers: { 'if-none-match': `"${revision}"` } });
  expect(delta.status).toBe(304);
  const stream = await b.req('GET', '/api/client/streaming', undefined, { token, headers: { 'last-event-id': String(revision) } });
  const reader = stream.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first).toContain('event: unleash-connected');
  expect(first).not.toContain('hydration');

  release();
  await expect.poll(() => b.registry.feed.revision).toBe(revision);
  const again = await b.json('GET', '/api/client/features', undefined, { token });
  expect(enabledIn(again.body)).toBe(true);
  await reader.cancel();
});

test('a browser SDK (frontend API) and an OFREP provider ahead of their node hear "no change", never the older answer', async () => {
  const { a, b } = await setUp({ NODE_CATCH_UP_WAIT_MS: '0' });
  const frontend = (await a.json('POST', '/api/admin/api-tokens', { tokenName: 'web', type: 'frontend', environment: 'development', projects: ['*'] })).body.secret as string;
  const client = (await a.json('POST', '/api/admin/api-tokens', { tokenName: 'ofrep', type: 'client', environment: 'development', projects: ['*'] })).body.secret as string;
  await expect.poll(() => b.registry.feed.revision).toBe(a.registry.feed.revision);
  const release = b.registry.node.sequencer.hold();
  expect((await a.json('POST', `${FEATURES}/f/environments/development/on`)).status).toBe(200);
  const toggles = await a.json('GET', '/api/frontend?userId=1', undefined, { token: frontend });
  expect(toggles.body.toggles.map((t: { name: string }) => t.name)).toEqual(['f']);
  const onB = await b.req('GET', '/api/frontend?userId=1', undefined, { token: frontend, headers: { 'if-none-match': toggles.headers.get('etag')! } });
  expect(onB.status).toBe(304);
  const posted = await b.req('POST', '/api/frontend', { context: { userId: '1' } }, { token: frontend, headers: { 'if-none-match': toggles.headers.get('etag')! } });
  expect(posted.status).toBe(304);
  const bulk = await a.req('POST', '/ofrep/v1/evaluate/flags', { context: { targetingKey: '1' } }, { token: client });
  expect(bulk.status).toBe(200);
  const ofrepOnB = await b.req('POST', '/ofrep/v1/evaluate/flags', { context: { targetingKey: '1' } }, { token: client, headers: { 'if-none-match': bulk.headers.get('etag')! } });
  expect(ofrepOnB.status).toBe(304);
  // Without the tag the node answers what it has (the flag still off there): the tag is what keeps the browser where it was.
  expect((await b.json('GET', '/api/frontend?userId=1', undefined, { token: frontend })).body.toggles).toEqual([]);
  release();
  await expect.poll(async () => (await b.json('GET', '/api/frontend?userId=1', undefined, { token: frontend })).body.toggles.length).toBe(1);
});

test('with the default wait, a poll showing a newer revision is answered once the node has caught up', async () => {
  const { a, b, token } = await setUp({});
  const release = b.registry.node.sequencer.hold();
  expect((await a.json('POST', `${FEATURES}/f/environments/development/on`)).status).toBe(200);
  const etag = (await a.req('GET', '/api/client/features', undefined, { token })).headers.get('etag')!;
  const answer = b.req('GET', '/api/client/features', undefined, { token, headers: { 'if-none-match': etag } });
  release();
  const response = await answer;
  // Caught up: the same state as a (a 304 when b's tag for it is the same, else the body with the switch on).
  if (response.status === 200) expect(enabledIn(await response.json() as Parameters<typeof enabledIn>[0])).toBe(true);
  else expect(response.status).toBe(304);
  expect(b.registry.feed.revision).toBe(a.registry.feed.revision);
});
