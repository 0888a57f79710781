/**
 * The database out of reach, behind a real HAProxy (deploy/haproxy.cfg), on a PostgreSQL of this file's own
 * (stopped and started again): with PostgreSQL down, writes answer 503 on every node while reads go on, through
 * HAProxy's last-resort backend once every node reports itself unhealthy, and all recover when it is back.
 * One node cut off from the database (a proxy of the test's between node3 and PostgreSQL, cut) stops taking
 * writes and reports itself unhealthy on /health after DATABASE_CONTACT_TIMEOUT_MS, HAProxy takes it out, and
 * the others serve; healed, it catches up and comes back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { E2E_CLIENT_TOKEN, installation, type Installation } from '../../helpers/installation.js';
import type { NodeProcess } from '../../helpers/node-process.js';
import { startPostgres, type TestPostgres } from '../../helpers/postgres.js';
import { watchSequence } from '../../helpers/sdk-sequence.js';
import { tcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';

let server: TestPostgres;
let link: TcpProxy;
let site: Installation;

beforeAll(async () => {
  server = await startPostgres();
  link = await tcpProxy('127.0.0.1', server.port);
  site = await installation({
    databaseUrl: server.url,
    nodeUrl: (index, url) => {
      if (index !== 2) return url;
      const proxied = new URL(url);
      proxied.port = String(link.port);
      return proxied.href;
    },
    // The shortest bound there is, and a write that waits on an unanswering database gives up in 2 s.
    env: { DATABASE_CONTACT_TIMEOUT_MS: '1000', WRITE_TIMEOUT_MS: '2000' },
  });
  expect((await site.call(site.lb.base, 'POST', '/api/admin/projects', { id: 'dbp', name: 'dbp' })).status).toBe(201);
}, 240_000);

afterAll(async () => {
  await site?.close();
  await link?.close();
  await server?.stop();
});

const FEATURES = '/api/admin/projects/dbp/features';
const health = async (node: NodeProcess) => (await site.call(node.base, 'GET', '/health')).status;

/** Creates `name` through `base`; answers the status and who answered. */
const create = async (base: string, name: string) => site.call(base, 'POST', FEATURES, { name });

describe('PostgreSQL unreachable', () => {
  test('writes 503 on every node, reads go on (through the last-resort backend), and all recover when it is back', async () => {
    const lb = site.lb.base;
    expect((await create(lb, 'before')).status).toBe(201);
    await site.converged();
    const sdk = watchSequence(`${lb}/api/`, E2E_CLIENT_TOKEN, { type: 'streaming' }, 'back-');
    const poller = watchSequence(`${lb}/api/`, E2E_CLIENT_TOKEN, { type: 'polling', format: 'full' }, 'back-', 100);
    try {
      await sdk.ready;
      await poller.ready;
      await server.pause();
      for (const [i, node] of site.nodes.entries()) {
        const refused = await create(node.base, `during-${i}`);
        expect(refused.status, JSON.stringify(refused.body)).toBe(503);
        const read = await site.call(node.base, 'GET', `${FEATURES}/before`);
        expect(read.status).toBe(200);
      }
      // Past the bound every node says so on /health; HAProxy has no healthy node and serves from the last resort.
      for (const node of site.nodes) await expect.poll(() => health(node), { timeout: 10_000 }).toBe(503);
      await site.balancerSees({ node1: 'DOWN', node2: 'DOWN', node3: 'DOWN' });
      const nodes = new Set<string>();
      for (let i = 0; i < 6; i += 1) {
        const read = await site.call(lb, 'GET', `${FEATURES}/before`);
        expect(read.status).toBe(200);
        nodes.add(read.node!);
        const poll = await site.call(lb, 'GET', '/api/client/features?project=dbp', undefined, { token: E2E_CLIENT_TOKEN });
        expect(poll.body.features.map((f: { name: string }) => f.name)).toEqual(['before']);
      }
      expect([...nodes].sort()).toEqual(['node1', 'node2', 'node3']);
      expect((await create(lb, 'through-the-balancer')).status).toBe(503);

      await server.start();
      for (const node of site.nodes) await expect.poll(() => health(node), { timeout: 20_000 }).toBe(200);
      await site.balancerSees({ node1: 'UP', node2: 'UP', node3: 'UP' });
      for (const [i, node] of site.nodes.entries()) expect((await create(node.base, `back-${i + 1}`)).status).toBe(201);
      await site.converged();
      for (const node of site.nodes) {
        const names = (await site.call(node.base, 'GET', FEATURES)).body.features.map((f: { name: string }) => f.name).sort();
        expect(names).toEqual(['back-1', 'back-2', 'back-3', 'before']);
      }
      for (const watch of [sdk, poller]) {
        await expect.poll(() => watch.highest(), { timeout: 15_000 }).toBe(3);
        expect(watch.violations).toEqual([]);
      }
    } finally {
      sdk.destroy();
      poller.destroy();
    }
  }, 180_000);
});

describe('one node cut off from the database', () => {
  for (const mode of ['silent', 'reset'] as const) {
    test(`${mode === 'silent' ? 'a partition (nothing answers)' : 'a refused connection'}: it takes no write, says it is unhealthy, HAProxy takes it out, the others serve; healed, it catches up and comes back`, async () => {
      const lb = site.lb.base;
      const [, , cut] = site.nodes as [NodeProcess, NodeProcess, NodeProcess];
      await site.balancerSees({ node1: 'UP', node2: 'UP', node3: 'UP' });
      link.cut(mode);
      try {
        await expect.poll(() => health(cut), { timeout: 10_000 }).toBe(503);
        const said = await site.call(cut.base, 'GET', '/health');
        expect(said.body).toMatchObject({ health: 'BAD', status: 'unhealthy' });
        expect(said.body.problems[0]).toMatch(/no contact with the database for \d+ ms \(DATABASE_CONTACT_TIMEOUT_MS 1000\)/);
        await site.balancerSees({ node3: 'DOWN', node1: 'UP', node2: 'UP' });
        // The others take every write through the balancer.
        const answers = [];
        for (let i = 0; i < 6; i += 1) answers.push(await create(lb, `${mode}-while-cut-${i}`));
        expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
        expect(answers.every((a) => a.node !== 'node3')).toBe(true);
        // Asked directly, the cut node refuses writes and still answers reads.
        const refused = await create(cut.base, `${mode}-on-the-cut-node`);
        expect(refused.status, JSON.stringify(refused.body)).toBe(503);
        expect((await site.call(cut.base, 'GET', `${FEATURES}/before`)).status).toBe(200);
        expect((await site.call(cut.base, 'GET', '/health/reads')).status).toBe(200);
      } finally {
        link.heal();
      }
      await expect.poll(() => health(cut), { timeout: 20_000 }).toBe(200);
      await site.balancerSees({ node3: 'UP' });
      await site.converged();
      const names = (await site.call(cut.base, 'GET', FEATURES)).body.features.map((f: { name: string }) => f.name);
      for (let i = 0; i < 6; i += 1) expect(names).toContain(`${mode}-while-cut-${i}`);
      // The write refused on the cut node was not made.
      expect(names).not.toContain(`${mode}-on-the-cut-node`);
      expect((await create(cut.base, `${mode}-after`)).status).toBe(201);
    }, 120_000);
  }
});
