/**
 * Nodes dying and restarting under writers, behind a real HAProxy (deploy/haproxy.cfg): kill -9 of the node
 * that writes the snapshots and holds an SDK stream loses no acknowledged write, the other nodes go on
 * serving every read and taking writes, the streaming SDK resumes on another node without a missed change,
 * the snapshot lease moves, and the killed node has caught up before it answers again. Then a rolling
 * restart, one node at a time drained in HAProxy first, with no write refused.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { E2E_CLIENT_TOKEN, installation, type Installation } from '../../helpers/installation.js';
import { startSequence, startWriters, type WriteOutcome, type Writers } from '../../helpers/lb-writers.js';
import { metricValue, metricsOf } from '../../helpers/node-metrics.js';
import type { NodeProcess } from '../../helpers/node-process.js';
import { watchSequence, type SequenceWatch } from '../../helpers/sdk-sequence.js';

let site: Installation;

beforeAll(async () => {
  site = await installation({ env: { SNAPSHOT_EVERY: '10' } });
  for (const id of ['alpha', 'beta', 'seqk', 'seqr']) {
    const created = await site.call(site.lb.base, 'POST', '/api/admin/projects', { id, name: id });
    expect(created.status, `project ${id}: ${JSON.stringify(created.body)}\n${site.output().slice(-3000)}`).toBe(201);
  }
}, 180_000);

afterAll(async () => {
  await site?.close();
});

const snapshotsOf = async (node: NodeProcess) => metricValue(await metricsOf(node.base), 'flagpole_snapshot_duration_seconds_count');
const streamsOf = async (node: NodeProcess) => metricValue(await metricsOf(node.base), 'flagpole_streaming_clients');
const failed = (outcome: WriteOutcome) => outcome.status === 'cut' || outcome.status >= 500;

/** Waits until `count()` reaches `n`. */
const reaches = (what: string, count: () => number, n: number) => expect.poll(count, { timeout: 30_000, message: what }).toBeGreaterThanOrEqual(n);

/** What each SDK holds of `project` (`name → enabled`) is what every node serves, once they agree. */
async function sdksMatchTheNodes(watches: Record<string, SequenceWatch>, project: string, writers: Writers): Promise<void> {
  await site.converged();
  for (const node of site.nodes) {
    const answer = await site.call(node.base, 'GET', `/api/client/features?project=${project}`, undefined, { token: E2E_CLIENT_TOKEN });
    const served = Object.fromEntries((answer.body.features as { name: string; enabled: boolean }[]).map((f) => [f.name, f.enabled]));
    const differences = () => Object.fromEntries(Object.entries(watches).map(([name, watch]) => {
      const held = watch.flags();
      return [name, Object.entries(served).filter(([flag, enabled]) => held.get(flag)?.enabled !== enabled).map(([flag]) => flag)];
    }));
    const none = Object.fromEntries(Object.keys(watches).map((name) => [name, []]));
    await expect.poll(differences, { timeout: 10_000 }).toEqual(none).catch(async (error: unknown) => {
      const flags = [...new Set(Object.values(differences()).flat())].slice(0, 3);
      const views = await Promise.all(site.nodes.map(async (n) => {
        const client = await site.call(n.base, 'GET', `/api/client/features?project=${project}`, undefined, { token: E2E_CLIENT_TOKEN });
        const admin = await site.call(n.base, 'GET', `/api/admin/state?project=${project}`);
        return { node: n.name, revision: await site.revisionOf(n), etag: client.headers.get('etag'), flags: flags.map((flag) => ({
          flag,
          client: (client.body.features as { name: string; enabled: boolean }[]).find((f) => f.name === flag)?.enabled,
          admin: (admin.body.projects[0].flags as { name: string; environments: Record<string, { enabled: boolean }> }[]).find((f) => f.name === flag)?.environments['development']?.enabled,
        })) };
      }));
      const sdk = flags.map((flag) => Object.fromEntries(Object.entries(watches).map(([name, watch]) => [name, watch.trail(flag).join('>')])));
      const history = await Promise.all(flags.map(async (flag) => (await site.call(site.nodes[1]!.base, 'GET', `/api/admin/events?project=${project}&feature=${flag}&limit=50`)).body.events.map((e: { seq: number; type: string; at: string }) => `${e.seq}:${e.type}@${e.at}`)));
      throw new Error(`SDKs against ${node.name}: ${JSON.stringify({ views, sdk, history, outcomes: writers.outcomes.filter(failed) })}`, { cause: error });
    });
  }
}

test('kill -9 of one node of three while people write through the load balancer', async () => {
  const lb = site.lb.base;
  // The node that writes snapshots (it holds the lease): the first writes show which it is.
  const warmUp = startWriters(site.call, lb, ['alpha'], 2, 'warm');
  try {
    await expect.poll(async () => (await Promise.all(site.nodes.map(snapshotsOf))).some((n) => n > 0), { timeout: 30_000 }).toBe(true);
  } finally {
    await warmUp.stop();
  }
  expect(warmUp.problems).toEqual([]);
  const counts = await Promise.all(site.nodes.map(snapshotsOf));
  expect(counts.filter((n) => n > 0)).toHaveLength(1);
  const victim = site.nodes[counts.findIndex((n) => n > 0)]!;
  const others = site.nodes.filter((node) => node !== victim);

  // Three streaming SDKs through the balancer, one on each node; one polling deltas.
  const streams: SequenceWatch[] = [];
  for (let i = 0; i < 3; i += 1) {
    const watch = watchSequence(`${lb}/api/`, E2E_CLIENT_TOKEN, { type: 'streaming' }, 'k-');
    streams.push(watch);
    await watch.ready;
  }
  const poller = watchSequence(`${lb}/api/`, E2E_CLIENT_TOKEN, { type: 'polling', format: 'delta' }, 'k-', 50);
  await poller.ready;
  const watches = [...streams, poller];
  const writers = startWriters(site.call, lb, ['alpha', 'beta'], 4, 'kill');
  const sequence = startSequence(site.call, lb, 'seqk', 'k-');
  try {
    await expect.poll(() => Promise.all(site.nodes.map(streamsOf))).toEqual([1, 1, 1]);
    await reaches('writes acknowledged before the kill', writers.acknowledged, 40);

    await victim.kill9();
    const acknowledgedAtKill = writers.acknowledged();
    const writtenAtKill = sequence.written();
    await site.balancerSees({ [victim.name]: 'DOWN' });
    const downAt = Date.now();
    // The others take writes: the writers go on, every write through the balancer lands on them.
    await reaches('writes acknowledged after the kill', writers.acknowledged, acknowledgedAtKill + 60);
    await reaches('sequence written after the kill', sequence.written, writtenAtKill + 10);
    // The stream that was on the victim came back through the balancer, to another node.
    await expect.poll(async () => (await Promise.all(others.map(streamsOf))).reduce((a, b) => a + b), { timeout: 15_000 }).toBe(3);
    // Another node took the snapshot lease and writes the snapshots now.
    await expect.poll(async () => (await Promise.all(others.map(snapshotsOf))).some((n) => n > 0), { timeout: 30_000 }).toBe(true);

    // Restarted, the node answers only once it has caught up: its first answer holds every write acknowledged before it started.
    const before = writers.acknowledgedNow();
    await victim.start();
    for (const [project, flags] of before) {
      const dump = await site.call(victim.base, 'GET', `/api/admin/state?project=${project}`);
      const stored = new Map((dump.body.projects[0].flags as { name: string; environments: Record<string, { strategies: { id: string }[] }> }[]).map((f) => [f.name, new Set(f.environments['development']!.strategies.map((s) => s.id))]));
      for (const [name, strategies] of flags) {
        expect(stored.has(name), `${project}/${name} on the restarted node`).toBe(true);
        for (const id of strategies) expect(stored.get(name)!.has(id), `strategy ${id} of ${project}/${name} on the restarted node`).toBe(true);
      }
    }
    await site.balancerSees({ [victim.name]: 'UP' });
    const acknowledgedAtReturn = writers.acknowledged();
    await reaches('writes acknowledged after the return', writers.acknowledged, acknowledgedAtReturn + 30);
    await writers.stop();
    await sequence.stop();
    expect([...writers.problems, ...sequence.problems]).toEqual([]);

    // No acknowledged write lost, on any node; the nodes agree.
    await site.converged();
    for (const node of site.nodes) await writers.verify(node.base);
    const dumps = await Promise.all(site.nodes.map(async (node) => JSON.stringify((await site.call(node.base, 'GET', '/api/admin/state?project=alpha')).body.projects[0].flags)));
    expect(dumps[1]).toBe(dumps[0]);
    expect(dumps[2]).toBe(dumps[0]);
    // Writes failed only in flight when the node died, never once the balancer had taken it out; no read failed.
    const failures = writers.outcomes.filter(failed);
    expect(failures.every((o) => o.startedAt < downAt), JSON.stringify(failures)).toBe(true);
    expect(writers.failedReads).toEqual([]);
    expect(writers.outcomes.some((o) => o.node === victim.name && o.startedAt > downAt)).toBe(true);
    // The SDKs never went back and missed nothing: each holds the whole sequence and what the nodes serve.
    for (const watch of watches) {
      await expect.poll(() => watch.highest(), { timeout: 15_000 }).toBe(sequence.written());
      expect(watch.violations).toEqual([]);
    }
    await sdksMatchTheNodes({ stream1: streams[0]!, stream2: streams[1]!, stream3: streams[2]!, deltaPoller: poller }, 'alpha', writers);
  } finally {
    await writers.stop();
    await sequence.stop();
    for (const watch of watches) watch.destroy();
  }
}, 240_000);

test('a rolling restart, one node at a time drained in HAProxy first, refuses no write and fails no read', async () => {
  const lb = site.lb.base;
  const stream = watchSequence(`${lb}/api/`, E2E_CLIENT_TOKEN, { type: 'streaming' }, 'r-');
  await stream.ready;
  const writers = startWriters(site.call, lb, ['alpha', 'beta'], 3, 'roll');
  const sequence = startSequence(site.call, lb, 'seqr', 'r-');
  try {
    for (const node of site.nodes) {
      const acknowledged = writers.acknowledged();
      for (const backend of ['flagpole', 'flagpole_reads']) await site.lb.command(`set server ${backend}/${node.name} state drain`);
      await site.balancerSees({ [node.name]: 'DRAIN' });
      expect(await node.stop()).toBe(0);
      await node.start();
      for (const backend of ['flagpole', 'flagpole_reads']) await site.lb.command(`set server ${backend}/${node.name} state ready`);
      await site.balancerSees({ [node.name]: 'UP' });
      await reaches(`writes acknowledged after ${node.name} came back`, writers.acknowledged, acknowledged + 20);
    }
    await writers.stop();
    await sequence.stop();
    expect([...writers.problems, ...sequence.problems]).toEqual([]);
    expect(writers.outcomes.filter(failed)).toEqual([]);
    expect(writers.failedReads).toEqual([]);
    await site.converged();
    for (const node of site.nodes) await writers.verify(node.base);
    await expect.poll(() => stream.highest(), { timeout: 15_000 }).toBe(sequence.written());
    expect(stream.violations).toEqual([]);
  } finally {
    await writers.stop();
    await sequence.stop();
    stream.destroy();
  }
}, 240_000);
