/**
 * Environments whose changes go through change requests refuse direct writes, as Unleash Enterprise does: a 403
 * `PermissionError` naming `SKIP_CHANGE_REQUEST`, for on/off, strategies, their order and copies, bulk on/off
 * and imports there; and, when any environment of the project is protected, for variants (one list for every
 * environment in flagpole), archive, dependencies and the project's segments. Admins skip; nobody else does.
 */
import { describe, expect } from 'vitest';
import { test } from '../../helpers/fixtures.js';
import { expectError, positions } from '../../helpers/expect.js';
import type { Harness } from '../../helpers/harness.js';
import { P, people, protect } from './cr-fixtures.js';

const SKIP = 'You don\'t have the required permissions to perform this operation. To perform this action, you need the "SKIP_CHANGE_REQUEST" permission.';

/** A flag `f` with a strategy in both environments, a parent flag `p`, variants; a project segment. */
async function world(h: Harness) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await h.json(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  for (const name of ['f', 'p', 'child', 'doomed']) await ok('POST', `${P}/features`, { name });
  const prod = await ok('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' });
  const dev = await ok('POST', `${P}/features/f/environments/development/strategies`, { name: 'default' });
  await ok('POST', `${P}/features/child/dependencies`, { feature: 'p' });
  const segment = await ok('POST', '/api/admin/segments', { name: 'beta', project: 'default', constraints: [] });
  const spare = await ok('POST', '/api/admin/segments', { name: 'spare', project: 'default', constraints: [] });
  return { prod: prod.id as string, dev: dev.id as string, segment: segment.id as number, spare: spare.id as number };
}

/** Every direct write the protection covers, as `[label, method, path, body]`. */
function writes(w: Awaited<ReturnType<typeof world>>, environment: string) {
  const env = `${P}/features/f/environments/${environment}`;
  const strategy = environment === 'production' ? w.prod : w.dev;
  return [
    ['on', 'POST', `${env}/on`],
    ['off', 'POST', `${env}/off`],
    ['add strategy', 'POST', `${env}/strategies`, { name: 'default' }],
    ['put strategy', 'PUT', `${env}/strategies/${strategy}`, { name: 'flexibleRollout', parameters: { rollout: 30 } }],
    ['patch strategy', 'PATCH', `${env}/strategies/${strategy}`, [{ op: 'replace', path: '/title', value: 'x' }]],
    ['sort strategies', 'POST', `${env}/strategies/set-sort-order`, [{ id: strategy, sortOrder: 5 }]],
    ['copy strategies', 'POST', `${env}/strategies/copy`, { fromEnvironment: environment === 'production' ? 'development' : 'production' }],
    ['delete strategy', 'DELETE', `${env}/strategies/${strategy}`],
    ['bulk on', 'POST', `${P}/bulk_features/environments/${environment}/on`, { features: ['f'] }],
    ['bulk off', 'POST', `${P}/bulk_features/environments/${environment}/off`, { features: ['f'] }],
  ] as const;
}

function projectWrites(w: Awaited<ReturnType<typeof world>>) {
  return [
    ['put variants', 'PUT', `${P}/features/f/variants`, [{ name: 'a', weightType: 'variable', weight: 1000 }]],
    ['patch variants', 'PATCH', `${P}/features/f/variants`, [{ op: 'add', path: '/0', value: { name: 'b', weightType: 'variable', weight: 0 } }]],
    ['archive', 'DELETE', `${P}/features/doomed`],
    ['bulk archive', 'POST', `${P}/archive`, { features: ['doomed'] }],
    ['add dependency', 'POST', `${P}/features/f/dependencies`, { feature: 'p' }],
    ['delete dependency', 'DELETE', `${P}/features/child/dependencies/p`],
    ['delete dependencies', 'DELETE', `${P}/features/child/dependencies`],
    ['update project segment', 'PUT', `/api/admin/segments/${w.segment}`, { name: 'beta', project: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] }],
    ['delete project segment', 'DELETE', `/api/admin/segments/${w.spare}`],
  ] as const;
}

describe('protected environments', () => {
  test('refuse every direct write there with Unleash\'s PermissionError, and write nothing', async ({ h }) => {
    const w = await world(h);
    const { owner, member, editor } = await people(h);
    await protect(h, 'production');
    for (const caller of [owner, member, editor]) {
      // A project's segments are its Owners' to write (UPDATE_PROJECT): the others are refused before any protection.
      const mine = projectWrites(w).filter(([label]) => caller === owner || !label.includes('segment'));
      for (const [label, method, path, body] of [...writes(w, 'production'), ...mine]) {
        const before = positions(h);
        const res = await h.json(method, path, body, { token: caller.token });
        expect({ label, status: res.status, body: res.body }).toEqual({
          label, status: 403,
          body: { id: expect.any(String), name: 'PermissionError', message: SKIP, details: [{ message: SKIP }, { message: expect.stringContaining('"production" of project "default"') }], permissions: ['SKIP_CHANGE_REQUEST'] },
        });
        expect(positions(h), label).toBe(before);
      }
    }
  });

  test('an import into a protected environment is refused, its dry run too', async ({ h }) => {
    await world(h);
    await protect(h, 'production');
    const { member } = await people(h);
    const exported = await h.json('POST', '/api/admin/features-batch/export', { features: ['f'], environment: 'production' });
    expect(exported.status).toBe(200);
    // A Member holds UPDATE_DEFINITIONS nowhere: the import route is an Editor's; the dry run any reader's.
    const validate = await h.json('POST', '/api/admin/features-batch/validate', { project: 'default', environment: 'production', data: exported.body }, { token: member.token });
    expectError(validate, 403, 'PermissionError');
    const { editor } = await people2(h);
    const imported = await h.json('POST', '/api/admin/features-batch/import', { project: 'default', environment: 'production', data: exported.body }, { token: editor });
    expectError(imported, 403, 'PermissionError');
  });

  test('environments that are not protected take direct writes; archive and the rest wait only while one is', async ({ h }) => {
    const w = await world(h);
    const { owner: member } = await people(h);
    await protect(h, 'production');
    for (const [label, method, path, body] of writes(w, 'development')) {
      const res = await h.json(method, path, body, { token: member.token });
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
    // What the protection leaves alone: creating flags, their details, tags, the default strategy, reviving.
    expect((await h.json('POST', `${P}/features`, { name: 'new' }, { token: member.token })).status).toBe(201);
    expect((await h.json('PUT', `${P}/features/f`, { name: 'f', description: 'd' }, { token: member.token })).status).toBe(200);
    const off = await h.json('PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: false });
    expect(off.status).toBe(200);
    for (const [label, method, path, body] of [...writes(w, 'production'), ...projectWrites(w)]) {
      const res = await h.json(method, path, body, { token: member.token });
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
  });

  test('the admin token and root Admins skip change requests; project Owners do not', async ({ h }) => {
    const w = await world(h);
    const { admin, owner } = await people(h);
    await protect(h, 'production');
    for (const token of [undefined, admin.token]) {
      const res = await h.json('POST', `${P}/features/f/environments/production/on`, undefined, { token });
      expect(res.status).toBe(200);
      expect((await h.json('POST', `${P}/features/f/environments/production/off`, undefined, { token })).status).toBe(200);
    }
    expectError(await h.json('POST', `${P}/features/f/environments/production/on`, undefined, { token: owner.token }), 403, 'PermissionError');
    expect((await h.json('PUT', `/api/admin/segments/${w.segment}`, { name: 'beta2', project: 'default', constraints: [] }, { token: admin.token })).status).toBe(204);
  });
});

/** An Editor's token (root Editor holds UPDATE_DEFINITIONS, which imports need). */
async function people2(h: Harness): Promise<{ editor: string }> {
  const user = await h.json('POST', '/api/admin/user-admin', { username: 'importer', rootRole: 2 });
  const token = await h.json('POST', `/api/admin/user-admin/${user.body.id}/tokens`, { description: 'import' });
  return { editor: token.body.secret };
}
