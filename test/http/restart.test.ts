/**
 * Durability through HTTP: a mix of every kind of write, then a restart (clean: close writes snapshots;
 * with SNAPSHOT_EVERY=5; and a crash copy of the data directory, so recovery must replay the log over an
 * older snapshot). Every GET afterwards answers exactly what it answered before.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { keys } from '../../snapshots/keys.js';
import { test } from '../helpers/fixtures.js';
import { flagPath } from '../helpers/flags.js';
import { defaultStore, type Harness } from '../helpers/harness.js';
import { storeOf } from '../helpers/store-of.js';

const P = '/api/admin/projects/default';

/** Sends a request and asserts its status, so a broken step fails here and not in the comparison. */
async function ok(h: Harness, method: string, path: string, body: unknown, status: number) {
  const r = await h.json(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
}

/** Every kind of write this service takes: create, update, patch, strategies, toggles, variants, archive, revive, delete, default strategy, clone. */
async function writeMix(h: Harness): Promise<void> {
  await ok(h, 'POST', '/api/admin/projects', { id: 'web', name: 'Web' }, 201);
  for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) await ok(h, 'POST', `${P}/features`, { name, type: name === 'beta' ? 'experiment' : 'release' }, 201);
  await ok(h, 'POST', '/api/admin/projects/web/features', { name: 'alpha', description: 'web alpha' }, 201);
  const s1 = await ok(h, 'POST', `${flagPath('alpha')}/environments/development/strategies`, { name: 'flexibleRollout', parameters: { rollout: 40 } }, 200);
  const s2 = await ok(h, 'POST', `${flagPath('alpha')}/environments/development/strategies`, { name: 'userWithId', parameters: { userIds: '1,2' }, constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] }, 200);
  await ok(h, 'POST', `${flagPath('alpha')}/environments/production/strategies`, { name: 'default' }, 200);
  await ok(h, 'POST', `${flagPath('alpha')}/environments/development/on`, undefined, 200);
  await ok(h, 'POST', `${flagPath('alpha')}/environments/production/on`, undefined, 200);
  await ok(h, 'PUT', `${flagPath('alpha')}/environments/development/strategies/${s2.id}`, { name: 'userWithId', parameters: { userIds: '3' } }, 200);
  await ok(h, 'PATCH', `${flagPath('alpha')}/environments/development/strategies/${s1.id}`, [{ op: 'replace', path: '/parameters/rollout', value: 60 }], 200);
  await ok(h, 'PUT', `${flagPath('alpha')}/variants`, [{ name: 'on', weightType: 'variable', weight: 1, payload: { type: 'string', value: 'x' } }, { name: 'off', weightType: 'fix', weight: 100 }], 200);
  await ok(h, 'PATCH', `${flagPath('alpha')}/variants`, [{ op: 'add', path: '/-', value: { name: 'maybe', weightType: 'variable', weight: 1 } }], 200);
  await ok(h, 'PUT', flagPath('beta'), { name: 'beta', description: 'stale one', type: 'experiment', stale: true }, 200);
  await ok(h, 'PATCH', flagPath('gamma'), [{ op: 'replace', path: '/description', value: 'patched' }, { op: 'replace', path: '/impressionData', value: true }], 200);
  await ok(h, 'POST', `${flagPath('alpha')}/clone`, { name: 'alpha-copy' }, 201);
  const g = await ok(h, 'POST', `${flagPath('gamma')}/environments/production/strategies`, { name: 'default' }, 200);
  await ok(h, 'POST', `${flagPath('gamma')}/environments/production/on`, undefined, 200);
  await ok(h, 'DELETE', `${flagPath('gamma')}/environments/production/strategies/${g.id}`, undefined, 200);
  await ok(h, 'POST', `${P}/environments/*/default-strategy`, { name: 'flexibleRollout', parameters: { rollout: 10, groupId: 'x' } }, 200);
  await ok(h, 'POST', `${flagPath('delta')}/environments/development/on`, undefined, 200);
  await ok(h, 'POST', `${flagPath('alpha')}/environments/production/off`, undefined, 200);
  await ok(h, 'DELETE', flagPath('delta'), undefined, 202);
  await ok(h, 'DELETE', flagPath('epsilon'), undefined, 202);
  await ok(h, 'DELETE', flagPath('beta'), undefined, 202);
  await ok(h, 'POST', `${P}/revive`, { features: ['delta'] }, 200);
  await ok(h, 'POST', `${P}/delete`, { features: ['epsilon', 'alpha'] }, 200);
  await ok(h, 'POST', `${P}/features`, { name: 'zeta', type: 'operational' }, 201);
}

/** Everything a client can read: projects, overviews, lists, and every flag (archived too) with its variants and strategies. */
async function readAll(h: Harness): Promise<unknown> {
  const out: Record<string, unknown> = {
    projects: (await h.json('GET', '/api/admin/projects')).body,
    environments: (await h.json('GET', '/api/admin/environments')).body,
  };
  for (const id of ['default', 'web']) {
    out[`${id} overview`] = (await h.json('GET', `/api/admin/projects/${id}`)).body;
    out[`${id} list`] = (await h.json('GET', `/api/admin/projects/${id}/features`)).body;
    for (const name of h.registry.project(id)!.state.flags.keys()) {
      const detail = await h.json('GET', flagPath(name, id));
      out[`${id}/${name}`] = { etag: detail.headers.get('etag'), body: detail.body };
      out[`${id}/${name} variants`] = (await h.json('GET', `${flagPath(name, id)}/variants`)).body;
      for (const env of ['development', 'production']) {
        out[`${id}/${name}/${env}`] = (await h.json('GET', `${flagPath(name, id)}/environments/${env}/strategies`)).body;
      }
    }
  }
  return out;
}

/** The state after the mix, spelled out, so equal-before-and-after cannot hide a mix that did nothing. */
function expectMixApplied(state: any): void {
  expect(Object.keys(state).filter((k) => /^default\/[^/ ]+$/.test(k)).sort()).toEqual(['default/alpha', 'default/alpha-copy', 'default/beta', 'default/delta', 'default/gamma', 'default/zeta']);
  expect(state['default/alpha'].body.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([true, false]);
  expect(state['default/alpha'].body.variants.map((v: { weight: number }) => v.weight)).toEqual([450, 100, 450]);
  expect(state['default/beta'].body).toMatchObject({ archived: true, stale: true });
  expect(state['default/delta'].body.archived).toBe(false);
  expect(state['default/delta'].body.environments[0]).toMatchObject({ enabled: false, strategies: [{ name: 'flexibleRollout', parameters: { groupId: 'delta', rollout: '10' } }] });
  expect(state['default/gamma'].body.environments[1]).toMatchObject({ enabled: false, strategies: [] });
  expect(state['default/alpha-copy'].body.environments[0].strategies[0].parameters.groupId).toBe('alpha-copy');
  expect(state['default overview'].health).toBe(100);
  expect(state['web/alpha'].body.description).toBe('web alpha');
}

/** After recovery the service keeps working, and new versions are newer than every old one. */
async function expectWritable(h: Harness, before: any): Promise<void> {
  const r = await h.json('PUT', flagPath('zeta'), { name: 'zeta', description: 'after restart', type: 'operational' });
  expect(r.status).toBe(200);
  const version = (key: string) => Number(JSON.parse(before[key].etag));
  expect(Number(JSON.parse(r.headers.get('etag')!))).toBeGreaterThan(Math.max(...['default/alpha', 'default/zeta', 'default/delta'].map(version)));
  // epsilon was deleted for good; alpha (active) and beta (archived) still hold their names.
  expect((await h.json('POST', `${P}/features`, { name: 'epsilon' })).status).toBe(201);
  expect((await h.json('POST', `${P}/features`, { name: 'alpha' })).status).toBe(409);
  expect((await h.json('POST', `${P}/features`, { name: 'beta' })).status).toBe(409);
}

test('a clean restart reads back every flag, list and overview unchanged', async ({ openHarness }) => {
  const h = await openHarness();
  await writeMix(h);
  const before = await readAll(h);
  expectMixApplied(before);
  await h.restart();
  expect(await readAll(h)).toEqual(before);
  await expectWritable(h, before);
});

test('with SNAPSHOT_EVERY=5 (snapshots during the writes), twice in a row', async ({ openHarness }) => {
  const h = await openHarness({ SNAPSHOT_EVERY: '5' });
  await writeMix(h);
  const before = await readAll(h);
  expectMixApplied(before);
  await h.restart();
  expect(await readAll(h)).toEqual(before);
  await h.restart();
  expect(await readAll(h)).toEqual(before);
  await expectWritable(h, before);
});

// A copy of LevelDB's files; on PostgreSQL a crash is a killed process (test/crash/).
test.runIf(defaultStore() === 'leveldb')('a crash copy of the data directory recovers by replaying the log over the last snapshot', async ({ openHarness }) => {
  const h = await openHarness({ SNAPSHOT_EVERY: '5' });
  await writeMix(h);
  // A snapshot now (SNAPSHOT_EVERY=5 keeps the next one at least five commands away), then a write that is
  // only in the log: the copy is what a crash right after it would leave behind.
  const actor = h.registry.project('default')!;
  await actor.snapshot(); // a snapshot already in flight may predate the last writes:
  await actor.snapshot(); // the second call covers them
  await ok(h, 'PUT', flagPath('gamma'), { name: 'gamma', description: 'only in the log' }, 200);
  const before = await readAll(h);
  const copyDir = mkdtempSync(join(tmpdir(), 'flagpole-crash-'));
  cpSync(h.dataDir, copyDir, { recursive: true });

  const crashed = await openHarness({ SNAPSHOT_EVERY: '5' }, copyDir);
  const snapshotSeqs: number[] = [];
  for await (const [key] of storeOf(crashed.registry).entries(keys.snapshotPrefix({ project: 'default' }))) {
    if (key.endsWith('/head')) snapshotSeqs.push(Number(key.split('/').at(-2)));
  }
  expect(snapshotSeqs.length).toBeGreaterThan(0);
  expect(Math.max(...snapshotSeqs)).toBeLessThan(actor.seq);
  expect(crashed.registry.project('default')!.seq).toBe(actor.seq);
  expect(await readAll(crashed)).toEqual(before);
  await expectWritable(crashed, before);
});
