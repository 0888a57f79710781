/**
 * Usage metrics on several nodes of one database (docs/storage.md "Usage metrics"): SDKs, browsers and Edge
 * post to different nodes, and once the nodes have flushed, every node answers the sum of all of them (raw
 * buckets, the flag's and its environments' last seen, the applications that saw it, the applications list
 * and their instances), each post counted once: across flushes at the same moment, flushes with nothing
 * new, restarts, a node killed with SIGKILL after its flush. A node further behind the other nodes' flushes than they are kept reads every record again.
 * Posts are the bodies the SDKs send (`usage-fixtures.ts`, the Edge fixture).
 */
import { afterEach, expect, test, vi } from 'vitest';
import { JOURNAL_KEPT } from '../../src/actors/usage-journal.js';
import { cluster, type Cluster } from '../helpers/cluster.js';
import { ADMIN_TOKEN, HARNESS_TOKEN_SECRET, type Harness } from '../helpers/harness.js';
import { nodeProcess, type NodeProcess } from '../helpers/node-process.js';
import { CHILD_PROCESS_TEST_MS, HEAVY_TEST_MS, untilState } from '../helpers/wait.js';
import { chronoTime, edgeBody, edgePost } from '../http/edge/edge-fixtures.js';
import { browserMetricsBody, clientToken, countedBuckets, createFlag, flagPath, frontendToken, nodeMetricsBody, nodeRegisterBody, postMetrics } from '../http/usage/usage-fixtures.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

let current: Cluster | null = null;
let child: NodeProcess | null = null;

afterEach(async () => {
  await child?.dispose();
  child = null;
  await current?.close();
  current = null;
});

/** `count` nodes (flushing only when told: the timer's interval is an hour), a flag and a client token every node knows. */
async function world(count: number, env: Record<string, string> = {}): Promise<{ all: Harness[]; token: string }> {
  current = await cluster(count, { METRICS_FLUSH_SECONDS: '3600', ...env });
  const all = current.nodes;
  await createFlag(all[0]!, 'checkout');
  const token = await clientToken(all[0]!);
  for (const node of all) await expect.poll(async () => (await node.req('GET', '/api/client/features', undefined, { token })).status, untilState()).toBe(200);
  return { all, token };
}

/** The flag's counted buckets as `node` answers them, summed by environment: `{ development: { yes, no, variants } }`. */
async function totalsOn(node: Harness): Promise<Record<string, { yes: number; no: number; variants: Record<string, number> }>> {
  const totals: Record<string, { yes: number; no: number; variants: Record<string, number> }> = {};
  for (const bucket of await countedBuckets(node, 'checkout')) {
    const total = (totals[bucket.environment] ??= { yes: 0, no: 0, variants: {} });
    total.yes += bucket.yes;
    total.no += bucket.no;
    for (const [name, n] of Object.entries(bucket.variants)) total.variants[name] = (total.variants[name] ?? 0) + n;
  }
  return totals;
}

const yesOn = async (node: Harness) => (await totalsOn(node))['development']?.yes ?? 0;

/** The instance ids of application `app` as `node` answers them, sorted. */
async function instancesOn(node: Harness, app: string): Promise<string[]> {
  const r = await node.json('GET', `/api/admin/metrics/applications/${app}`);
  return r.status === 200 ? (r.body.instances as { instanceId: string }[]).map((i) => i.instanceId).sort() : [];
}

const appsOn = async (node: Harness) => ((await node.json('GET', '/api/admin/metrics/applications')).body.applications as { appName: string }[]).map((a) => a.appName).sort();

/** What `node` answers of when the flag was seen: its last seen, each environment's, and the applications that saw it. */
async function seenOn(node: Harness) {
  const flag = (await node.json('GET', flagPath('checkout'))).body as { lastSeenAt: string | null; environments: { name: string; lastSeenAt: string | null }[] };
  const usage = (await node.json('GET', '/api/admin/client-metrics/features/checkout')).body as { seenApplications: string[] };
  return {
    lastSeenAt: flag.lastSeenAt,
    environments: Object.fromEntries(flag.environments.map((e) => [e.name, e.lastSeenAt])),
    seenApplications: usage.seenApplications,
  };
}

test('an SDK, a browser and Edge posting to three nodes: every node answers the sum of every node\'s posts', async () => {
  const { all: [a, b, c], token } = await world(3);
  const browser = `Bearer ${await frontendToken(a!)}`;
  await expect.poll(async () => (await b!.req('GET', '/api/frontend', undefined, { token: browser })).status, untilState()).toBe(200);
  // Node SDK instances register and post to a and b; a browser posts to b; Edge posts a batch (checkout-service, billing-service) to c.
  for (const [i, node] of [a!, b!].entries()) {
    expect((await node.req('POST', '/api/client/register', nodeRegisterBody('shop', `pod-${i}`), { token })).status).toBe(202);
    await postMetrics(node, token, nodeMetricsBody({ checkout: { yes: i + 1, no: 1, variants: { blue: i + 1 } } }, 'shop', `pod-${i}`));
  }
  await postMetrics(b!, browser, browserMetricsBody({ checkout: { yes: 3, no: 0, variants: { blue: 2 } } }), '/api/frontend/client/metrics');
  const batch = edgeBody('bulk-metrics-request', { STARTED: chronoTime(Date.now() - 600_000), BUCKET_START: chronoTime(Date.now() - 30_000) });
  expect((await edgePost(c!, '/api/client/metrics/bulk', batch, token)).status).toBe(202);
  await Promise.all([a!, b!, c!].map((node) => node.registry.usage.flush()));

  // shop 1+2 yes, 2 no; the browser 3 yes; Edge's development entry 7 yes, 2 no (its production entry is another token's).
  const expected = { development: { yes: 1 + 2 + 3 + 7, no: 2 + 2, variants: { blue: 1 + 2 + 2 + 4, green: 3 } } };
  for (const node of [a!, b!, c!]) {
    await expect.poll(() => totalsOn(node), untilState()).toEqual(expected);
    expect(await appsOn(node)).toEqual(['checkout-service', 'shop', 'web-shop']);
    expect(await instancesOn(node, 'shop')).toEqual(['pod-0', 'pod-1']);
    expect(await instancesOn(node, 'checkout-service')).toEqual(['checkout-7f9c']);
    const seen = await seenOn(node);
    expect(seen.lastSeenAt).not.toBeNull();
    expect(seen.environments['development']).toBe(seen.lastSeenAt);
    expect(seen.seenApplications).toEqual(['checkout-service', 'shop', 'web-shop']);
  }
  // Every node answers the same last seen: the latest of all nodes' posts.
  expect(new Set(await Promise.all([a!, b!, c!].map(async (node) => (await seenOn(node)).lastSeenAt))).size).toBe(1);
});

test('nodes flushing the same hour bucket at the same moment, round after round, count each post once', async () => {
  const { all, token } = await world(3);
  let sent = 0;
  for (let round = 1; round <= 6; round += 1) {
    await Promise.all(all.map(async (node, i) => {
      await postMetrics(node, token, nodeMetricsBody({ checkout: { yes: round * 10 + i, no: 0, variants: {} } }, 'shop', `pod-${i}`));
      sent += round * 10 + i;
    }));
    await Promise.all(all.map((node) => node.registry.usage.flush()));
    for (const node of all) await expect.poll(() => yesOn(node), untilState()).toBe(sent);
  }
  for (const node of all) expect(await instancesOn(node, 'shop')).toEqual(['pod-0', 'pod-1', 'pod-2']);
});

test('flushes with nothing new and a restart (its last flush at close) count nothing twice', async () => {
  const { all: [a, b, c], token } = await world(3);
  for (const [i, node] of [a!, b!, c!].entries()) await postMetrics(node, token, nodeMetricsBody({ checkout: { yes: i + 1, no: 0, variants: {} } }, 'shop', `pod-${i}`));
  for (const node of [a!, b!, c!]) await node.registry.usage.flush();
  for (const node of [a!, b!, c!]) await node.registry.usage.flush();
  // a restarts with a post not flushed yet: its close writes it, once.
  await postMetrics(a!, token, nodeMetricsBody({ checkout: { yes: 10, no: 0, variants: {} } }, 'shop', 'pod-0'));
  await a!.restart();
  await postMetrics(a!, token, nodeMetricsBody({ checkout: { yes: 100, no: 0, variants: {} } }, 'shop', 'pod-0'));
  await a!.registry.usage.flush();
  await b!.registry.usage.flush();
  for (const node of [a!, b!, c!]) await expect.poll(() => yesOn(node), untilState()).toBe(1 + 2 + 3 + 10 + 100);
  expect(await instancesOn(a!, 'shop')).toEqual(['pod-0', 'pod-1', 'pod-2']);
});

test('a node further behind the others\' flushes than they are kept reads every usage record again', async () => {
  const { all: [a, b], token } = await world(2, { LOG_LEVEL: 'info' });
  // b hears of no flush (as if its listening connection were away) and flushes nothing meanwhile.
  b!.registry.usage['unsubscribeSignals']();
  for (let i = 0; i < JOURNAL_KEPT + 2; i += 1) {
    await postMetrics(a!, token, nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }, 'shop', `pod-${i % 3}`));
    await a!.registry.usage.flush();
  }
  expect(await yesOn(a!)).toBe(JOURNAL_KEPT + 2);
  expect(await yesOn(b!)).toBe(0);
  await b!.registry.usage.follow();
  expect(await yesOn(b!)).toBe(JOURNAL_KEPT + 2);
  expect(await instancesOn(b!, 'shop')).toEqual(['pod-0', 'pod-1', 'pod-2']);
  expect(b!.logs().some((line) => String(line['msg']).includes('reading every usage record again'))).toBe(true);
  // Then it follows again from there: one more flush of a, read by b's next flush, and b's own flush adds to it.
  await postMetrics(a!, token, nodeMetricsBody({ checkout: { yes: 5, no: 0, variants: {} } }, 'shop', 'pod-0'));
  await a!.registry.usage.flush();
  await postMetrics(b!, token, nodeMetricsBody({ checkout: { yes: 7, no: 0, variants: {} } }, 'shop', 'pod-1'));
  await b!.registry.usage.flush();
  expect(await yesOn(b!)).toBe(JOURNAL_KEPT + 2 + 5 + 7);
  await expect.poll(() => yesOn(a!), untilState()).toBe(JOURNAL_KEPT + 2 + 5 + 7);
});

test('a node killed with SIGKILL after its flush counts nothing twice once started again', async () => {
  const { all: [a, b], token } = await world(2);
  // A third node as a process of its own on the same schema and token key, flushing every second.
  child = await nodeProcess('usage-node', { ...current!.env, TOKEN_SECRET: HARNESS_TOKEN_SECRET, METRICS_FLUSH_SECONDS: '1', LOG_LEVEL: 'warn' });
  await child.start();
  const post = async (body: unknown) => {
    const answer = await fetch(`${child!.base}/api/client/metrics`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(answer.status).toBe(202);
  };
  const yesOnChild = async () => {
    const answer = await fetch(`${child!.base}/api/admin/client-metrics/features/checkout/raw`, { headers: { authorization: ADMIN_TOKEN } });
    return (((await answer.json()) as { data: { yes: number }[] }).data).reduce((sum, bucket) => sum + bucket.yes, 0);
  };
  await post(nodeMetricsBody({ checkout: { yes: 5, no: 0, variants: {} } }, 'shop', 'pod-9'));
  await postMetrics(a!, token, nodeMetricsBody({ checkout: { yes: 1, no: 0, variants: {} } }, 'shop', 'pod-0'));
  await a!.registry.usage.flush();
  // b shows the child's 5: the child's flush is committed. Then the child dies at once.
  await expect.poll(() => yesOn(b!), untilState()).toBe(6);
  await child.kill9();
  await child.start();
  expect(await yesOnChild()).toBe(6);
  await post(nodeMetricsBody({ checkout: { yes: 100, no: 0, variants: {} } }, 'shop', 'pod-9'));
  await postMetrics(b!, token, nodeMetricsBody({ checkout: { yes: 1000, no: 0, variants: {} } }, 'shop', 'pod-1'));
  await b!.registry.usage.flush();
  for (const read of [() => yesOn(a!), () => yesOn(b!), yesOnChild]) await expect.poll(read, untilState()).toBe(1106);
  expect(await instancesOn(a!, 'shop')).toEqual(['pod-0', 'pod-1', 'pod-9']);
}, CHILD_PROCESS_TEST_MS);
