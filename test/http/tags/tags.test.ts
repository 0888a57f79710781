/**
 * Tag types and the tags of flags through HTTP (docs/api-decisions.md "Tags"): every route's success and error
 * rows, the tag mailbox's rules (a tag needs its type; deleting a type removes its tags), the limits, restart,
 * the dump, and the `tag` filter of the project flag list and of the client API.
 */
import { describe, expect } from 'vitest';
import { parseDump, restoreDump } from '../../../src/tools/restore.js';
import { expectError, expectNoChange, positions } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { createFlag, featuresPath, flagPath } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createProject, createUser, grant, MEMBER, personalToken, READER } from '../access/access-fixtures.js';
import { clientToken, features, names } from '../client/client-fixtures.js';

const TYPES = '/api/admin/tag-types';
const tagsOf = (flag: string) => `/api/admin/features/${flag}/tags`;
const SIMPLE = { name: 'simple', description: 'Used to simplify filtering of features', icon: '#', color: null };

async function createType(h: Harness, name: string, extra: Record<string, unknown> = {}) {
  const r = await h.json('POST', TYPES, { name, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

async function tag(h: Harness, flag: string, type: string, value: string) {
  const r = await h.json('POST', tagsOf(flag), { type, value });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

/** Runs `act` and asserts nothing was written and the tag types are as they were. */
async function unchanged(h: Harness, act: () => Promise<unknown>): Promise<void> {
  const before = [positions(h), (await h.json('GET', TYPES)).body];
  await act();
  expect([positions(h), (await h.json('GET', TYPES)).body]).toEqual(before);
}

describe('tag types', () => {
  test('a new service has `simple`; create (201), get, list, update, delete', async ({ h }) => {
    expect((await h.json('GET', TYPES)).body).toEqual({ version: 1, tagTypes: [SIMPLE] });
    expect(await createType(h, 'team', { description: 'Owning team', color: '#12aBcD' })).toEqual({ name: 'team', description: 'Owning team', icon: null, color: '#12aBcD' });
    expect((await h.json('GET', `${TYPES}/team`)).body).toEqual({ version: 1, tagType: { name: 'team', description: 'Owning team', icon: null, color: '#12aBcD' } });
    const put = await h.json('PUT', `${TYPES}/team`, { name: 'team', description: 'Squad', icon: 'people' });
    expect(put.status).toBe(200);
    expect((await h.json('GET', `${TYPES}/team`)).body.tagType).toEqual({ name: 'team', description: 'Squad', icon: 'people', color: null });
    expect((await h.req('DELETE', `${TYPES}/team`)).status).toBe(200);
    expect((await h.json('GET', TYPES)).body.tagTypes).toEqual([SIMPLE]);
  });

  test('bad bodies and paths are 400 naming the property, and write nothing', async ({ h }) => {
    const cases: [unknown, RegExp][] = [
      [{}, /"name": is required/],
      [{ name: 'a' }, /"name": must be at least 2 characters/],
      [{ name: 'x'.repeat(51) }, /"name": must be at most 50 characters/],
      [{ name: 'a b' }, /"name": must be URL-friendly/],
      [{ name: '__proto__' }, /"name": must not be "__proto__"/],
      [{ name: 'ok', color: 'red' }, /"color"/],
      [{ name: 'ok', description: 5 }, /"description": must be a string/],
      [{ name: 'ok', description: 'x'.repeat(1001) }, /"description": must be at most 1000 characters/],
      [{ name: 'ok', extra: 1 }, /"extra": is not a known property/],
      [[{ name: 'ok' }], /"name": is required|must be an object/],
    ];
    for (const [body, message] of cases) await unchanged(h, async () => expectError(await h.json('POST', TYPES, body), 400, 'ValidationError', message));
    await unchanged(h, async () => expectError(await h.json('PUT', `${TYPES}/simple`, { name: 'other' }), 400, 'ValidationError', /"name": must equal/));
    await unchanged(h, async () => expectError(await h.json('GET', `${TYPES}/a%20b`), 400, 'ValidationError', /"name"/));
  });

  test('a duplicate is 409; unknown names are 404; validate answers 200, 409 or 400 without creating', async ({ h }) => {
    await createType(h, 'team');
    await unchanged(h, async () => expectError(await h.json('POST', TYPES, { name: 'team' }), 409, 'NameExistsError', /team/));
    await unchanged(h, async () => expectError(await h.json('GET', `${TYPES}/nope`), 404, 'NotFoundError', /nope/));
    await unchanged(h, async () => expectError(await h.json('PUT', `${TYPES}/nope`, { description: 'd' }), 404, 'NotFoundError', /nope/));
    await unchanged(h, async () => expectError(await h.json('DELETE', `${TYPES}/nope`), 404, 'NotFoundError', /nope/));
    await unchanged(h, async () => expect((await h.json('POST', `${TYPES}/validate`, { name: 'fresh' })).status).toBe(200));
    await unchanged(h, async () => expectError(await h.json('POST', `${TYPES}/validate`, { name: 'team' }), 409, 'NameExistsError'));
    await unchanged(h, async () => expectError(await h.json('POST', `${TYPES}/validate`, { name: 'x' }), 400, 'ValidationError', /"name"/));
  });

  test('deleting a tag type in use removes its tags from every flag (archived ones, other projects), each change in the history; the type is gone, also after a restart', async ({ h }) => {
    await createType(h, 'team');
    await createProject(h, 'other');
    await createFlag(h, 'checkout');
    await createFlag(h, 'old');
    await createFlag(h, 'untouched');
    await createFlag(h, 'elsewhere', {}, 'other');
    await tag(h, 'checkout', 'team', 'payments');
    await tag(h, 'checkout', 'simple', 'beta');
    await tag(h, 'checkout', 'team', 'web');
    await tag(h, 'old', 'team', 'legacy');
    await tag(h, 'elsewhere', 'team', 'xx');
    await tag(h, 'untouched', 'simple', 'keep');
    expect((await h.req('DELETE', flagPath('old'))).status).toBe(202);
    const before = positions(h);

    expect((await h.req('DELETE', `${TYPES}/team`)).status).toBe(200);
    const tagsNow = async () => ({
      checkout: (await h.json('GET', flagPath('checkout'))).body.tags,
      old: (await h.json('GET', flagPath('old'))).body.tags,
      untouched: (await h.json('GET', flagPath('untouched'))).body.tags,
      elsewhere: (await h.json('GET', flagPath('elsewhere', 'other'))).body.tags,
    });
    const expected = { checkout: [{ type: 'simple', value: 'beta' }], old: [], untouched: [{ type: 'simple', value: 'keep' }], elsewhere: [] };
    expect(await tagsNow()).toEqual(expected);
    expectError(await h.json('GET', `${TYPES}/team`), 404, 'NotFoundError');
    expect((await h.json('GET', '/api/admin/tags')).body.tags).toEqual([{ type: 'simple', value: 'beta' }, { type: 'simple', value: 'keep' }]);
    // One durable removal per flag that carried the type, in the project it belongs to; the untouched flag has none.
    expect(positions(h)).not.toEqual(before);
    const removals = async (project: string) => ((await h.json('GET', `/api/admin/events?project=${project}`)).body.events as { type: string; feature: string; before: unknown; after: unknown }[])
      .filter((e) => e.type === 'flag.tagged').slice(0, 3);
    const [inDefault, inOther] = [await removals('default'), await removals('other')];
    expect(inDefault.slice(0, 2).map((e) => e.feature).sort()).toEqual(['checkout', 'old']);
    expect(inDefault.find((e) => e.feature === 'checkout')).toMatchObject({
      before: { removedTags: [{ type: 'team', value: 'payments' }, { type: 'team', value: 'web' }] }, after: { addedTags: [] },
    });
    expect(inOther[0]).toMatchObject({ feature: 'elsewhere', before: { removedTags: [{ type: 'team', value: 'xx' }] } });

    await h.restart();
    expect(await tagsNow()).toEqual(expected);
    expectError(await h.json('GET', `${TYPES}/team`), 404, 'NotFoundError');
    // The name is free again; a type never used is deleted without touching any project.
    await createType(h, 'team');
    const quiet = positions(h);
    expect((await h.req('DELETE', `${TYPES}/team`)).status).toBe(200);
    const projectPositions = (p: string) => (JSON.parse(p) as unknown[]).slice(1);
    expect(projectPositions(positions(h))).toEqual(projectPositions(quiet));
  });

  test('deleting a type while its tags are being added never leaves a tag of a deleted type', async ({ h }) => {
    for (const name of ['r1', 'r2', 'r3', 'r4']) await createFlag(h, name);
    for (let round = 0; round < 5; round += 1) {
      await createType(h, 'racy');
      const sends = ['r1', 'r2', 'r3', 'r4'].map((name) => () => h.json('POST', tagsOf(name), { type: 'racy', value: `v${round}` }));
      // In odd rounds one tag is on before the delete is sent with the other adds; in even rounds all race.
      const first = round % 2 === 1 ? [await sends[0]!()] : [];
      const [deletion, ...raced] = await Promise.all([h.json('DELETE', `${TYPES}/racy`), ...sends.slice(first.length).map((send) => send())]);
      const answers = [...first, ...raced];
      // The delete always wins in the end: the adds before it lose their tags with it, the adds after it are refused.
      expect(deletion.status).toBe(200);
      const carried = (await Promise.all(['r1', 'r2', 'r3', 'r4'].map(async (name) => (await h.json('GET', tagsOf(name))).body.tags as { type: string }[])))
        .flat().filter((t) => t.type === 'racy');
      expect([(await h.json('GET', `${TYPES}/racy`)).status, carried.length]).toEqual([404, 0]);
      for (const answer of answers) expect([201, 400]).toContain(answer.status);
    }
  });

  test('LIMIT_TAG_TYPES bounds the tag types (simple counts)', async ({ openHarness }) => {
    const small = await openHarness({ LIMIT_TAG_TYPES: '2' });
    await createType(small, 'team');
    await unchanged(small, async () => expectError(await small.json('POST', TYPES, { name: 'more' }), 400, 'ExceedsLimitError', /LIMIT_TAG_TYPES/));
  });

  test('who may write tag types: admin tokens, root Admins and Editors; not Viewers, project roles or client tokens', async ({ h }) => {
    const editor = await personalToken(h, await createUser(h, { email: 'e@x.io', rootRole: 2 }));
    const viewer = await personalToken(h, await createUser(h, { email: 'v@x.io', rootRole: 3 }));
    expect((await h.json('POST', TYPES, { name: 'byeditor' }, { token: editor })).status).toBe(201);
    await unchanged(h, async () => expectError(await h.json('POST', TYPES, { name: 'byviewer' }, { token: viewer }), 403, 'NoAccessError', /UPDATE_TAG_TYPE/));
    expect((await h.json('GET', TYPES, undefined, { token: viewer })).status).toBe(200);
    const client = await clientToken(h, ['*'], 'development');
    await unchanged(h, async () => expectError(await h.json('POST', TYPES, { name: 'byclient' }, { token: client }), 403, 'NoAccessError'));
    await unchanged(h, async () => expectError(await h.json('GET', TYPES, undefined, { token: client }), 403, 'NoAccessError'));
    await unchanged(h, async () => expectError(await h.json('GET', TYPES, undefined, { token: null }), 401, 'AuthenticationRequired'));
  });
});

describe('tags of a flag', () => {
  test('add (201, type defaults to simple, value trimmed), list, shown in the flag detail, remove', async ({ h }) => {
    await createType(h, 'team');
    await createFlag(h, 'checkout');
    const added = await h.json('POST', tagsOf('checkout'), { value: '  beta  ' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ type: 'simple', value: 'beta' });
    await tag(h, 'checkout', 'team', 'payments');
    expect((await h.json('GET', tagsOf('checkout'))).body).toEqual({ version: 1, tags: [{ type: 'simple', value: 'beta' }, { type: 'team', value: 'payments' }] });
    expect((await h.json('GET', flagPath('checkout'))).body.tags).toEqual([{ type: 'simple', value: 'beta' }, { type: 'team', value: 'payments' }]);
    expect((await h.req('DELETE', `${tagsOf('checkout')}/simple/beta`)).status).toBe(200);
    expect((await h.json('GET', tagsOf('checkout'))).body.tags).toEqual([{ type: 'team', value: 'payments' }]);
  });

  test('GET /api/admin/tags lists the distinct tags flags carry, sorted; /api/admin/tags/:type those of one type (404 unknown type)', async ({ h }) => {
    await createType(h, 'team');
    for (const name of ['a1', 'a2']) await createFlag(h, name);
    await tag(h, 'a2', 'team', 'payments');
    await tag(h, 'a1', 'simple', 'zeta');
    await tag(h, 'a2', 'simple', 'beta');
    await tag(h, 'a1', 'simple', 'beta');
    expect((await h.json('GET', '/api/admin/tags')).body).toEqual({ version: 1, tags: [{ type: 'simple', value: 'beta' }, { type: 'simple', value: 'zeta' }, { type: 'team', value: 'payments' }] });
    expect((await h.json('GET', '/api/admin/tags/team')).body).toEqual({ version: 1, tags: [{ type: 'team', value: 'payments' }] });
    expectError(await h.json('GET', '/api/admin/tags/nope'), 404, 'NotFoundError');
  });

  test('a tag the flag has already is a 201 that writes nothing; removing a tag it lacks is a 200 that writes nothing', async ({ h }) => {
    await createFlag(h, 'checkout');
    await tag(h, 'checkout', 'simple', 'beta');
    await expectNoChange(h, async () => expect((await h.json('POST', tagsOf('checkout'), { type: 'simple', value: 'beta' })).status).toBe(201), 'checkout');
    await expectNoChange(h, async () => expect((await h.req('DELETE', `${tagsOf('checkout')}/simple/other`)).status).toBe(200), 'checkout');
    expect((await h.json('GET', tagsOf('checkout'))).body.tags).toEqual([{ type: 'simple', value: 'beta' }]);
  });

  test('hostile path values are 400 naming the parameter and write nothing', async ({ h }) => {
    await createFlag(h, 'checkout');
    await tag(h, 'checkout', 'simple', 'beta');
    const cases: [string, RegExp][] = [
      [`${tagsOf('a%20b')}`, /"featureName"/],
      [`${tagsOf('x'.repeat(101))}`, /"featureName"/],
      [`${tagsOf('__proto__')}`, /"featureName"/],
      [`${tagsOf('checkout')}/__proto__/beta`, /"type"/],
      [`${tagsOf('checkout')}/a%2Fb/beta`, /"type"/],
      [`${tagsOf('checkout')}/simple/${'x'.repeat(51)}`, /"value"/],
      [`${tagsOf('checkout')}/simple/%20x%20`, /"value"/],
    ];
    for (const [path, message] of cases) {
      const method = path.split('/').length > 6 ? 'DELETE' : 'POST';
      await expectNoChange(h, async () => expectError(await h.json(method, path, method === 'POST' ? { value: 'beta' } : undefined), 400, 'ValidationError', message), 'checkout');
    }
    await expectNoChange(h, async () => expectError(await h.json('GET', `${TYPES}/${'x'.repeat(51)}`), 400, 'ValidationError', /"name"/));
  });

  test('PUT adds and removes in one change and answers the tags after it', async ({ h }) => {
    await createFlag(h, 'checkout');
    await tag(h, 'checkout', 'simple', 'old');
    const r = await h.json('PUT', tagsOf('checkout'), { addedTags: [{ type: 'simple', value: 'new' }], removedTags: [{ type: 'simple', value: 'old' }] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: 1, tags: [{ type: 'simple', value: 'new' }] });
  });

  test('unknown flag 404, unknown tag type 400, archived flag 400, bad bodies 400: nothing written', async ({ h }) => {
    await createFlag(h, 'checkout');
    await createFlag(h, 'gone');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    await expectNoChange(h, async () => expectError(await h.json('POST', tagsOf('nope'), { value: 'beta' }), 404, 'NotFoundError', /nope/));
    await expectNoChange(h, async () => expectError(await h.json('GET', tagsOf('nope')), 404, 'NotFoundError', /nope/));
    await expectNoChange(h, async () => expectError(await h.json('POST', tagsOf('checkout'), { type: 'nosuch', value: 'beta' }), 400, 'ValidationError', /tag type "nosuch" does not exist/), 'checkout');
    await expectNoChange(h, async () => expectError(await h.json('POST', tagsOf('gone'), { value: 'beta' }), 400, 'ArchivedFeatureError'));
    const bad: [unknown, RegExp][] = [
      [{}, /"value": is required/],
      [{ value: 'x' }, /"value": must be at least 2/],
      [{ value: '  x  ' }, /"value": must be at least 2/],
      [{ value: 'x'.repeat(51) }, /"value": must be at most 50/],
      [{ value: 5 }, /"value": must be a string/],
      [{ value: 'ok', type: 'a b' }, /"type": must be URL-friendly/],
      [{ value: 'ok', other: 1 }, /"other": is not a known property/],
    ];
    for (const [body, message] of bad) await expectNoChange(h, async () => expectError(await h.json('POST', tagsOf('checkout'), body, {}), 400, 'ValidationError', message), 'checkout');
    await expectNoChange(h, async () => expectError(await h.json('PUT', tagsOf('checkout'), { addedTags: [] }), 400, 'ValidationError', /"removedTags": is required/), 'checkout');
    await expectNoChange(h, async () => expectError(await h.json('PUT', tagsOf('checkout'), { addedTags: Array.from({ length: 101 }, (_, i) => ({ value: `v${i}` })), removedTags: [] }), 400, 'ValidationError', /"addedTags": must list at most 100/), 'checkout');
    await expectNoChange(h, async () => expect((await h.req('POST', tagsOf('checkout'), 'value=beta', { headers: { 'content-type': 'text/plain' } })).status).toBe(415), 'checkout');
  });

  test('a name used by flags of two projects is 409 on the project-less route; the bulk route of a project reaches either', async ({ h }) => {
    await createProject(h, 'web');
    await createFlag(h, 'checkout');
    await createFlag(h, 'checkout', {}, 'web');
    await expectNoChange(h, async () => expectError(await h.json('POST', tagsOf('checkout'), { value: 'beta' }), 409, 'InvalidOperationError', /"default", "web"/));
    expect((await h.req('PUT', '/api/admin/projects/web/tags', { features: ['checkout'], tags: { addedTags: [{ type: 'simple', value: 'beta' }], removedTags: [] } })).status).toBe(200);
    expect((await h.json('GET', flagPath('checkout', 'web'))).body.tags).toEqual([{ type: 'simple', value: 'beta' }]);
    expect((await h.json('GET', flagPath('checkout'))).body.tags).toEqual([]);
  });

  test('permissions follow the project holding the flag: a Reader may list but not tag; a Member may tag; a client token may do neither', async ({ h }) => {
    await createProject(h, 'web');
    await createFlag(h, 'checkout', {}, 'web');
    const readerId = await createUser(h, { email: 'r@x.io', rootRole: 3 });
    const memberId = await createUser(h, { email: 'm@x.io', rootRole: 3 });
    await grant(h, 'web', readerId, READER);
    await grant(h, 'web', memberId, MEMBER);
    const reader = await personalToken(h, readerId);
    const member = await personalToken(h, memberId);
    expect((await h.json('GET', tagsOf('checkout'), undefined, { token: reader })).status).toBe(200);
    await expectNoChange(h, async () => expectError(await h.json('POST', tagsOf('checkout'), { value: 'beta' }, { token: reader }), 403, 'NoAccessError', /UPDATE_FEATURE/));
    expect((await h.json('POST', tagsOf('checkout'), { value: 'beta' }, { token: member })).status).toBe(201);
    const client = await clientToken(h, ['*'], 'development');
    await expectNoChange(h, async () => expectError(await h.json('POST', tagsOf('checkout'), { value: 'other' }, { token: client }), 403, 'NoAccessError'));
  });

  test('LIMIT_TAGS_PER_FLAG bounds the tags of one flag', async ({ openHarness }) => {
    const small = await openHarness({ LIMIT_TAGS_PER_FLAG: '2' });
    await createFlag(small, 'checkout');
    await tag(small, 'checkout', 'simple', 'aa');
    await tag(small, 'checkout', 'simple', 'bb');
    await expectNoChange(small, async () => expectError(await small.json('POST', tagsOf('checkout'), { value: 'cc' }), 400, 'ExceedsLimitError', /LIMIT_TAGS_PER_FLAG/), 'checkout');
  });
});

describe('PUT /api/admin/projects/:projectId/tags (bulk)', () => {
  test('adds and removes on every listed flag', async ({ h }) => {
    for (const name of ['a1', 'a2', 'a3']) await createFlag(h, name);
    await tag(h, 'a1', 'simple', 'old');
    const r = await h.json('PUT', '/api/admin/projects/default/tags', { features: ['a1', 'a2'], tags: { addedTags: [{ type: 'simple', value: 'new' }], removedTags: [{ type: 'simple', value: 'old' }] } });
    expect(r.status).toBe(200);
    expect(r.body).toBeNull();
    expect((await h.json('GET', tagsOf('a1'))).body.tags).toEqual([{ type: 'simple', value: 'new' }]);
    expect((await h.json('GET', tagsOf('a2'))).body.tags).toEqual([{ type: 'simple', value: 'new' }]);
    expect((await h.json('GET', tagsOf('a3'))).body.tags).toEqual([]);
  });

  test('one unknown flag or tag type refuses the whole change; bad bodies 400; unknown project 404', async ({ h }) => {
    await createFlag(h, 'a1');
    const body = (features: unknown, type = 'simple') => ({ features, tags: { addedTags: [{ type, value: 'new' }], removedTags: [] } });
    await expectNoChange(h, async () => expectError(await h.json('PUT', '/api/admin/projects/default/tags', body(['a1', 'nope'])), 404, 'NotFoundError', /nope/), 'a1');
    await expectNoChange(h, async () => expectError(await h.json('PUT', '/api/admin/projects/default/tags', body(['a1'], 'nosuch')), 400, 'ValidationError', /nosuch/), 'a1');
    await expectNoChange(h, async () => expectError(await h.json('PUT', '/api/admin/projects/default/tags', body([])), 400, 'ValidationError', /"features": must list at least one/), 'a1');
    await expectNoChange(h, async () => expectError(await h.json('PUT', '/api/admin/projects/default/tags', { features: ['a1'] }), 400, 'ValidationError', /"tags": is required/), 'a1');
    await expectNoChange(h, async () => expectError(await h.json('PUT', '/api/admin/projects/nope/tags', body(['a1'])), 404, 'NotFoundError', /nope/), 'a1');
  });
});

describe('tags are state', () => {
  test('a dump restored into a new data directory brings back tag types, tags and dependencies', async ({ h, tempDir, openHarnessOverTempDir }) => {
    await createType(h, 'team');
    await createFlag(h, 'parent');
    await createFlag(h, 'checkout');
    await tag(h, 'checkout', 'team', 'payments');
    expect((await h.req('POST', `${flagPath('checkout')}/dependencies`, { feature: 'parent' })).status).toBe(200);
    const text = await (await h.req('GET', '/api/admin/state')).text();
    const target = tempDir('tags-restore');
    await restoreDump(target, parseDump(text));
    const restored = await openHarnessOverTempDir({}, target);
    expect((await restored.json('GET', TYPES)).body.tagTypes.map((t: { name: string }) => t.name)).toEqual(['simple', 'team']);
    const flag = (await restored.json('GET', flagPath('checkout'))).body;
    expect(flag.tags).toEqual([{ type: 'team', value: 'payments' }]);
    expect(flag.dependencies).toEqual([{ feature: 'parent', enabled: true, variants: [] }]);
    // The restored service decides with them: the parent has a child, and the type's delete finds its tag.
    expectError(await restored.json('DELETE', flagPath('parent')), 409, 'InvalidOperationError');
    expect((await restored.req('DELETE', `${TYPES}/team`)).status).toBe(200);
    expect((await restored.json('GET', flagPath('checkout'))).body.tags).toEqual([]);
  });

  test('tags and tag types survive a restart and are in the dump', async ({ h }) => {
    await createType(h, 'team', { description: 'Owning team' });
    await createFlag(h, 'checkout');
    await tag(h, 'checkout', 'team', 'payments');
    await h.restart();
    expect((await h.json('GET', tagsOf('checkout'))).body.tags).toEqual([{ type: 'team', value: 'payments' }]);
    expect((await h.json('GET', `${TYPES}/team`)).body.tagType.description).toBe('Owning team');
    const dump = await h.json('GET', '/api/admin/state');
    expect(JSON.stringify(dump.body)).toContain('"tags":[{"type":"team","value":"payments"}]');
    expect(JSON.stringify(dump.body)).toContain('"tagTypes":[');
  });
});

describe('tag filters', () => {
  test('the project flag list and the client API serve the flags with any of the tags', async ({ h }) => {
    for (const name of ['a1', 'a2', 'a3']) await createFlag(h, name);
    await tag(h, 'a1', 'simple', 'beta');
    await tag(h, 'a2', 'simple', 'gamma');
    const list = (query: string) => h.json('GET', `${featuresPath()}${query}`);
    expect(names((await list('?tag=simple:beta')).body)).toEqual(['a1']);
    expect(names((await list('?tag=simple:beta&tag=simple:gamma')).body)).toEqual(['a1', 'a2']);
    expect(names((await list('?tag=simple:none')).body)).toEqual([]);
    expect(names((await list('')).body)).toEqual(['a1', 'a2', 'a3']);
    expectError(await list('?tag=nocolon'), 400, 'ValidationError', /"tag/);
    const token = await clientToken(h, ['*'], 'development');
    expect(names((await features(h, token, '?tag=simple:beta')).body)).toEqual(['a1']);
    expect(names((await features(h, token, '?tag=simple:beta&tag=simple:gamma')).body)).toEqual(['a1', 'a2']);
    expect(names((await features(h, token, '?tag=simple:none')).body)).toEqual([]);
    // A tag type with `-` (URL-friendly, so allowed) filters too, on both routes.
    await createType(h, 'my-team');
    await tag(h, 'a3', 'my-team', 'pay:ments');
    expect(names((await list('?tag=my-team:pay:ments')).body)).toEqual(['a3']);
    expect(names((await features(h, token, '?tag=my-team:pay:ments')).body)).toEqual(['a3']);
  });
});
