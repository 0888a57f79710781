/**
 * One project written from several nodes at the same moment (docs/architecture.md "Several nodes"): the nodes
 * take turns at the project's log, so every write is answered as on one node (a name once, a spent If-Match
 * 412) and none fails because another node wrote at the same moment.
 */
import { expect, test, vi } from 'vitest';
import { DiskFaults } from '../../snapshots/disk-faults.js';
import { clusterForTest } from '../helpers/cluster.js';
import { harness, type Harness } from '../helpers/harness.js';
import { freshSchema } from '../helpers/postgres.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process, hundreds of writes: seconds of work, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

const FEATURES = '/api/admin/projects/default/features';
/** Waits until every node has applied what any of them committed. */
async function converged(all: Harness[]): Promise<void> {
  const head = Math.max(...all.map((node) => node.registry.feed.revision));
  await expect.poll(() => all.every((node) => node.registry.feed.revision >= head)).toBe(true);
}

/** The project's log position on `node`: one record per write it committed. */
const seqOf = (node: Harness): number => node.registry.project('default')!.seq;

test('three nodes writing one project at once: every write answered once, as on one node, none 503', async () => {
  const current = await clusterForTest(3);
  const nodes = current.nodes;
  const before = seqOf(nodes[0]!);
  const statuses: number[] = [];
  const count = (status: number) => statuses.filter((s) => s === status).length;

  // Round 1: every node creates its own flags, and all of them ask for the same shared names at once.
  const own = (n: number) => Array.from({ length: 40 }, (_, i) => `n${n}-flag-${i}`);
  const sharedNames = Array.from({ length: 15 }, (_, i) => `shared-${i}`);
  const created = await Promise.all(nodes.flatMap((node, n) => [...own(n), ...sharedNames].map(async (name) => {
    const { status } = await node.json('POST', FEATURES, { name });
    statuses.push(status);
    return { name, status };
  })));
  for (const name of sharedNames) expect(created.filter((c) => c.name === name).map((c) => c.status).sort()).toEqual([201, 409, 409]);
  for (const n of [0, 1, 2]) for (const name of own(n)) expect(created.find((c) => c.name === name)?.status).toBe(201);

  // Round 2: every node gives its own flags a strategy, and all give each shared flag one.
  const strategies = await Promise.all(nodes.flatMap((node, n) => [...own(n), ...sharedNames].map(async (name) => (await node.json('POST', `${FEATURES}/${name}/environments/development/strategies`, { name: 'default' })).status)));
  statuses.push(...strategies);
  expect(strategies.filter((s) => s !== 200)).toEqual([]);

  // Round 3: every node switches its own flags on, and spends one If-Match per shared flag at the same time.
  await converged(nodes);
  const etags = await Promise.all(sharedNames.map(async (name) => (await nodes[0]!.json('GET', `${FEATURES}/${name}`)).headers.get('etag')!));
  const toggled = await Promise.all(nodes.flatMap((node, n) => [
    ...own(n).map(async (name) => ({ name, status: (await node.json('POST', `${FEATURES}/${name}/environments/development/on`)).status })),
    ...sharedNames.map(async (name, i) => ({ name, status: (await node.json('POST', `${FEATURES}/${name}/environments/development/on`, undefined, { headers: { 'if-match': etags[i]! } })).status })),
  ]));
  statuses.push(...toggled.map((t) => t.status));
  for (const name of sharedNames) expect(toggled.filter((t) => t.name === name).map((t) => t.status).sort()).toEqual([200, 412, 412]);

  expect(count(503)).toBe(0);
  expect(statuses.filter((s) => ![200, 201, 409, 412].includes(s))).toEqual([]);
  // Every acknowledged write is one record of the log, on every node, and each flag is there once, switched on.
  await converged(nodes);
  const acknowledged = count(200) + count(201);
  expect(acknowledged).toBe(3 * 40 * 3 + sharedNames.length * (1 + 3 + 1));
  for (const node of nodes) {
    expect(seqOf(node) - before).toBe(acknowledged);
    const { body } = await node.json('GET', `${FEATURES}`);
    const names = (body.features as { name: string }[]).map((f) => f.name);
    expect(names.length).toBe(new Set(names).size);
    expect(new Set(names)).toEqual(new Set([...own(0), ...own(1), ...own(2), ...sharedNames]));
  }
  const enabled = await nodes[2]!.json('GET', `${FEATURES}/n0-flag-7`);
  expect(enabled.body.environments.find((e: { name: string }) => e.name === 'development')?.enabled).toBe(true);
});

test('three nodes toggling one project without pause: no write fails because another node wrote at the same moment', async () => {
  const current = await clusterForTest(3);
  const nodes = current.nodes;
  const flags = Array.from({ length: 48 }, (_, i) => `busy-${i}`);
  for (const name of flags) {
    expect((await nodes[0]!.json('POST', FEATURES, { name })).status).toBe(201);
    expect((await nodes[0]!.json('POST', `${FEATURES}/${name}/environments/development/strategies`, { name: 'default' })).status).toBe(200);
  }
  await converged(nodes);
  const before = seqOf(nodes[0]!);
  // 16 writers per node, each switching its own flag on and off in turn: every write changes something.
  const statuses = (await Promise.all(flags.map(async (name, i) => {
    const node = nodes[i % nodes.length]!;
    const answers: number[] = [];
    for (let k = 0; k < WRITES_PER_WRITER; k += 1) {
      answers.push((await node.json('POST', `${FEATURES}/${name}/environments/development/${k % 2 === 0 ? 'on' : 'off'}`)).status);
    }
    return answers;
  }))).flat();
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  await converged(nodes);
  for (const node of nodes) expect(seqOf(node) - before).toBe(flags.length * WRITES_PER_WRITER);
});

/** Writes each writer of the test above sends, one after the other. */
const WRITES_PER_WRITER = 30;

// A node's own batch is committed but must wait for a record another node committed just before it, which
// this node cannot read (held here, as when the database stops answering its reads): the caller is answered
// 503 within WRITE_TIMEOUT_MS instead of waiting with the mailbox, and the batch is published once it can be.
test('a batch committed behind a record this node cannot read yet is answered 503 in time, then published in its place', async () => {
  const schema = freshSchema();
  const env = { DATABASE_URL: schema.database.url, DATABASE_SCHEMA: schema.database.schema, DATABASE_POOL_SIZE: '4', WRITE_TIMEOUT_MS: '3000' };
  const faults = new DiskFaults();
  const a = await harness(env, undefined, { store: 'postgres', writeGate: faults });
  const b = await harness(env, undefined, { store: 'postgres' });
  try {
    expect((await b.json('POST', '/api/admin/projects', { id: 'web', name: 'Web' })).status).toBe(201);
    await converged([a, b]);

    // a decides its create, then waits at the gate before its statement goes out.
    faults.hang();
    let answered: { status: number; body: { message: string } } | null = null;
    const pending = a.json('POST', FEATURES, { name: 'late' }).then((r) => { answered = r; });
    await expect.poll(() => faults.faulted).toBe(1);
    // Meanwhile b commits to another project: a record a has not read, with the revision before a's.
    const release = a.registry.node.sequencer.hold();
    expect((await b.json('POST', '/api/admin/projects/web/features', { name: 'first' })).status).toBe(201);
    faults.heal();

    await expect.poll(() => answered?.status).toBe(503);
    expect(answered!.body.message).toContain('the database');
    expect(answered!.body.message).not.toContain('disk');
    // The project's mailbox holds that batch: another write is refused at once, naming it.
    const refused = await a.json('POST', FEATURES, { name: 'meanwhile' });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toContain('an earlier write is still waiting for the database');

    release();
    await pending;
    await expect.poll(async () => (await a.json('GET', `${FEATURES}/late`)).status).toBe(200);
    expect(a.logs().some((line) => String(line['msg']).includes('took its place in the global order after its callers were answered 503'))).toBe(true);
    expect((await a.json('POST', FEATURES, { name: 'after' })).status).toBe(201);
    await converged([a, b]);
    expect((await b.json('GET', `${FEATURES}/late`)).status).toBe(200);
    expect((await b.json('GET', `${FEATURES}/meanwhile`)).status).toBe(404);
  } finally {
    await a.close();
    await b.close();
    await schema.drop();
  }
});
