/**
 * The service's environments as Unleash 6.10 manages them: read one, update (`PUT .../update/:name`),
 * enable/disable (`POST .../:name/on|off`), sort order (`PUT .../sort-order`), validate, delete (refused while
 * a flag of any project uses it); every refusal changes nothing; restarts and dumps keep what was answered.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../helpers/expect.js';
import { test } from '../helpers/fixtures.js';
import { createFlag, flagPath } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';

const ENVIRONMENTS = '/api/admin/environments';
const env = (name: string) => `${ENVIRONMENTS}/${name}`;

/** `[name, sortOrder]` of every environment, as listed. */
const listed = async (h: Harness): Promise<[string, number][]> =>
  ((await h.json('GET', ENVIRONMENTS)).body.environments as { name: string; sortOrder: number }[]).map((e) => [e.name, e.sortOrder]);

/** A personal token of a new root Editor (not an Admin). */
async function editorToken(h: Harness): Promise<string> {
  const user = await h.json('POST', '/api/admin/user-admin', { email: 'editor@example.com', name: 'editor', rootRole: 2 });
  const token = await h.json('POST', `/api/admin/user-admin/${user.body.id}/tokens`, { description: 'editor', expiresAt: '2999-01-01T00:00:00Z' });
  return token.body.secret as string;
}

/**
 * Answers of a real Unleash 6.10.1 (OSS), recorded: its fields are what scripts read. Its `default` environment
 * (disabled, protected) is Unleash's own; flagpole's new data directory has only development and production.
 */
const UNLEASH_ENVIRONMENT = { name: 'development', type: 'development', sortOrder: 2, enabled: true, protected: false, requiredApprovals: null };
const UNLEASH_LISTED = { ...UNLEASH_ENVIRONMENT, projectCount: 1, apiTokenCount: 0, enabledToggleCount: 0 };
const UNLEASH_PROJECT_ENVIRONMENT = { ...UNLEASH_ENVIRONMENT, projectApiTokenCount: 0, projectEnabledToggleCount: 0, visible: true };

const keysOf = (o: object) => Object.keys(o).sort();

describe('GET /api/admin/environments with Unleash 6.10\'s counts', () => {
  test('each environment has Unleash\'s fields; the counts follow projects, tokens and enabled flags (archived ones too)', async ({ h }) => {
    const fresh = (await h.json('GET', ENVIRONMENTS)).body.environments;
    expect(keysOf(fresh[0])).toEqual(keysOf(UNLEASH_LISTED));
    expect(fresh[0]).toEqual({ ...UNLEASH_LISTED, sortOrder: 1 });

    await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web', environments: ['production'] });
    await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['web'], environment: 'production' });
    for (const name of ['on', 'archived-on', 'off']) {
      await createFlag(h, name);
      if (name === 'off') continue;
      await h.json('POST', `${flagPath(name)}/environments/production/strategies`, { name: 'default' });
      await h.req('POST', `${flagPath(name)}/environments/production/on`);
    }
    await h.req('DELETE', flagPath('archived-on'));
    const listed = (await h.json('GET', ENVIRONMENTS)).body.environments;
    expect(listed.map((e: { name: string; projectCount: number; apiTokenCount: number; enabledToggleCount: number }) => [e.name, e.projectCount, e.apiTokenCount, e.enabledToggleCount]))
      .toEqual([['development', 1, 0, 0], ['production', 2, 1, 2]]);
  });

  test('GET /api/admin/environments/project/:projectId: every environment, visible when the project has it, with its counts and default strategy', async ({ h }) => {
    await h.json('POST', ENVIRONMENTS, { name: 'staging' });
    await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web', environments: ['production', 'staging'] });
    await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['web'], environment: 'production' });
    await h.json('POST', '/api/admin/api-tokens', { tokenName: 'all', type: 'client', projects: ['*'], environment: 'production' });
    await h.json('POST', '/api/admin/projects/web/environments/staging/default-strategy', { name: 'default' });
    await createFlag(h, 'f', {}, 'web');
    await h.json('POST', `${flagPath('f', 'web')}/environments/production/strategies`, { name: 'default' });
    await h.req('POST', `${flagPath('f', 'web')}/environments/production/on`);
    const r = await h.json('GET', `${ENVIRONMENTS}/project/web`);
    expect(r.status).toBe(200);
    expect(keysOf(r.body.environments[1])).toEqual(keysOf(UNLEASH_PROJECT_ENVIRONMENT));
    expect(r.body.environments.map((e: { name: string; visible: boolean; projectApiTokenCount: number; projectEnabledToggleCount: number }) =>
      [e.name, e.visible, e.projectApiTokenCount, e.projectEnabledToggleCount])).toEqual([['development', false, 0, 0], ['production', true, 1, 1], ['staging', true, 0, 0]]);
    expect(r.body.environments[2].defaultStrategy).toMatchObject({ name: 'default' });
    expectError(await h.json('GET', `${ENVIRONMENTS}/project/nope`), 404, 'NotFoundError');
    expectError(await h.json('GET', `${ENVIRONMENTS}/project/a%20b`), 400, 'ValidationError');
  });
});

describe('GET /api/admin/environments/:name', () => {
  test('answers the environment; unknown: 404 naming it; bad name: 400; no token: 401', async ({ h }) => {
    const r = await h.json('GET', env('development'));
    expect(r).toMatchObject({ status: 200, body: { ...UNLEASH_ENVIRONMENT, sortOrder: 1 } });
    expect(keysOf(r.body)).toEqual(keysOf(UNLEASH_ENVIRONMENT));
    expectError(await h.json('GET', env('nowhere')), 404, 'NotFoundError', /nowhere/);
    expectError(await h.json('GET', env('a%20b')), 400, 'ValidationError');
    expectError(await h.json('GET', env('production'), undefined, { token: null }), 401, 'AuthenticationRequired');
  });
});

describe('POST /api/admin/environments/validate', () => {
  test('a free name: 200; a taken one: 409; a bad one: 400', async ({ h }) => {
    await expectNoChange(h, async () => {
      expect((await h.req('POST', `${ENVIRONMENTS}/validate`, { name: 'staging' })).status).toBe(200);
      expectError(await h.json('POST', `${ENVIRONMENTS}/validate`, { name: 'production' }), 409, 'NameExistsError');
      expectError(await h.json('POST', `${ENVIRONMENTS}/validate`, { name: 'a b' }), 400, 'ValidationError');
      expectError(await h.json('POST', `${ENVIRONMENTS}/validate`, {}), 400, 'ValidationError');
    });
  });
});

describe('PUT /api/admin/environments/update/:name', () => {
  test('changes type and sortOrder (absent ones kept); the list follows the new order; restart keeps it', async ({ h }) => {
    const r = await h.json('PUT', `${ENVIRONMENTS}/update/development`, { sortOrder: 10 });
    expect(r).toMatchObject({ status: 200, body: { name: 'development', type: 'development', sortOrder: 10, enabled: true } });
    expect(await listed(h)).toEqual([['production', 2], ['development', 10]]);
    expect((await h.json('PUT', `${ENVIRONMENTS}/update/development`, { type: 'test' })).body).toMatchObject({ type: 'test', sortOrder: 10 });
    // Flags list their environments in the new order.
    await createFlag(h, 'f');
    expect((await h.json('GET', flagPath('f'))).body.environments.map((e: { name: string }) => e.name)).toEqual(['production', 'development']);
    await h.restart();
    expect((await h.json('GET', env('development'))).body).toMatchObject({ type: 'test', sortOrder: 10 });
    expect((await h.json('GET', '/api/admin/state')).body.service.state.environments.find((e: { name: string }) => e.name === 'development'))
      .toMatchObject({ type: 'test', sortOrder: 10 });
  });

  test.for([
    ['an unknown field', { name: 'other' }, 400, 'ValidationError'],
    ['a sortOrder that is not an integer', { sortOrder: 1.5 }, 400, 'ValidationError'],
    ['a sortOrder as a string', { sortOrder: '1' }, 400, 'ValidationError'],
    ['an empty type', { type: '' }, 400, 'ValidationError'],
    ['a type of 101 characters', { type: 't'.repeat(101) }, 400, 'ValidationError'],
    ['an array', [{ type: 'x' }], 400, 'ValidationError'],
  ] as const)('%s: refused, nothing changes', async ([_label, body, status, name], { h }) => {
    await expectNoChange(h, async () => expectError(await h.json('PUT', `${ENVIRONMENTS}/update/development`, body), status, name));
  });

  test('unknown: 404; an Editor: 403; no token: 401; nothing changes', async ({ h }) => {
    const editor = await editorToken(h);
    await expectNoChange(h, async () => {
      expectError(await h.json('PUT', `${ENVIRONMENTS}/update/nowhere`, { sortOrder: 1 }), 404, 'NotFoundError');
      expectError(await h.json('PUT', `${ENVIRONMENTS}/update/development`, { sortOrder: 1 }, { token: editor }), 403, 'NoAccessError');
      expectError(await h.json('PUT', `${ENVIRONMENTS}/update/development`, { sortOrder: 1 }, { token: null }), 401, 'AuthenticationRequired');
    });
  });
});

describe('POST /api/admin/environments/:name/on|off', () => {
  test('off: 204, not offered to new projects nor addable; projects that have it keep serving it; on: back', async ({ h }) => {
    await createFlag(h, 'f');
    await h.json('POST', `${flagPath('f')}/environments/production/strategies`, { name: 'default' });
    await h.req('POST', `${flagPath('f')}/environments/production/on`);
    const client = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['default'], environment: 'production' });

    expect((await h.req('POST', `${env('production')}/off`)).status).toBe(204);
    expect((await h.json('GET', env('production'))).body.enabled).toBe(false);
    // Again: still 204, nothing written.
    await expectNoChange(h, async () => expect((await h.req('POST', `${env('production')}/off`)).status).toBe(204));
    expect((await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web' })).body.environments).toEqual(['development']);
    expectError(await h.json('POST', '/api/admin/projects/web/environments', { environment: 'production' }), 409, 'InvalidOperationError', /disabled/);
    const served = (await h.json('GET', '/api/client/features', undefined, { token: client.body.secret })).body.features;
    expect(served.find((x: { name: string }) => x.name === 'f')).toMatchObject({ enabled: true });

    await h.restart();
    expect((await h.json('GET', env('production'))).body.enabled).toBe(false);
    expect((await h.req('POST', `${env('production')}/on`)).status).toBe(204);
    expect((await h.req('POST', '/api/admin/projects/web/environments', { environment: 'production' })).status).toBe(200);
  });

  test('unknown: 404; bad name: 400; an Editor: 403; nothing changes', async ({ h }) => {
    const editor = await editorToken(h);
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', `${env('nowhere')}/off`), 404, 'NotFoundError');
      expectError(await h.json('POST', `${env('a%20b')}/on`), 400, 'ValidationError');
      expectError(await h.json('POST', `${env('production')}/off`, undefined, { token: editor }), 403, 'NoAccessError');
    });
  });
});

describe('PUT /api/admin/environments/sort-order', () => {
  test('sets the named ones, others keep theirs: 200; restart keeps it', async ({ h }) => {
    await h.json('POST', ENVIRONMENTS, { name: 'staging' });
    expect((await h.req('PUT', `${ENVIRONMENTS}/sort-order`, { production: 0, staging: 1 })).status).toBe(200);
    expect(await listed(h)).toEqual([['production', 0], ['development', 1], ['staging', 1]]);
    await expectNoChange(h, async () => expect((await h.req('PUT', `${ENVIRONMENTS}/sort-order`, { production: 0 })).status).toBe(200));
    await expectNoChange(h, async () => expect((await h.req('PUT', `${ENVIRONMENTS}/sort-order`, {})).status).toBe(200));
    await h.restart();
    expect(await listed(h)).toEqual([['production', 0], ['development', 1], ['staging', 1]]);
  });

  test.for([
    ['an unknown environment among known ones (all or nothing)', { production: 5, nowhere: 1 }, 404, 'NotFoundError'],
    ['a string sort order', { production: 'x' }, 400, 'ValidationError'],
    ['a fraction', { production: 1.5 }, 400, 'ValidationError'],
    ['a bad name', { 'a b': 1 }, 400, 'ValidationError'],
    ['__proto__', JSON.parse('{"__proto__": 1}') as Record<string, number>, 400, 'ValidationError'],
    ['an array', [1, 2], 400, 'ValidationError'],
    ['1001 entries', Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`e${i}`, i])), 400, 'ValidationError'],
  ] as const)('%s: refused, nothing changes', async ([_label, body, status, name], { h }) => {
    await expectNoChange(h, async () => expectError(await h.json('PUT', `${ENVIRONMENTS}/sort-order`, body), status, name));
    expect(await listed(h)).toEqual([['development', 1], ['production', 2]]);
  });
});

describe('DELETE /api/admin/environments/:name', () => {
  test('unused: 200; projects without flags let it go; gone after a restart and from the dump', async ({ h }) => {
    await h.json('POST', ENVIRONMENTS, { name: 'staging' });
    await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web' });
    await h.req('POST', '/api/admin/projects/web/environments', { environment: 'staging' });
    expect((await h.req('DELETE', env('staging'))).status).toBe(200);
    expectError(await h.json('GET', env('staging')), 404, 'NotFoundError');
    expect((await h.json('GET', '/api/admin/projects/web')).body.environments.map((e: { environment: string }) => e.environment)).toEqual(['development', 'production']);
    await h.restart();
    expect(await listed(h)).toEqual([['development', 1], ['production', 2]]);
    const dump = (await h.json('GET', '/api/admin/state')).body;
    expect(dump.service.state.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect(dump.projects.find((p: { id: string }) => p.id === 'web').meta.environments).toEqual(['development', 'production']);
    // The name is free again.
    expect((await h.json('POST', ENVIRONMENTS, { name: 'staging' })).status).toBe(201);
  });

  test('used by a flag of a project (an archived one too): 409 naming the project, nothing changes anywhere', async ({ h }) => {
    await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web' });
    await createFlag(h, 'old', {}, 'web');
    await h.req('DELETE', flagPath('old', 'web'));
    await h.json('POST', '/api/admin/projects/default/environments/production/default-strategy', { name: 'flexibleRollout', parameters: { rollout: '50' } });
    await expectNoChange(h, async () => expectError(await h.json('DELETE', env('production')), 409, 'InvalidOperationError', /"web"/));
    expect((await h.json('GET', '/api/admin/projects/default')).body.environments.find((e: { environment: string }) => e.environment === 'production').defaultStrategy)
      .toMatchObject({ name: 'flexibleRollout' });
  });

  test('a token scoped to it: 409; the last environment of a project: 409; nothing changes', async ({ h }) => {
    await h.json('POST', ENVIRONMENTS, { name: 'staging' });
    await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['*'], environment: 'staging' });
    await expectNoChange(h, async () => expectError(await h.json('DELETE', env('staging')), 409, 'InvalidOperationError', /token/));
    await h.json('POST', ENVIRONMENTS, { name: 'lonely' });
    await h.json('POST', '/api/admin/projects', { id: 'solo', name: 'Solo', environments: ['lonely'] });
    await expectNoChange(h, async () => expectError(await h.json('DELETE', env('lonely')), 409, 'InvalidOperationError', /last environment/));
  });

  test('a later project refusing gives the earlier ones the environment back, with their default strategy', async ({ h }) => {
    await h.json('POST', ENVIRONMENTS, { name: 'staging' });
    await h.req('POST', '/api/admin/projects/default/environments', { environment: 'staging' });
    await h.json('POST', '/api/admin/projects/default/environments/staging/default-strategy', { name: 'default' });
    // Project "solo" has only staging: it refuses to let it go, after "default" did.
    await h.json('POST', '/api/admin/projects', { id: 'solo', name: 'Solo', environments: ['staging'] });
    expectError(await h.json('DELETE', env('staging')), 409, 'InvalidOperationError', /solo/);
    expect((await h.json('GET', env('staging'))).status).toBe(200);
    const overview = (await h.json('GET', '/api/admin/projects/default')).body;
    expect(overview.environments.find((e: { environment: string }) => e.environment === 'staging')).toMatchObject({ defaultStrategy: { name: 'default' } });
  });

  test('a flag created while the environment is deleted: never a flag with an entry in a deleted environment', async ({ h }) => {
    await h.json('POST', ENVIRONMENTS, { name: 'staging' });
    await h.req('POST', '/api/admin/projects/default/environments', { environment: 'staging' });
    const [deleted, created] = await Promise.all([h.json('DELETE', env('staging')), h.json('POST', '/api/admin/projects/default/features', { name: 'racer' })]);
    expect(created.status).toBe(201);
    const environments = (await h.json('GET', flagPath('racer'))).body.environments.map((e: { name: string }) => e.name);
    if (deleted.status === 200) expect(environments).toEqual(['development', 'production']);
    else {
      expectError(deleted, 409, 'InvalidOperationError');
      expect(environments).toEqual(['development', 'production', 'staging']);
      expect((await h.json('GET', env('staging'))).status).toBe(200);
    }
  });

  test('unknown: 404; bad name: 400; an Editor: 403; no token: 401', async ({ h }) => {
    const editor = await editorToken(h);
    await expectNoChange(h, async () => {
      expectError(await h.json('DELETE', env('nowhere')), 404, 'NotFoundError');
      expectError(await h.json('DELETE', env('a%20b')), 400, 'ValidationError');
      expectError(await h.json('DELETE', env('development'), undefined, { token: editor }), 403, 'NoAccessError');
      expectError(await h.json('DELETE', env('development'), undefined, { token: null }), 401, 'AuthenticationRequired');
    });
  });
});
