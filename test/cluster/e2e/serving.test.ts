/**
 * Three flagpole processes on one PostgreSQL behind a real HAProxy (deploy/haproxy.cfg), all healthy: any
 * node takes any request (admin, client, frontend, OFREP); writes are ordered across nodes by the database
 * (one name wins, an If-Match is spent once); every node learns every change (admin read, SDK poll, delta,
 * stream); a node answers what it has written at once; real SDKs polling and streaming through the load
 * balancer never go back in time and never miss a change, even with one node's database link slow; and
 * snapshots are written by one node. node3 reaches PostgreSQL through a proxy of the test's own, so its
 * link can be slowed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { E2E_CLIENT_TOKEN, installation, type Installation } from '../../helpers/installation.js';
import { testDatabaseUrl } from '../../helpers/postgres.js';
import { metricValue, metricsOf } from '../../helpers/node-metrics.js';
import { watchSequence } from '../../helpers/sdk-sequence.js';
import { tcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { eventsOf, openSse, type SseReader } from '../../http/client/stream-fixtures.js';

let site: Installation;
let link: TcpProxy;

beforeAll(async () => {
  const url = new URL(testDatabaseUrl());
  link = await tcpProxy(url.hostname, Number(url.port));
  site = await installation({
    databaseUrl: url.href,
    nodeUrl: (index, direct) => {
      if (index !== 2) return direct;
      const proxied = new URL(direct);
      proxied.port = String(link.port);
      return proxied.href;
    },
    // Snapshots come often, so the test sees which node writes them.
    env: { SNAPSHOT_EVERY: '5' },
  });
}, 180_000);

afterAll(async () => {
  await site?.close();
  await link?.close();
});

const features = (project: string) => `/api/admin/projects/${project}/features`;
const NODES = ['node1', 'node2', 'node3'];
const lb = () => site.lb.base;

/** Creates project `id` through the load balancer. */
async function project(id: string): Promise<void> {
  const created = await site.call(lb(), 'POST', '/api/admin/projects', { id, name: id });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/** Creates flag `name` in `projectId` with a default strategy in development, through `base`. */
async function flagWithStrategy(base: string, projectId: string, name: string): Promise<void> {
  const created = await site.call(base, 'POST', features(projectId), { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const strategy = await site.call(base, 'POST', `${features(projectId)}/${name}/environments/development/strategies`, { name: 'default' });
  expect(strategy.status, JSON.stringify(strategy.body)).toBe(200);
}

describe('any node takes any request', () => {
  test('admin writes and reads, client, frontend and OFREP answers come from every node through the load balancer', async () => {
    await project('anyp');
    const writers = new Set<string>();
    for (let i = 0; i < 6; i += 1) {
      const created = await site.call(lb(), 'POST', features('anyp'), { name: `f${i}` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const strategy = await site.call(lb(), 'POST', `${features('anyp')}/f${i}/environments/development/strategies`, { name: 'default' });
      expect(strategy.status, JSON.stringify(strategy.body)).toBe(200);
      const on = await site.call(lb(), 'POST', `${features('anyp')}/f${i}/environments/development/on`);
      expect(on.status, JSON.stringify(on.body)).toBe(200);
      for (const answer of [created, strategy, on]) writers.add(answer.node!);
    }
    expect([...writers].sort()).toEqual(NODES);
    const frontend = await site.call(lb(), 'POST', '/api/admin/api-tokens', { tokenName: 'web', type: 'frontend', projects: ['anyp'], environment: 'development' });
    expect(frontend.status).toBe(201);
    await site.converged();

    const seen = { admin: new Set<string>(), client: new Set<string>(), frontend: new Set<string>(), ofrep: new Set<string>() };
    for (let i = 0; i < 6; i += 1) {
      const admin = await site.call(lb(), 'GET', features('anyp'));
      expect(admin.body.features.map((f: { name: string }) => f.name).sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5']);
      seen.admin.add(admin.node!);
      const client = await site.call(lb(), 'GET', '/api/client/features?project=anyp', undefined, { token: E2E_CLIENT_TOKEN });
      expect(client.body.features.filter((f: { enabled: boolean }) => f.enabled)).toHaveLength(6);
      seen.client.add(client.node!);
      const web = await site.call(lb(), 'GET', '/api/frontend', undefined, { token: frontend.body.secret });
      expect(web.status, JSON.stringify(web.body)).toBe(200);
      expect(web.body.toggles.map((t: { name: string }) => t.name).sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5']);
      seen.frontend.add(web.node!);
      const ofrep = await site.call(lb(), 'POST', '/ofrep/v1/evaluate/flags/f3', { context: { targetingKey: 'u1' } }, { token: E2E_CLIENT_TOKEN });
      expect(ofrep.status, JSON.stringify(ofrep.body)).toBe(200);
      expect(ofrep.body).toMatchObject({ key: 'f3', value: true });
      seen.ofrep.add(ofrep.node!);
    }
    expect(Object.fromEntries(Object.entries(seen).map(([api, nodes]) => [api, [...nodes].sort()])))
      .toEqual({ admin: NODES, client: NODES, frontend: NODES, ofrep: NODES });
  });
});

describe('writes are ordered across nodes by the database', () => {
  test('one name asked of every node at once: one 201, the rest 409', async () => {
    await project('orderp');
    const answers = await Promise.all(Array.from({ length: 12 }, () => site.call(lb(), 'POST', features('orderp'), { name: 'same' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array<number>(11).fill(409)]);
    // The refusals came from every node: not one node's mailbox deciding them all.
    expect([...new Set(answers.map((a) => a.node))].sort()).toEqual(NODES);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.name === 'NameExistsError')).toBe(true);

    // Twenty names, each asked three times at once: each created once, and every node lists the twenty.
    const names = Array.from({ length: 20 }, (_, i) => `many-${i}`);
    const many = await Promise.all(names.flatMap((name) => [0, 1, 2].map(() => site.call(lb(), 'POST', features('orderp'), { name }))));
    expect(many.filter((a) => a.status === 201)).toHaveLength(20);
    expect(many.filter((a) => a.status === 409)).toHaveLength(40);
    await site.converged();
    const lists = await Promise.all(site.nodes.map(async (node) => (await site.call(node.base, 'GET', features('orderp'))).body.features.map((f: { name: string }) => f.name).sort()));
    expect(lists[0]).toEqual(['same', ...names].sort());
    expect(lists[1]).toEqual(lists[0]);
    expect(lists[2]).toEqual(lists[0]);
  });

  test('an If-Match sent to every node at once is spent once: one 200, the rest 412', async () => {
    await project('matchp');
    await flagWithStrategy(lb(), 'matchp', 'guarded');
    await site.converged();
    const etag = (await site.call(lb(), 'GET', `${features('matchp')}/guarded`)).headers.get('etag')!;
    const etags = await Promise.all(site.nodes.map(async (node) => (await site.call(node.base, 'GET', `${features('matchp')}/guarded`)).headers.get('etag')));
    expect(etags).toEqual([etag, etag, etag]);
    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => site.call(lb(), 'PATCH', `${features('matchp')}/guarded`,
      [{ op: 'replace', path: '/description', value: `writer ${i}` }], { headers: { 'if-match': etag } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(8).fill(412)]);
    expect([...new Set(answers.map((a) => a.node))].sort()).toEqual(NODES);
    const winner = answers.find((a) => a.status === 200)!;
    await site.converged();
    for (const node of site.nodes) {
      expect((await site.call(node.base, 'GET', `${features('matchp')}/guarded`)).body.description).toBe(winner.body.description);
    }
  });
});

describe('every node learns every change', () => {
  test('a write on one node reaches every other node\'s admin read, SDK poll, delta and stream', async () => {
    await project('propp');
    await site.converged();
    const streams = new Map<string, SseReader>();
    try {
      for (const node of site.nodes) {
        const stream = await openSse(node.base, E2E_CLIENT_TOKEN, {}, '/api/client/streaming?project=propp');
        expect(stream.status).toBe(200);
        await stream.next((m) => m.event === 'unleash-connected');
        streams.set(node.name, stream);
      }
      for (const [i, writer] of site.nodes.entries()) {
        const name = `from-${writer.name}`;
        const before = await site.revisionOf(writer);
        await flagWithStrategy(writer.base, 'propp', name);
        expect((await site.call(writer.base, 'POST', `${features('propp')}/${name}/environments/development/on`)).status).toBe(200);
        for (const other of site.nodes.filter((_, j) => j !== i)) {
          await expect.poll(async () => (await site.call(other.base, 'GET', `${features('propp')}/${name}`)).body?.environments?.find((e: { name: string }) => e.name === 'development')?.enabled).toBe(true);
          const poll = await site.call(other.base, 'GET', '/api/client/features?project=propp', undefined, { token: E2E_CLIENT_TOKEN });
          expect(poll.body.features.find((f: { name: string }) => f.name === name)).toMatchObject({ enabled: true });
          const delta = await site.call(other.base, 'GET', '/api/client/delta?project=propp', undefined, { token: E2E_CLIENT_TOKEN, headers: { 'if-none-match': `"${before}"` } });
          expect(delta.status).toBe(200);
          expect(delta.body.events.filter((e: { type: string; feature?: { name: string } }) => e.feature?.name === name).at(-1)).toMatchObject({ type: 'feature-updated', feature: { enabled: true } });
          const stream = streams.get(other.name)!;
          await stream.next((m) => m.event === 'unleash-updated' && eventsOf(m).includes(`updated ${name}`) && m.data!.includes('"enabled":true'), 10_000);
        }
      }
      // The stream ids are revisions in one order: each node's stream carried the same ids.
      const ids = [...streams.values()].map((stream) => stream.messages.filter((m) => m.event === 'unleash-updated').map((m) => Number(m.id)));
      for (const list of ids) expect(list).toEqual([...list].sort((a, b) => a - b));
    } finally {
      for (const stream of streams.values()) stream.close();
    }
  });

  test('a node answers what it has written at once: its next admin read, SDK poll and delta show it', async () => {
    await project('ownp');
    await flagWithStrategy(lb(), 'ownp', 'mine');
    await site.converged();
    for (let i = 0; i < 6; i += 1) {
      const node = site.nodes[i % 3]!;
      const state = i % 2 === 0 ? 'on' : 'off';
      const before = await site.revisionOf(node);
      expect((await site.call(node.base, 'POST', `${features('ownp')}/mine/environments/development/${state}`)).status).toBe(200);
      const read = await site.call(node.base, 'GET', `${features('ownp')}/mine`);
      expect(read.body.environments.find((e: { name: string }) => e.name === 'development').enabled).toBe(state === 'on');
      const poll = await site.call(node.base, 'GET', '/api/client/features?project=ownp', undefined, { token: E2E_CLIENT_TOKEN });
      expect(poll.body.features.find((f: { name: string }) => f.name === 'mine').enabled).toBe(state === 'on');
      const delta = await site.call(node.base, 'GET', '/api/client/delta?project=ownp', undefined, { token: E2E_CLIENT_TOKEN, headers: { 'if-none-match': `"${before}"` } });
      expect(delta.body.events.at(-1)).toMatchObject({ type: 'feature-updated', feature: { name: 'mine', enabled: state === 'on' } });
    }
  });
});

describe('an SDK moved between nodes by the load balancer', () => {
  test('polling (full and delta) and streaming SDKs never go back in time and never miss a change, with node3 behind', async () => {
    await project('sdkp');
    await site.converged();
    const api = `${lb()}/api/`;
    const watches = {
      full: watchSequence(api, E2E_CLIENT_TOKEN, { type: 'polling', format: 'full' }, 'seq-', 50),
      delta: watchSequence(api, E2E_CLIENT_TOKEN, { type: 'polling', format: 'delta' }, 'seq-', 50),
      stream: watchSequence(api, E2E_CLIENT_TOKEN, { type: 'streaming' }, 'seq-'),
    };
    const all = Object.values(watches);
    try {
      await Promise.all(all.map((watch) => watch.ready));
      // node3 hears of every commit late (and writes late): SDK requests that reach it show revisions it has not reached.
      link.delay(150);
      const behind: number[] = [];
      const N = 30;
      for (let i = 1; i <= N; i += 1) {
        const created = await site.call(lb(), 'POST', features('sdkp'), { name: `seq-${i}` });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const [head, third] = await Promise.all([site.revisionOf(site.nodes[0]!), site.revisionOf(site.nodes[2]!)]);
        if (third < head) behind.push(head - third);
        // Every SDK is cut off from its node now and then: the stream reconnects through the balancer with its Last-Event-ID.
        if (i % 10 === 0) for (const name of NODES) await site.lb.command(`shutdown sessions server flagpole/${name}`);
      }
      expect(behind.length, 'node3 was behind node1 while the SDKs read').toBeGreaterThan(0);
      for (const [mode, watch] of Object.entries(watches)) {
        await expect.poll(() => watch.highest(), { timeout: 15_000, message: `${mode} SDK reaches seq-${N}` }).toBe(N);
        expect(watch.violations, `${mode} SDK`).toEqual([]);
        expect(watch.errors, `${mode} SDK`).toEqual([]);
      }
      // The polls went to every node.
      for (const node of site.nodes) {
        const polls = metricValue(await metricsOf(node.base), 'flagpole_http_request_duration_seconds_count', { route: '/api/client/features' })
          + metricValue(await metricsOf(node.base), 'flagpole_http_request_duration_seconds_count', { route: '/api/client/delta' });
        expect(polls, node.name).toBeGreaterThan(0);
      }
    } finally {
      link.delay(0);
      for (const watch of all) watch.destroy();
    }
  }, 120_000);
});

describe('work that must happen once', () => {
  test('one node writes the snapshots', async () => {
    await project('snapp');
    for (let i = 0; i < 12; i += 1) expect((await site.call(lb(), 'POST', features('snapp'), { name: `s${i}` })).status).toBe(201);
    await site.converged();
    const counts = async () => Promise.all(site.nodes.map(async (node) => metricValue(await metricsOf(node.base), 'flagpole_snapshot_duration_seconds_count')));
    await expect.poll(async () => (await counts()).filter((n) => n > 0).length).toBe(1);
    expect(Math.max(...await counts())).toBeGreaterThan(0);
  });
});
