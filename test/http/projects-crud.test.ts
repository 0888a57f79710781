/**
 * Projects as Unleash 6.10 manages them: create with `environments`, `mode` and `defaultStickiness`, update
 * (`PUT /api/admin/projects/:projectId`), delete (`DELETE`), and a project's environments added and removed
 * with their flag entries; every refusal changes nothing; restarts and dumps keep what was answered.
 */
import { describe, expect } from 'vitest';
import { diskError, type WriteGate } from '../../snapshots/disk-faults.js';
import { expectError, expectNoChange, positions } from '../helpers/expect.js';
import { test } from '../helpers/fixtures.js';
import { createFlag, flagPath } from '../helpers/flags.js';
import { harness, type Harness } from '../helpers/harness.js';

/** A write gate that, once armed, lets `pass` more writes through and fails every one after them. */
class FailAfter implements WriteGate {
  private left = Infinity;
  arm(pass: number): void {
    this.left = pass;
  }
  heal(): void {
    this.left = Infinity;
  }
  beforeWrite(): Promise<void> | undefined {
    if (this.left === Infinity) return undefined;
    if (this.left > 0) {
      this.left -= 1;
      return undefined;
    }
    return Promise.reject(diskError('EIO'));
  }
}

const PROJECTS = '/api/admin/projects';
const project = (id: string) => `${PROJECTS}/${id}`;

const projectIds = async (h: Harness): Promise<string[]> =>
  ((await h.json('GET', PROJECTS)).body.projects as { id: string }[]).map((p) => p.id);

/** A user token acting as a new root Viewer or Editor (rootRole 3 or 2). */
async function userToken(h: Harness, rootRole: number, name: string): Promise<string> {
  const user = await h.json('POST', '/api/admin/user-admin', { email: `${name}@example.com`, name, rootRole });
  const token = await h.json('POST', `/api/admin/user-admin/${user.body.id}/tokens`, { description: name, expiresAt: '2999-01-01T00:00:00Z' });
  return token.body.secret as string;
}

describe('POST /api/admin/projects with Unleash 6.10 fields', () => {
  test('environments, mode and defaultStickiness are stored, answered, listed and shown in the overview', async ({ h }) => {
    await h.json('POST', '/api/admin/environments', { name: 'staging' });
    const r = await h.json('POST', PROJECTS, { id: 'web', name: 'Web', environments: ['staging', 'production'], mode: 'protected', defaultStickiness: 'userId' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: 'web', name: 'Web', description: '', createdAt: expect.any(String), updatedAt: null,
      environments: ['staging', 'production'], mode: 'protected', defaultStickiness: 'userId',
    });
    const listed = (await h.json('GET', PROJECTS)).body.projects.find((p: { id: string }) => p.id === 'web');
    expect(listed).toMatchObject({ mode: 'protected', defaultStickiness: 'userId' });
    const overview = (await h.json('GET', project('web'))).body;
    expect(overview).toMatchObject({ name: 'Web', mode: 'protected', defaultStickiness: 'userId', updatedAt: null });
    // Listed in the service's order (production 2, staging 3), whatever the order asked for.
    expect(overview.environments.map((e: { environment: string }) => e.environment)).toEqual(['production', 'staging']);
    await createFlag(h, 'f', {}, 'web');
    expect((await h.json('GET', flagPath('f', 'web'))).body.environments.map((e: { name: string }) => e.name)).toEqual(['production', 'staging']);
  });

  test('without environments: every enabled one, a disabled one left out', async ({ h }) => {
    await h.json('POST', '/api/admin/environments', { name: 'staging' });
    expect((await h.req('POST', '/api/admin/environments/staging/off')).status).toBe(204);
    const r = await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
    expect(r.body.environments).toEqual(['development', 'production']);
  });

  test.for([
    ['an unknown environment', { id: 'x', name: 'X', environments: ['nowhere'] }, /nowhere/],
    ['a disabled environment', { id: 'x', name: 'X', environments: ['sleepy'] }, /sleepy/],
    ['no environment', { id: 'x', name: 'X', environments: [] }, /environments/],
    ['an environment twice', { id: 'x', name: 'X', environments: ['production', 'production'] }, /once/],
    ['environments not a list', { id: 'x', name: 'X', environments: 'production' }, /environments/],
    ['a bad environment name', { id: 'x', name: 'X', environments: ['a b'] }, /environments/],
    ['an unknown mode', { id: 'x', name: 'X', mode: 'secret' }, /mode/],
    ['a mode of the wrong type', { id: 'x', name: 'X', mode: 1 }, /mode/],
    ['an empty defaultStickiness', { id: 'x', name: 'X', defaultStickiness: '' }, /defaultStickiness/],
    ['a defaultStickiness of 101 characters', { id: 'x', name: 'X', defaultStickiness: 's'.repeat(101) }, /defaultStickiness/],
    ['1001 environments', { id: 'x', name: 'X', environments: Array.from({ length: 1001 }, (_, i) => `e${i}`) }, /environments/],
  ] as const)('%s: 400, nothing changes', async ([_label, body, message], { h }) => {
    await h.json('POST', '/api/admin/environments', { name: 'sleepy', enabled: false });
    await expectNoChange(h, async () => expectError(await h.json('POST', PROJECTS, body), 400, 'ValidationError', message));
    expect(await projectIds(h)).toEqual(['default']);
  });
});

describe('PUT /api/admin/projects/:projectId', () => {
  test('changes name, description, mode and defaultStickiness; absent fields are kept; restart keeps it', async ({ h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web', description: 'the site', defaultStickiness: 'sessionId' });
    const r = await h.json('PUT', project('web'), { name: 'Website', mode: 'private' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'web', name: 'Website', description: 'the site', mode: 'private', defaultStickiness: 'sessionId', updatedAt: expect.any(String) });
    const again = await h.json('PUT', project('web'), { id: 'web', name: 'Website', description: null, defaultStickiness: 'userId' });
    expect(again.body).toMatchObject({ name: 'Website', description: '', mode: 'private', defaultStickiness: 'userId' });
    await h.restart();
    expect((await h.json('GET', project('web'))).body).toMatchObject({ name: 'Website', description: '', mode: 'private', defaultStickiness: 'userId' });
    const dumped = (await h.json('GET', '/api/admin/state')).body.projects.find((p: { id: string }) => p.id === 'web');
    expect(dumped.meta).toMatchObject({ name: 'Website', mode: 'private', defaultStickiness: 'userId', updatedAt: expect.any(String) });
  });

  test('the same settings again change nothing (nothing is written)', async ({ h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
    await expectNoChange(h, async () => expect((await h.json('PUT', project('web'), { name: 'Web', mode: 'open', defaultStickiness: 'default' })).status).toBe(200));
  });

  test('the seed project default can be renamed; its flags stay', async ({ h }) => {
    await createFlag(h, 'f');
    expect((await h.json('PUT', project('default'), { name: 'Main' })).body).toMatchObject({ id: 'default', name: 'Main', description: 'Default project' });
    expect((await h.json('GET', flagPath('f'))).status).toBe(200);
  });

  test.for([
    ['no name', { description: 'x' }, 400, 'ValidationError'],
    ['an empty name', { name: '' }, 400, 'ValidationError'],
    ['another id', { id: 'other', name: 'X' }, 400, 'ValidationError'],
    ['an unknown mode', { name: 'X', mode: 'closed' }, 400, 'ValidationError'],
    ['an unknown field', { name: 'X', environments: ['production'] }, 400, 'ValidationError'],
    ['an array', [{ name: 'X' }], 400, 'ValidationError'],
    ['a description of 10001 characters', { name: 'X', description: 'd'.repeat(10_001) }, 400, 'ValidationError'],
  ] as const)('%s: refused, nothing changes', async ([_label, body, status, name], { h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
    await expectNoChange(h, async () => expectError(await h.json('PUT', project('web'), body), status, name));
    expect((await h.json('GET', project('web'))).body.name).toBe('Web');
  });

  test('an unknown project: 404; a bad id: 400; not JSON: 415; no token: 401; a Viewer: 403', async ({ h }) => {
    expectError(await h.json('PUT', project('nope'), { name: 'X' }), 404, 'NotFoundError');
    expectError(await h.json('PUT', project('a..b c'), { name: 'X' }), 400, 'ValidationError');
    expectError(await h.json('PUT', project('default'), 'name=X', { headers: { 'content-type': 'text/plain' } }), 415, 'ContentTypeError');
    expectError(await h.json('PUT', project('default'), { name: 'X' }, { token: null }), 401, 'AuthenticationRequired');
    const viewer = await userToken(h, 3, 'viewer');
    await expectNoChange(h, async () => expectError(await h.json('PUT', project('default'), { name: 'X' }, { token: viewer }), 403, 'NoAccessError'));
  });
});

describe('DELETE /api/admin/projects/:projectId', () => {
  test('a project without active flags: 200; its archived flags go; it is gone after a restart and from the dump', async ({ h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
    await createFlag(h, 'old', {}, 'web');
    expect((await h.req('DELETE', flagPath('old', 'web'))).status).toBe(202);
    expect((await h.req('DELETE', project('web'))).status).toBe(200);
    expect(await projectIds(h)).toEqual(['default']);
    expectError(await h.json('GET', project('web')), 404, 'NotFoundError');
    expectError(await h.json('GET', flagPath('old', 'web')), 404, 'NotFoundError');
    const dump = await h.json('GET', '/api/admin/state');
    expect(dump.body.projects.map((p: { id: string }) => p.id)).toEqual(['default']);
    await h.restart();
    expect(await projectIds(h)).toEqual(['default']);
    // Its keys are gone: a new project of that id starts empty, and survives a restart as itself.
    expect((await h.json('POST', PROJECTS, { id: 'web', name: 'Web again' })).status).toBe(201);
    expect((await h.json('GET', `${project('web')}/features`)).body.features).toEqual([]);
    await h.restart();
    expect((await h.json('GET', project('web'))).body).toMatchObject({ name: 'Web again', features: [] });
    expectError(await h.json('GET', flagPath('old', 'web')), 404, 'NotFoundError');
  });

  test('with active flags: 409 naming them, nothing changes', async ({ h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
    await createFlag(h, 'live', {}, 'web');
    await expectNoChange(h, async () => expectError(await h.json('DELETE', project('web')), 409, 'InvalidOperationError', /active feature flags/));
    expect(await projectIds(h)).toEqual(['default', 'web']);
  });

  test('the default project: 409, even when empty', async ({ h }) => {
    await expectNoChange(h, async () => expectError(await h.json('DELETE', project('default')), 409, 'InvalidOperationError', /default project/));
  });

  test('unknown: 404; bad id: 400; no token: 401; an Editor who is not its Owner: 403', async ({ h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
    expectError(await h.json('DELETE', project('nope')), 404, 'NotFoundError');
    expectError(await h.json('DELETE', project('a%20b')), 400, 'ValidationError');
    expectError(await h.json('DELETE', project('web'), undefined, { token: null }), 401, 'AuthenticationRequired');
    const editor = await userToken(h, 2, 'editor');
    await expectNoChange(h, async () => expectError(await h.json('DELETE', project('web'), undefined, { token: editor }), 403, 'NoAccessError'));
  });

  test('tokens scoped to it alone are revoked; tokens of several projects lose it; its segments go', async ({ h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
    await h.json('POST', PROJECTS, { id: 'app', name: 'App' });
    const only = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'only-web', type: 'client', projects: ['web'], environment: 'production' });
    const both = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'web-and-app', type: 'client', projects: ['web', 'app'], environment: 'production' });
    const all = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'all', type: 'client', projects: ['*'], environment: 'production' });
    const segment = await h.json('POST', '/api/admin/segments', { name: 'web-users', project: 'web', constraints: [] });
    expect([only.status, both.status, all.status, segment.status]).toEqual([201, 201, 201, 201]);
    expect((await h.req('GET', '/api/client/features', undefined, { token: only.body.secret })).status).toBe(200);

    expect((await h.req('DELETE', project('web'))).status).toBe(200);
    const tokens = (await h.json('GET', '/api/admin/api-tokens')).body.tokens as { tokenName: string; projects: string[] }[];
    expect(tokens.filter((t) => t.tokenName !== 'harness').map((t) => [t.tokenName, t.projects]).filter(([n]) => n !== 'admin'))
      .toEqual(expect.arrayContaining([['web-and-app', ['app']], ['all', ['*']]]));
    expect(tokens.some((t) => t.tokenName === 'only-web')).toBe(false);
    expectError(await h.json('GET', '/api/client/features', undefined, { token: only.body.secret }), 401, 'AuthenticationRequired');
    expect((await h.req('GET', '/api/client/features', undefined, { token: both.body.secret })).status).toBe(200);
    expectError(await h.json('GET', `/api/admin/segments/${segment.body.id}`), 404, 'NotFoundError');
    // A token can no longer name it.
    expectError(await h.json('POST', '/api/admin/api-tokens', { tokenName: 't', type: 'client', projects: ['web'], environment: 'production' }), 404, 'NotFoundError');
    await h.restart();
    const after = (await h.json('GET', '/api/admin/api-tokens')).body.tokens as { tokenName: string; projects: string[] }[];
    expect(after.find((t) => t.tokenName === 'web-and-app')?.projects).toEqual(['app']);
    expect(after.some((t) => t.tokenName === 'only-web')).toBe(false);
  });

  test('a stop after the deletion is on disk but before its clean-up: answered 200, the id stays reserved, the next start finishes it', async () => {
    const gate = new FailAfter();
    const h = await harness({}, undefined, { writeGate: gate });
    try {
      await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
      const token = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'only-web', type: 'client', projects: ['web'], environment: 'production' });
      expect(token.status).toBe(201);
      gate.arm(1);
      // The deletion record is written; forgetting the tokens and removing the keys fail.
      expect((await h.req('DELETE', project('web'))).status).toBe(200);
      expect(await projectIds(h)).toEqual(['default']);
      gate.heal();
      expectError(await h.json('POST', PROJECTS, { id: 'web', name: 'Too soon' }), 409, 'NameExistsError');
      await h.restart();
      expect(await projectIds(h)).toEqual(['default']);
      const tokens = (await h.json('GET', '/api/admin/api-tokens')).body.tokens as { tokenName: string }[];
      expect(tokens.some((t) => t.tokenName === 'only-web')).toBe(false);
      expect((await h.json('POST', PROJECTS, { id: 'web', name: 'Web again' })).status).toBe(201);
      expect((await h.json('GET', project('web'))).body).toMatchObject({ name: 'Web again', features: [] });
      await h.restart();
      expect((await h.json('GET', project('web'))).body).toMatchObject({ name: 'Web again', features: [] });
    } finally {
      await h.close();
    }
  });

  test('a flag created while the delete is decided: either the flag is refused or the delete is, never both accepted', async ({ h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web' });
    const [created, deleted] = await Promise.all([
      h.json('POST', `${project('web')}/features`, { name: 'racer' }),
      h.json('DELETE', project('web')),
    ]);
    // The flag first: the delete sees an active flag. The delete first: the flag's command finds no project.
    expect([created.status, deleted.status]).toEqual(created.status === 201 ? [201, 409] : [404, 200]);
    if (deleted.status === 200) expect(await projectIds(h)).toEqual(['default']);
    else expect((await h.json('GET', flagPath('racer', 'web'))).status).toBe(200);
  });
});

describe('projects and environments changed at once', () => {
  test('deletes, connections and creations in parallel: no project ever names an environment that is gone', async ({ h }) => {
    for (const name of ['e1', 'e2', 'e3']) await h.json('POST', '/api/admin/environments', { name });
    await h.json('POST', PROJECTS, { id: 'a', name: 'A', environments: ['production', 'e1'] });
    const answers = await Promise.all([
      h.json('DELETE', '/api/admin/environments/e1'),
      h.json('POST', PROJECTS, { id: 'b', name: 'B', environments: ['e1', 'e2'] }),
      h.json('POST', `${project('a')}/environments`, { environment: 'e2' }),
      h.json('DELETE', '/api/admin/environments/e2'),
      h.json('POST', `${project('default')}/environments`, { environment: 'e3' }),
      h.json('DELETE', '/api/admin/environments/e3'),
      h.json('POST', `${project('a')}/features`, { name: 'fa' }),
    ]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
    const check = async () => {
      const existing = new Set(((await h.json('GET', '/api/admin/environments')).body.environments as { name: string }[]).map((e) => e.name));
      for (const id of await projectIds(h)) {
        const overview = (await h.json('GET', project(id))).body;
        for (const e of overview.environments as { environment: string }[]) expect(existing.has(e.environment), `${id} names ${e.environment}`).toBe(true);
        for (const flag of overview.features as { name: string; environments: { name: string }[] }[]) {
          for (const e of flag.environments) expect(existing.has(e.name), `${id}/${flag.name} names ${e.name}`).toBe(true);
        }
      }
    };
    await check();
    await h.restart();
    await check();
  });
});

describe('a project\'s environments added and removed', () => {
  test('added: every flag, archived ones too, gets a disabled entry without strategies', async ({ h }) => {
    await h.json('POST', '/api/admin/environments', { name: 'staging' });
    await createFlag(h, 'live');
    await createFlag(h, 'gone');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    expect((await h.req('POST', '/api/admin/projects/default/environments', { environment: 'staging' })).status).toBe(200);
    for (const name of ['live', 'gone']) {
      const detail = (await h.json('GET', flagPath(name))).body;
      expect(detail.environments.find((e: { name: string }) => e.name === 'staging')).toMatchObject({ enabled: false, strategies: [] });
    }
  });

  test('added twice: 409 NameExistsError; a disabled environment: 409; nothing changes', async ({ h }) => {
    await h.json('POST', '/api/admin/environments', { name: 'sleepy', enabled: false });
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', '/api/admin/projects/default/environments', { environment: 'production' }), 409, 'NameExistsError');
      expectError(await h.json('POST', '/api/admin/projects/default/environments', { environment: 'sleepy' }), 409, 'InvalidOperationError', /disabled/);
      expectError(await h.json('POST', '/api/admin/projects/default/environments', { environment: 'a b' }), 400, 'ValidationError');
      expectError(await h.json('POST', '/api/admin/projects/default/environments', {}), 400, 'ValidationError');
      expectError(await h.json('POST', '/api/admin/projects/nope/environments', { environment: 'production' }), 404, 'NotFoundError');
    });
  });

  test('removed: the entries and their strategies go (archived flags too); added again they come back empty; restart agrees', async ({ h }) => {
    await createFlag(h, 'f');
    await createFlag(h, 'old');
    const strategy = await h.json('POST', `${flagPath('f')}/environments/production/strategies`, { name: 'default' });
    expect((await h.req('POST', `${flagPath('f')}/environments/production/on`)).status).toBe(200);
    await h.json('POST', `${flagPath('old')}/environments/production/strategies`, { name: 'default' });
    await h.req('DELETE', flagPath('old'));
    const etag = (await h.req('GET', flagPath('f'))).headers.get('etag');

    expect((await h.req('DELETE', '/api/admin/projects/default/environments/production')).status).toBe(200);
    // The flag changed, so its version did.
    expect((await h.req('GET', flagPath('f'))).headers.get('etag')).not.toBe(etag);
    expectError(await h.json('GET', `${flagPath('f')}/environments/production/strategies/${strategy.body.id}`), 404, 'NotFoundError');

    expect((await h.req('POST', '/api/admin/projects/default/environments', { environment: 'production' })).status).toBe(200);
    for (const name of ['f', 'old']) {
      const production = (await h.json('GET', flagPath(name))).body.environments.find((e: { name: string }) => e.name === 'production');
      expect(production).toMatchObject({ enabled: false, strategies: [] });
    }
    await h.restart();
    const production = (await h.json('GET', flagPath('f'))).body.environments.find((e: { name: string }) => e.name === 'production');
    expect(production).toMatchObject({ enabled: false, strategies: [] });
    const dumped = (await h.json('GET', '/api/admin/state')).body.projects[0].flags.find((f: { name: string }) => f.name === 'f');
    expect(Object.hasOwn(dumped.environments, 'production')).toBe(false);
  });

  test('removed: the client API stops serving the strategies of that environment', async ({ h }) => {
    await createFlag(h, 'f');
    await h.json('POST', `${flagPath('f')}/environments/production/strategies`, { name: 'default' });
    await h.req('POST', `${flagPath('f')}/environments/production/on`);
    const client = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['default'], environment: 'production' });
    const before = (await h.json('GET', '/api/client/features', undefined, { token: client.body.secret })).body.features;
    expect(before.find((f: { name: string }) => f.name === 'f')).toMatchObject({ enabled: true });
    await h.req('DELETE', '/api/admin/projects/default/environments/production');
    const after = (await h.json('GET', '/api/client/features', undefined, { token: client.body.secret })).body.features;
    expect(after.find((f: { name: string }) => f.name === 'f')?.enabled ?? false).toBe(false);
  });

  test('the last environment cannot go (409); unknown: 404; nothing changes', async ({ h }) => {
    await h.json('POST', PROJECTS, { id: 'web', name: 'Web', environments: ['production'] });
    const before = positions(h);
    expectError(await h.json('DELETE', `${project('web')}/environments/production`), 409, 'InvalidOperationError', /last environment/);
    expectError(await h.json('DELETE', `${project('web')}/environments/development`), 404, 'NotFoundError');
    expect(positions(h)).toBe(before);
  });
});
