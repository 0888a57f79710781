/**
 * The console's live rows on several nodes: a page open on one node hears the switches made on another (its
 * table's event stream follows the node's feed, which carries every node's commits).
 */
import { expect, test, vi } from 'vitest';
import { clusterForTest } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

/** Reads `stream` until its text so far contains `wanted`; answers that text. */
async function readUntil(stream: ReadableStreamDefaultReader<Uint8Array>, wanted: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(wanted)) {
    const { value, done } = await stream.read();
    if (done) throw new Error(`the stream ended before "${wanted}":\n${text}`);
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

test('a flag table open on one node hears a switch made on another', async () => {
  const current = await clusterForTest(2);
  const [a, b] = current.nodes as [Harness, Harness];
  const created = await a.json('POST', '/api/admin/user-admin', { username: 'ops', password: 'tulip-harbour-88', rootRole: 1 });
  expect(created.status).toBe(201);
  expect((await a.json('POST', '/api/admin/projects/default/features', { name: 'checkout' })).status).toBe(201);
  expect((await a.json('POST', '/api/admin/projects/default/features/checkout/environments/development/strategies', { name: 'default' })).status).toBe(200);
  const signedIn = await b.req('POST', '/auth/simple/login', { username: 'ops', password: 'tulip-harbour-88' }, { token: null });
  expect(signedIn.status).toBe(200);
  // (The sign-in caught b up with a: the switch below is the only change after the stream opens.)
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  const events = await b.req('GET', '/projects/default/events', undefined, { token: null, headers: { cookie } });
  expect(events.status).toBe(200);
  const reader = events.body!.getReader();
  try {
    expect((await a.req('POST', '/api/admin/projects/default/features/checkout/environments/development/on')).status).toBe(200);
    expect(await readUntil(reader, 'event: changed:checkout')).toContain('data: checkout');
    expect(b.registry.project('default')!.state.flags.get('checkout')!.environments.development!.enabled).toBe(true);
  } finally {
    await reader.cancel();
  }
});
