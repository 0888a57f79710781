/**
 * Several nodes on one PostgreSQL (docs/architecture.md "Several nodes"), in process: what one node commits
 * every other serves, concurrent decisions on two nodes answer as on one node, and the revision means the
 * same everywhere.
 */
import { describe, expect, test, vi } from 'vitest';
import { clusterForTest, type Cluster } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

/** The running test's cluster (closed when the test finishes: `clusterForTest`). */
let current: Cluster | null = null;

const FEATURES = '/api/admin/projects/default/features';
async function nodes(count: number, options: { together?: boolean } = {}): Promise<[Harness, Harness, Harness]> {
  current = await clusterForTest(count, {}, options);
  return current.nodes as [Harness, Harness, Harness];
}

/** Waits until every node has applied what any of them committed: the same revision on each. */
async function converged(all: Harness[]): Promise<number> {
  const head = Math.max(...all.map((node) => node.registry.feed.revision));
  await expect.poll(() => all.map((node) => node.registry.feed.revision >= head)).toEqual(all.map(() => true));
  return head;
}

describe('several nodes on one database', () => {
  test('what one node commits the others serve: flags, switches, projects, users and tokens', async () => {
    const [a, b] = await nodes(2);
    expect((await a.json('POST', FEATURES, { name: 'checkout' })).status).toBe(201);
    await expect.poll(async () => (await b.json('GET', `${FEATURES}/checkout`)).status).toBe(200);
    expect((await b.json('POST', `${FEATURES}/checkout/environments/development/strategies`, { name: 'default' })).status).toBe(200);
    expect((await b.json('POST', `${FEATURES}/checkout/environments/development/on`)).status).toBe(200);
    await expect.poll(async () => (await a.json('GET', `${FEATURES}/checkout`)).body.environments.find((e: { name: string }) => e.name === 'development')?.enabled).toBe(true);

    const token = await a.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] });
    expect(token.status).toBe(201);
    await expect.poll(async () => (await b.json('GET', '/api/client/features', undefined, { token: token.body.secret })).status).toBe(200);

    expect((await b.json('POST', '/api/admin/projects', { id: 'web', name: 'Web' })).status).toBe(201);
    await expect.poll(async () => (await a.json('GET', '/api/admin/projects/web')).status).toBe(200);
    expect((await a.json('POST', '/api/admin/projects/web/features', { name: 'banner' })).status).toBe(201);
    await expect.poll(async () => (await b.json('GET', '/api/admin/projects/web/features/banner')).status).toBe(200);
    expect((await a.json('DELETE', '/api/admin/projects/web/features/banner')).status).toBe(202);
    await expect.poll(async () => (await b.json('GET', '/api/admin/projects/web/features/banner')).body.archived).toBe(true);
    await expect.poll(async () => (await b.json('DELETE', '/api/admin/projects/web')).status).toBe(200);
    await expect.poll(async () => (await a.json('GET', '/api/admin/projects/web')).status).toBe(404);

    const user = await b.json('POST', '/api/admin/user-admin', { username: 'ada', rootRole: 'Editor' });
    expect(user.status).toBe(201);
    await expect.poll(async () => (await a.json('GET', `/api/admin/user-admin/${user.body.id}`)).status).toBe(200);
  });

  test('two nodes deciding at once answer as one node does: one name wins, an If-Match is spent once', async () => {
    const [a, b] = await nodes(2);
    const created = await Promise.all([a.json('POST', FEATURES, { name: 'same' }), b.json('POST', FEATURES, { name: 'same' })]);
    expect(created.map((r) => r.status).sort()).toEqual([201, 409]);
    await converged([a, b]);
    expect((await b.json('POST', `${FEATURES}/same/environments/development/strategies`, { name: 'default' })).status).toBe(200);
    await converged([a, b]);
    const etag = (await a.json('GET', `${FEATURES}/same`)).headers.get('etag')!;
    const toggles = await Promise.all([a, b].map((node) => node.json('POST', `${FEATURES}/same/environments/development/on`, undefined, { headers: { 'if-match': etag } })));
    expect(toggles.map((r) => r.status).sort()).toEqual([200, 412]);

    // Many names from both nodes at once, each asked of both: every name is created once.
    const names = Array.from({ length: 20 }, (_, i) => `flag-${i}`);
    const answers = await Promise.all(names.flatMap((name) => [a, b].map(async (node) => (await node.json('POST', FEATURES, { name })).status)));
    expect(answers.filter((status) => status === 201)).toHaveLength(20);
    expect(answers.filter((status) => status === 409)).toHaveLength(20);
    await converged([a, b]);
    const lists = await Promise.all([a, b].map(async (node) => (await node.json('GET', FEATURES)).body.features.map((f: { name: string }) => f.name).sort()));
    expect(lists[0]).toEqual(lists[1]);
    expect(lists[0]).toHaveLength(21);
  });

  test('the revision and the SDK poll\'s ETag mean the same on every node', async () => {
    const [a, b, c] = await nodes(3);
    const token = (await a.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] })).body.secret as string;
    for (let i = 0; i < 5; i += 1) {
      const node = [a, b, c][i % 3]!;
      expect((await node.json('POST', FEATURES, { name: `f${i}` })).status).toBe(201);
    }
    const head = await converged([a, b, c]);
    expect([a, b, c].map((node) => node.registry.feed.revision)).toEqual([head, head, head]);
    const etags = await Promise.all([a, b, c].map(async (node) => (await node.req('GET', '/api/client/features', undefined, { token })).headers.get('etag')));
    expect(new Set(etags).size).toBe(1);
    // A poll with that ETag is "no change" on each node.
    const polls = await Promise.all([a, b, c].map(async (node) => (await node.req('GET', '/api/client/features', undefined, { token, headers: { 'if-none-match': etags[0]! } })).status));
    expect(polls).toEqual([304, 304, 304]);
  });

  test('nodes starting together on a new database initialise it once', async () => {
    const all = await nodes(3, { together: true });
    await converged(all);
    for (const node of all) {
      expect((await node.json('GET', '/api/admin/projects')).body.projects.map((p: { id: string }) => p.id)).toEqual(['default']);
      expect((await node.json('GET', '/api/admin/environments')).body.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    }
  });

  test('a node started later has caught up before it serves', async () => {
    const [a] = await nodes(1);
    for (let i = 0; i < 30; i += 1) expect((await a.json('POST', FEATURES, { name: `early-${i}` })).status).toBe(201);
    const late = await current!.add();
    expect((await late.json('GET', FEATURES)).body.features).toHaveLength(30);
    expect(late.registry.feed.revision).toBe(a.registry.feed.revision);
  });
});
