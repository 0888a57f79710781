/**
 * What every node must agree on besides the logs (docs/operations.md "Several nodes"): the token key (a node
 * started with another one refuses to start, saying what to do), the OFREP stream tickets it derives (one node's
 * ticket opens a stream on any other), and a one-time password link (used on two nodes at once, it sets one password).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { createPasswordLink, passwordLinkUser, usePasswordLink } from '../../src/use-cases/password-links.use-cases.js';
import { clusterForTest, type Cluster } from '../helpers/cluster.js';
import { harness, HARNESS_TOKEN_SECRET, type Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

/** The running test's cluster (closed when the test finishes: `clusterForTest`). */
let current: Cluster | null = null;

async function nodes(count: number): Promise<Harness[]> {
  current = await clusterForTest(count);
  return current.nodes;
}

/** A harness on the cluster's database with `env` over its settings, over a data directory removed after. */
async function startWith(env: Record<string, string>): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flagpole-node-'));
  try {
    return await harness({ ...current!.env, ...env }, dataDir, { store: 'postgres' });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

test('a node with another token key refuses to start, naming what to set; the same key from a file starts', async () => {
  const [a] = await nodes(1);
  const made = await a!.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] });
  expect(made.status).toBe(201);
  await expect(startWith({ TOKEN_SECRET: 'another-installation-key-0123456789abcdef' })).rejects.toThrow(
    /token key of this node \(TOKEN_SECRET, or the file TOKEN_SECRET_FILE names\) is not the key .* set the same TOKEN_SECRET on each, or copy the key file/);
  // The message never holds a key.
  await expect(startWith({ TOKEN_SECRET: 'another-installation-key-0123456789abcdef' })).rejects.not.toThrow(/another-installation-key|harness-token-key/);
  const keyFile = join(mkdtempSync(join(tmpdir(), 'flagpole-key-')), 'token-secret');
  writeFileSync(keyFile, `${HARNESS_TOKEN_SECRET}\n`, { mode: 0o600 });
  const b = await startWith({ TOKEN_SECRET_FILE: keyFile });
  current!.nodes.push(b);
  // A token made on a authenticates on b.
  await expect.poll(async () => (await b.req('GET', '/api/client/features', undefined, { token: made.body.secret })).status).toBe(200);
  rmSync(keyFile, { force: true });
});

test('an OFREP stream ticket issued by one node opens the stream on another', async () => {
  const [a, b] = await nodes(2);
  const token = (await a!.json('POST', '/api/admin/api-tokens', { tokenName: 'web', type: 'frontend', environment: 'development', projects: ['*'] })).body.secret as string;
  const bulk = await a!.json('POST', '/ofrep/v1/evaluate/flags', { context: {} }, { token });
  expect(bulk.status).toBe(200);
  const url = new URL(bulk.body.eventStreams[0].url as string);
  // b knows the token once it has applied a's record; then its ticket is good there.
  await expect.poll(async () => (await b!.req('GET', '/api/frontend', undefined, { token })).status).toBe(200);
  const stream = await b!.req('GET', `${url.pathname}${url.search}`, undefined, { token: null });
  expect(stream.status).toBe(200);
  expect(stream.headers.get('content-type')).toBe('text/event-stream');
  await stream.body?.cancel();
});

test('a one-time password link used on two nodes at once sets one password', async () => {
  const [a, b] = await nodes(2);
  const user = await a!.json('POST', '/api/admin/user-admin', { username: 'ann', rootRole: 'Editor' });
  expect(user.status).toBe(201);
  const link = await createPasswordLink(a!.registry, a!.tokenHasher, { userId: user.body.id }, { kind: 'admin', name: 'test' });
  expect(link.ok).toBe(true);
  const secret = link.ok ? link.value.secret : '';
  await expect.poll(() => passwordLinkUser(b!.registry, b!.tokenHasher, secret).ok).toBe(true);
  const used = await Promise.all([
    usePasswordLink(a!.registry, a!.tokenHasher, { secret, password: 'tulip-harbour-88' }),
    usePasswordLink(b!.registry, b!.tokenHasher, { secret, password: 'meadow-lantern-77' }),
  ]);
  expect(used.map((r) => (r.ok ? 'ok' : r.error.kind)).sort()).toEqual(['NotFoundError', 'ok']);
  const chosen = used[0]!.ok ? 'tulip-harbour-88' : 'meadow-lantern-77';
  for (const node of [a!, b!]) {
    await expect.poll(async () => (await node.req('POST', '/auth/simple/login', { username: 'ann', password: chosen }, { token: null })).status).toBe(200);
  }
});
