/**
 * Flag dependencies through HTTP (docs/api-decisions.md "Dependencies"): the routes' success and error rows,
 * Unleash 6.10's rules (no self, one level, same project, an active parent; a parent with children is not
 * archived, an archived child lets go of its parents), delivery to the client API, evaluation by the frontend
 * API, restart and the dump.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createProject, createUser, grant, personalToken, READER } from '../access/access-fixtures.js';
import { clientToken, features } from '../client/client-fixtures.js';

const deps = (flag: string, project = 'default') => `${flagPath(flag, project)}/dependencies`;

async function depend(h: Harness, child: string, body: Record<string, unknown>, project = 'default') {
  const r = await h.json('POST', deps(child, project), body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

async function on(h: Harness, flag: string, body: Record<string, unknown> = { name: 'default' }) {
  await addStrategy(h, flag, 'development', body);
  await switchOn(h, flag, 'development');
}

describe('adding and removing dependencies', () => {
  test('POST adds (200, no body), shown as `dependencies` of the child and `children` of the parent; DELETE removes', async ({ h }) => {
    await createFlag(h, 'parent');
    await createFlag(h, 'child');
    const r = await h.json('POST', deps('child'), { feature: 'parent' });
    expect(r.status).toBe(200);
    expect(r.body).toBeNull();
    expect((await h.json('GET', flagPath('child'))).body.dependencies).toEqual([{ feature: 'parent', enabled: true, variants: [] }]);
    expect((await h.json('GET', flagPath('parent'))).body.children).toEqual(['child']);
    expect((await h.json('GET', '/api/admin/projects/default/dependencies')).body).toBe(true);
    // The same parent again replaces the condition.
    await depend(h, 'child', { feature: 'parent', enabled: false, variants: ['ignored'] });
    expect((await h.json('GET', flagPath('child'))).body.dependencies).toEqual([{ feature: 'parent', enabled: false }]);
    expect((await h.req('DELETE', `${deps('child')}/parent`)).status).toBe(200);
    expect((await h.json('GET', flagPath('child'))).body.dependencies).toEqual([]);
    expect((await h.json('GET', flagPath('parent'))).body.children).toEqual([]);
    expect((await h.json('GET', '/api/admin/projects/default/dependencies')).body).toBe(false);
  });

  test("a parent's `children` follow every change when it is read between them, in the children's creation order", async ({ h }) => {
    for (const name of ['parent', 'c1', 'c2', 'other']) await createFlag(h, name);
    const children = async () => (await h.json('GET', flagPath('parent'))).body.children;
    expect(await children()).toEqual([]);
    await depend(h, 'c2', { feature: 'parent' });
    expect(await children()).toEqual(['c2']);
    await depend(h, 'c1', { feature: 'parent', enabled: false });
    expect(await children()).toEqual(['c1', 'c2']);
    // A change elsewhere in the project leaves them as they are.
    await addStrategy(h, 'other', 'development', { name: 'default' });
    expect(await children()).toEqual(['c1', 'c2']);
    // An archived child lets go of its parents, and stays let go when revived.
    expect((await h.req('DELETE', flagPath('c1'))).status).toBe(202);
    expect(await children()).toEqual(['c2']);
    expect((await h.json('POST', '/api/admin/projects/default/revive', { features: ['c1'] })).status).toBe(200);
    expect(await children()).toEqual(['c2']);
    await h.restart();
    expect(await children()).toEqual(['c2']);
    expect((await h.req('DELETE', `${deps('c2')}/parent`)).status).toBe(200);
    expect(await children()).toEqual([]);
  });

  test('DELETE .../dependencies removes every parent; removing one the flag lacks is a 200 that writes nothing', async ({ h }) => {
    for (const name of ['p1', 'p2', 'child']) await createFlag(h, name);
    await depend(h, 'child', { feature: 'p1' });
    await depend(h, 'child', { feature: 'p2', variants: ['blue'] });
    await expectNoChange(h, async () => expect((await h.req('DELETE', `${deps('child')}/other`)).status).toBe(200), 'child');
    expect((await h.req('DELETE', deps('child'))).status).toBe(200);
    expect((await h.json('GET', flagPath('child'))).body.dependencies).toEqual([]);
  });

  test('the rules: not itself, one level both ways, an active parent of the same project (409, nothing written)', async ({ h }) => {
    await createProject(h, 'web');
    for (const name of ['grand', 'parent', 'child', 'other', 'gone']) await createFlag(h, name);
    await createFlag(h, 'elsewhere', {}, 'web');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    await depend(h, 'child', { feature: 'parent' });
    const refused = async (child: string, parent: string, message: RegExp) =>
      expectNoChange(h, async () => expectError(await h.json('POST', deps(child), { feature: parent }), 409, 'InvalidOperationError', message), child);
    await refused('other', 'other', /cannot depend on itself/);
    await refused('parent', 'grand', /other features depend on/);
    await refused('other', 'child', /has parent dependency/);
    await refused('other', 'elsewhere', /same project/);
    await refused('other', 'nope', /No active feature nope/);
    await refused('other', 'gone', /No active feature gone/);
  });

  test('unknown child 404, archived child 400, bad bodies 400, unknown project 404, Reader and client token 403', async ({ h }) => {
    await createFlag(h, 'parent');
    await createFlag(h, 'child');
    await createFlag(h, 'gone');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    await expectNoChange(h, async () => expectError(await h.json('POST', deps('nope'), { feature: 'parent' }), 404, 'NotFoundError', /nope/));
    await expectNoChange(h, async () => expectError(await h.json('POST', deps('gone'), { feature: 'parent' }), 400, 'ArchivedFeatureError'));
    await expectNoChange(h, async () => expectError(await h.json('POST', deps('child', 'nope'), { feature: 'parent' }), 404, 'NotFoundError'));
    const bad: [unknown, RegExp][] = [
      [{}, /"feature": is required/],
      [{ feature: '' }, /"feature": must not be empty/],
      [{ feature: 'parent', enabled: 'yes' }, /"enabled": must be a boolean/],
      [{ feature: 'parent', variants: 'blue' }, /"variants": must be an array/],
      [{ feature: 'parent', variants: Array.from({ length: 101 }, (_, i) => `v${i}`) }, /"variants": must list at most 100/],
      [{ feature: 'parent', extra: true }, /"extra": is not a known property/],
    ];
    for (const [body, message] of bad) await expectNoChange(h, async () => expectError(await h.json('POST', deps('child'), body), 400, 'ValidationError', message), 'child');
    const reader = await createUser(h, { email: 'r@x.io', rootRole: 3 });
    await grant(h, 'default', reader, READER);
    const readerToken = await personalToken(h, reader);
    const client = await clientToken(h, ['*'], 'development');
    await expectNoChange(h, async () => expectError(await h.json('POST', deps('child'), { feature: 'parent' }, { token: readerToken }), 403, 'NoAccessError', /UPDATE_FEATURE/), 'child');
    await expectNoChange(h, async () => expectError(await h.json('POST', deps('child'), { feature: 'parent' }, { token: client }), 403, 'NoAccessError'), 'child');
  });

  test('LIMIT_PARENTS_PER_FLAG bounds the parents of one flag', async ({ openHarness }) => {
    const small = await openHarness({ LIMIT_PARENTS_PER_FLAG: '1' });
    for (const name of ['p1', 'p2', 'child']) await createFlag(small, name);
    await depend(small, 'child', { feature: 'p1' });
    await expectNoChange(small, async () => expectError(await small.json('POST', deps('child'), { feature: 'p2' }), 400, 'ExceedsLimitError', /LIMIT_PARENTS_PER_FLAG/), 'child');
  });

  test('parent options and parent variants', async ({ h }) => {
    for (const name of ['parent', 'child', 'free', 'gone']) await createFlag(h, name);
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    await depend(h, 'child', { feature: 'parent' });
    expect((await h.json('GET', `${flagPath('free')}/parents`)).body).toEqual(['parent']);
    expect((await h.json('GET', `${flagPath('parent')}/parents`)).body).toEqual([]);
    expect((await h.json('PUT', `${flagPath('parent')}/variants`, [{ name: 'blue', weightType: 'variable', weight: 1000 }])).status).toBe(200);
    await addStrategy(h, 'parent', 'development', { name: 'default', variants: [{ name: 'red', weightType: 'variable', weight: 1000, stickiness: 'default' }] });
    expect((await h.json('GET', `${flagPath('parent')}/parent-variants`)).body).toEqual(['blue', 'red']);
    expectError(await h.json('GET', `${flagPath('nope')}/parents`), 404, 'NotFoundError');
  });
});

describe('archive, clone, restart', () => {
  test('a parent with children is not archived (409); an archived child lets go of its parents, then the parent is archived', async ({ h }) => {
    await createFlag(h, 'parent');
    await createFlag(h, 'child');
    await depend(h, 'child', { feature: 'parent' });
    await expectNoChange(h, async () => expectError(await h.json('DELETE', flagPath('parent')), 409, 'InvalidOperationError', /other features depend on it/), 'parent');
    expect((await h.req('DELETE', flagPath('child'))).status).toBe(202);
    expect((await h.json('GET', flagPath('child'))).body.dependencies).toEqual([]);
    expect((await h.req('DELETE', flagPath('parent'))).status).toBe(202);
  });

  test('a clone keeps the dependencies of its source (as Unleash), not its tags', async ({ h }) => {
    await createFlag(h, 'parent');
    await createFlag(h, 'child');
    await depend(h, 'child', { feature: 'parent', variants: ['blue'] });
    expect((await h.json('POST', '/api/admin/features/child/tags', { value: 'beta' })).status).toBe(201);
    expect((await h.json('POST', `${flagPath('child')}/clone`, { name: 'copy' })).status).toBe(201);
    const copy = (await h.json('GET', flagPath('copy'))).body;
    expect(copy.dependencies).toEqual([{ feature: 'parent', enabled: true, variants: ['blue'] }]);
    expect(copy.tags).toEqual([]);
    expect((await h.json('GET', flagPath('parent'))).body.children).toEqual(['child', 'copy']);
  });

  test('dependencies survive a restart and are in the dump', async ({ h }) => {
    await createFlag(h, 'parent');
    await createFlag(h, 'child');
    await depend(h, 'child', { feature: 'parent', enabled: false });
    await h.restart();
    expect((await h.json('GET', flagPath('child'))).body.dependencies).toEqual([{ feature: 'parent', enabled: false }]);
    expect(JSON.stringify((await h.json('GET', '/api/admin/state')).body)).toContain('"dependencies":[{"enabled":false,"feature":"parent"}]');
  });
});

describe('delivery and evaluation', () => {
  test('the client API serves `dependencies` (variants only when named)', async ({ h }) => {
    for (const name of ['parent', 'child', 'other']) await createFlag(h, name);
    await depend(h, 'child', { feature: 'parent', variants: ['blue'] });
    await depend(h, 'other', { feature: 'parent', enabled: false });
    const token = await clientToken(h, ['*'], 'development');
    const byName = Object.fromEntries(((await features(h, token)).body.features as { name: string; dependencies: unknown }[]).map((f) => [f.name, f.dependencies]));
    expect(byName).toEqual({ parent: [], child: [{ feature: 'parent', enabled: true, variants: ['blue'] }], other: [{ feature: 'parent', enabled: false }] });
    expect((await h.json('GET', '/api/client/features/child', undefined, { token })).body.dependencies).toEqual([{ feature: 'parent', enabled: true, variants: ['blue'] }]);
  });

  test('the frontend API and the playground honour dependencies', async ({ h }) => {
    for (const name of ['parent', 'child', 'inverse']) await createFlag(h, name);
    await on(h, 'child');
    await on(h, 'inverse');
    await depend(h, 'child', { feature: 'parent' });
    await depend(h, 'inverse', { feature: 'parent', enabled: false });
    const token = await clientToken(h, ['*'], 'development', 'frontend');
    const enabled = async () => ((await h.json('GET', '/api/frontend', undefined, { token })).body.toggles as { name: string }[]).map((t) => t.name).sort();
    expect(await enabled()).toEqual(['inverse']);
    await on(h, 'parent');
    expect(await enabled()).toEqual(['child', 'parent']);
    const played = await h.json('POST', '/api/admin/playground', { environment: 'development', context: { appName: 'x' } });
    expect(played.status).toBe(200);
    const result = Object.fromEntries((played.body.features as { name: string; isEnabled: boolean }[]).map((f) => [f.name, f.isEnabled]));
    expect(result).toEqual({ parent: true, child: true, inverse: false });
  });
});
