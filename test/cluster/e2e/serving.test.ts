/**
 * Three flagpole processes on one PostgreSQL behind a real HAProxy (deploy/haproxy.cfg): any node takes any
 * request (admin, client, frontend, OFREP), writes are ordered across nodes by the database (one name wins,
 * an If-Match is spent once), and a node answers what it has written at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { E2E_CLIENT_TOKEN, installation, type Installation } from '../../helpers/installation.js';

let site: Installation;

beforeAll(async () => {
  site = await installation();
}, 120_000);

afterAll(async () => {
  await site?.close();
});

const features = (project: string) => `/api/admin/projects/${project}/features`;
const NODES = ['node1', 'node2', 'node3'];

/** Creates project `id` through the load balancer. */
async function project(id: string): Promise<void> {
  const created = await site.call(site.lb.base, 'POST', '/api/admin/projects', { id, name: id });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

describe('any node takes any request', () => {
  test('admin writes and reads, client, frontend and OFREP answers come from every node through the load balancer', async () => {
    const lb = site.lb.base;
    await project('anyp');
    const writers = new Set<string>();
    for (let i = 0; i < 6; i += 1) {
      const created = await site.call(lb, 'POST', features('anyp'), { name: `f${i}` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const strategy = await site.call(lb, 'POST', `${features('anyp')}/f${i}/environments/development/strategies`, { name: 'default' });
      expect(strategy.status, JSON.stringify(strategy.body)).toBe(200);
      const on = await site.call(lb, 'POST', `${features('anyp')}/f${i}/environments/development/on`);
      expect(on.status, JSON.stringify(on.body)).toBe(200);
      for (const answer of [created, strategy, on]) writers.add(answer.node!);
    }
    expect([...writers].sort()).toEqual(NODES);
    const frontend = await site.call(lb, 'POST', '/api/admin/api-tokens', { tokenName: 'web', type: 'frontend', projects: ['anyp'], environment: 'development' });
    expect(frontend.status).toBe(201);
    await site.converged();

    const seen = { admin: new Set<string>(), client: new Set<string>(), frontend: new Set<string>(), ofrep: new Set<string>() };
    for (let i = 0; i < 6; i += 1) {
      const admin = await site.call(lb, 'GET', features('anyp'));
      expect(admin.body.features.map((f: { name: string }) => f.name).sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5']);
      seen.admin.add(admin.node!);
      const client = await site.call(lb, 'GET', '/api/client/features?project=anyp', undefined, { token: E2E_CLIENT_TOKEN });
      expect(client.body.features.filter((f: { enabled: boolean }) => f.enabled)).toHaveLength(6);
      seen.client.add(client.node!);
      const web = await site.call(lb, 'GET', '/api/frontend', undefined, { token: frontend.body.secret });
      expect(web.status, JSON.stringify(web.body)).toBe(200);
      expect(web.body.toggles.map((t: { name: string }) => t.name).sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5']);
      seen.frontend.add(web.node!);
      const ofrep = await site.call(lb, 'POST', '/ofrep/v1/evaluate/flags/f3', { context: { targetingKey: 'u1' } }, { token: E2E_CLIENT_TOKEN });
      expect(ofrep.status, JSON.stringify(ofrep.body)).toBe(200);
      expect(ofrep.body).toMatchObject({ key: 'f3', value: true });
      seen.ofrep.add(ofrep.node!);
    }
    expect(Object.fromEntries(Object.entries(seen).map(([api, nodes]) => [api, [...nodes].sort()])))
      .toEqual({ admin: NODES, client: NODES, frontend: NODES, ofrep: NODES });
  });
});
