/**
 * Context fields through HTTP (docs/api-decisions.md "Context fields and strategy definitions"): the built-in
 * ones, every route's success and error rows, legal values checked against strategy constraints, the limit,
 * restart, the dump and a restore.
 */
import { describe, expect } from 'vitest';
import { parseDump, restoreDump } from '../../../src/tools/restore.js';
import { expectError, expectNoChange, positions } from '../../helpers/expect.js';
import { harnessTest, test } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, strategiesPath } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createUser, personalToken } from '../access/access-fixtures.js';

const CONTEXT = '/api/admin/context';
const BUILT_IN = ['environment', 'userId', 'appName', 'currentTime', 'sessionId'];

async function createField(h: Harness, body: Record<string, unknown>) {
  const r = await h.json('POST', CONTEXT, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Runs `act` and asserts nothing was written and the context fields are as they were. */
async function unchanged(h: Harness, act: () => Promise<unknown>): Promise<void> {
  const before = [positions(h), (await h.json('GET', CONTEXT)).body];
  await act();
  expect([positions(h), (await h.json('GET', CONTEXT)).body]).toEqual(before);
}

describe('context fields', () => {
  test('a new service lists the built-in fields of Unleash 6.10, by sort order', async ({ h }) => {
    const list = (await h.json('GET', CONTEXT)).body;
    expect(list.map((f: { name: string }) => f.name)).toEqual(BUILT_IN);
    expect(list[4]).toEqual({ name: 'sessionId', description: 'Allows you to constrain on sessionId', stickiness: true, sortOrder: 4, legalValues: [], createdAt: null, usedInFeatures: 0, usedInProjects: 0 });
  });

  test('create (201 with Location), get, update, delete', async ({ h }) => {
    const r = await h.json('POST', CONTEXT, { name: 'region', description: 'Where', legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }], stickiness: true, sortOrder: 7 });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe('context/region');
    expect(r.body).toMatchObject({ name: 'region', description: 'Where', stickiness: true, sortOrder: 7, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }], usedInFeatures: 0 });
    expect(typeof r.body.createdAt).toBe('string');
    expect((await h.json('GET', `${CONTEXT}/region`)).body).toEqual(r.body);
    // PUT replaces, keeps the sort order when absent, and accepts an answer sent back (its read-only fields are ignored).
    expect((await h.json('PUT', `${CONTEXT}/region`, { ...r.body, description: 'Region', legalValues: [{ value: 'eu' }], stickiness: false, sortOrder: undefined })).status).toBe(200);
    expect((await h.json('GET', `${CONTEXT}/region`)).body).toMatchObject({ description: 'Region', legalValues: [{ value: 'eu' }], stickiness: false, sortOrder: 7, createdAt: r.body.createdAt });
    expect((await h.req('DELETE', `${CONTEXT}/region`)).status).toBe(200);
    expectError(await h.json('GET', `${CONTEXT}/region`), 404, 'NotFoundError', /region/);
    // A built-in field can be changed and deleted, as in Unleash.
    expect((await h.json('PUT', `${CONTEXT}/appName`, { legalValues: [{ value: 'web' }] })).status).toBe(200);
    expect((await h.req('DELETE', `${CONTEXT}/currentTime`)).status).toBe(200);
    expect((await h.json('GET', CONTEXT)).body.map((f: { name: string }) => f.name)).toEqual(['environment', 'userId', 'appName', 'sessionId']);
  });

  test('bad bodies and paths are 400 naming the property, and write nothing', async ({ h }) => {
    const cases: [unknown, RegExp][] = [
      [{}, /"name": is required/],
      [{ name: '' }, /"name": must not be empty/],
      [{ name: 'x'.repeat(101) }, /"name": must be at most 100 characters/],
      [{ name: 'a b' }, /"name": must be URL-friendly/],
      [{ name: '__proto__' }, /"name": must not be "__proto__"/],
      [{ name: 5 }, /"name"/],
      [{ name: 'ok', description: 5 }, /"description": must be a string/],
      [{ name: 'ok', description: 'x'.repeat(1001) }, /"description": must be at most 1000 characters/],
      [{ name: 'ok', stickiness: 'yes' }, /"stickiness": must be a boolean/],
      [{ name: 'ok', sortOrder: 1.5 }, /"sortOrder": must be an integer/],
      [{ name: 'ok', legalValues: 'eu' }, /"legalValues"/],
      [{ name: 'ok', legalValues: ['eu'] }, /"legalValues.0"/],
      [{ name: 'ok', legalValues: [{ value: '' }] }, /"legalValues.0.value": must not be empty/],
      [{ name: 'ok', legalValues: [{ value: 'x'.repeat(101) }] }, /"legalValues.0.value": must be at most 100/],
      [{ name: 'ok', legalValues: [{ value: 'eu' }, { value: 'eu' }] }, /"legalValues": must not list a value twice/],
      [{ name: 'ok', legalValues: Array.from({ length: 1001 }, (_, i) => ({ value: `v${i}` })) }, /"legalValues": must hold at most 1000/],
      [{ name: 'ok', legalValues: [{ value: 'eu', colour: 'blue' }] }, /"legalValues.0.colour": is not a known property/],
      [{ name: 'ok', extra: 1 }, /"extra": is not a known property/],
      [[{ name: 'ok' }], /"name": is required/],
    ];
    for (const [body, message] of cases) await unchanged(h, async () => expectError(await h.json('POST', CONTEXT, body), 400, 'ValidationError', message));
    await unchanged(h, async () => expectError(await h.json('PUT', `${CONTEXT}/userId`, { name: 'other' }), 400, 'ValidationError', /"name": must equal/));
    await unchanged(h, async () => expectError(await h.json('PUT', `${CONTEXT}/userId`, { legalValues: [{}] }), 400, 'ValidationError', /"legalValues.0.value"/));
    await unchanged(h, async () => expectError(await h.json('GET', `${CONTEXT}/a%20b`), 400, 'ValidationError', /"contextField"/));
    await unchanged(h, async () => expectError(await h.json('DELETE', `${CONTEXT}/${'x'.repeat(101)}`), 400, 'ValidationError', /"contextField"/));
    await unchanged(h, async () => expectError(await h.req('POST', CONTEXT, '{"name":', { headers: { 'content-type': 'application/json' } }).then(async (r) => ({ status: r.status, body: await r.json() })), 400, 'ValidationError'));
  });

  test('a duplicate is 409; unknown names are 404; validate answers 200, 409 or 400 without creating', async ({ h }) => {
    await createField(h, { name: 'region' });
    await unchanged(h, async () => expectError(await h.json('POST', CONTEXT, { name: 'region' }), 409, 'NameExistsError', /region/));
    await unchanged(h, async () => expectError(await h.json('POST', CONTEXT, { name: 'userId' }), 409, 'NameExistsError', /userId/));
    await unchanged(h, async () => expectError(await h.json('GET', `${CONTEXT}/nope`), 404, 'NotFoundError', /nope/));
    await unchanged(h, async () => expectError(await h.json('PUT', `${CONTEXT}/nope`, { description: 'd' }), 404, 'NotFoundError', /nope/));
    await unchanged(h, async () => expectError(await h.json('DELETE', `${CONTEXT}/nope`), 404, 'NotFoundError', /nope/));
    await unchanged(h, async () => expect((await h.json('POST', `${CONTEXT}/validate`, { name: 'fresh' })).status).toBe(200));
    await unchanged(h, async () => expectError(await h.json('POST', `${CONTEXT}/validate`, { name: 'region' }), 409, 'NameExistsError'));
    await unchanged(h, async () => expectError(await h.json('POST', `${CONTEXT}/validate`, { name: 'a b' }), 400, 'ValidationError', /"name"/));
  });

  test('an update that changes nothing writes nothing', async ({ h }) => {
    await createField(h, { name: 'region', legalValues: [{ value: 'eu' }] });
    await unchanged(h, async () => expect((await h.json('PUT', `${CONTEXT}/region`, { legalValues: [{ value: 'eu' }] })).status).toBe(200));
  });

  test('tokens other than admin ones cannot write; a root Viewer can read but not write', async ({ h }) => {
    const viewer = await personalToken(h, await createUser(h, { username: 'viewer', rootRole: 3 }));
    expect((await h.json('GET', CONTEXT, undefined, { token: viewer })).status).toBe(200);
    await unchanged(h, async () => expectError(await h.json('POST', CONTEXT, { name: 'region' }, { token: viewer }), 403, 'NoAccessError', /UPDATE_DEFINITIONS/));
    await unchanged(h, async () => expectError(await h.json('DELETE', `${CONTEXT}/userId`, undefined, { token: viewer }), 403, 'NoAccessError'));
    await unchanged(h, async () => expect((await h.json('POST', CONTEXT, { name: 'region' }, { token: null })).status).toBe(401));
  });
});

describe('legal values one at a time', () => {
  test('POST adds or replaces one value; DELETE removes one (a value the field lacks: 200, nothing written)', async ({ h }) => {
    await createField(h, { name: 'region', legalValues: [{ value: 'eu' }] });
    const values = async () => (await h.json('GET', `${CONTEXT}/region`)).body.legalValues;
    expect((await h.json('POST', `${CONTEXT}/region/legal-values`, { value: 'us', description: 'States' })).status).toBe(200);
    expect(await values()).toEqual([{ value: 'eu' }, { value: 'us', description: 'States' }]);
    expect((await h.json('POST', `${CONTEXT}/region/legal-values`, { value: 'eu', description: 'Europe' })).status).toBe(200);
    expect(await values()).toEqual([{ value: 'eu', description: 'Europe' }, { value: 'us', description: 'States' }]);
    await unchanged(h, async () => expect((await h.json('POST', `${CONTEXT}/region/legal-values`, { value: 'eu', description: 'Europe' })).status).toBe(200));
    expect((await h.req('DELETE', `${CONTEXT}/region/legal-values/us`)).status).toBe(200);
    expect(await values()).toEqual([{ value: 'eu', description: 'Europe' }]);
    await unchanged(h, async () => expect((await h.req('DELETE', `${CONTEXT}/region/legal-values/mars`)).status).toBe(200));
  });

  test('bad bodies, unknown fields and a full field are refused, and write nothing', async ({ h }) => {
    await createField(h, { name: 'region', legalValues: Array.from({ length: 1000 }, (_, i) => ({ value: `v${i}` })) });
    const path = `${CONTEXT}/region/legal-values`;
    for (const [body, message] of [[{}, /"value": is required/], [{ value: '' }, /"value": must not be empty/], [{ value: 'x'.repeat(101) }, /"value": must be at most 100/],
      [{ value: 'eu', extra: 1 }, /"extra": is not a known property/], [{ value: 5 }, /"value"/], [['eu'], /must be an object|"value"/]] as const) {
      await unchanged(h, async () => expectError(await h.json('POST', path, body), 400, 'ValidationError', message));
    }
    await unchanged(h, async () => expectError(await h.json('POST', path, { value: 'one-more' }), 400, 'ExceedsLimitError', /1000 legal values/));
    // Replacing a value of a full field is fine.
    expect((await h.json('POST', path, { value: 'v1', description: 'one' })).status).toBe(200);
    await unchanged(h, async () => expectError(await h.json('POST', `${CONTEXT}/nope/legal-values`, { value: 'eu' }), 404, 'NotFoundError', /nope/));
    await unchanged(h, async () => expectError(await h.json('DELETE', `${CONTEXT}/nope/legal-values/eu`), 404, 'NotFoundError', /nope/));
    await unchanged(h, async () => expectError(await h.json('DELETE', `${CONTEXT}/region/legal-values/${'x'.repeat(101)}`), 400, 'ValidationError', /"legalValue"/));
  });
});

describe('legal values validate strategy constraints', () => {
  test('a constraint on a field with legal values must use them (400 naming the value), on add, update, patch and default strategy', async ({ h }) => {
    await createField(h, { name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] });
    await createFlag(h, 'checkout');
    const path = strategiesPath('checkout', 'development');
    const ok = await addStrategy(h, 'checkout', 'development', { name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'us'] }] });
    expect(ok.constraints[0]?.values).toEqual(['eu', 'us']);
    const bad = { name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'mars'] }] };
    await expectNoChange(h, async () => expectError(await h.json('POST', path, bad), 400, 'ValidationError', /"mars" is not a legal value of context field "region"/), 'checkout');
    await expectNoChange(h, async () => expectError(await h.json('PUT', `${path}/${ok.id}`, bad), 400, 'ValidationError', /"mars"/), 'checkout');
    const patch = [{ op: 'replace', path: '/constraints/0/values', value: ['asia'] }];
    await expectNoChange(h, async () => expectError(await h.json('PATCH', `${path}/${ok.id}`, patch), 400, 'ValidationError', /"asia"/), 'checkout');
    await expectNoChange(h, async () => expectError(await h.json('POST', '/api/admin/projects/default/environments/development/default-strategy', bad), 400, 'ValidationError', /"mars"/));
    // A single-value operator is checked by its value; a field without legal values takes anything.
    const single = { name: 'default', constraints: [{ contextName: 'region', operator: 'STR_CONTAINS', values: ['x'] }] };
    await expectNoChange(h, async () => expectError(await h.json('POST', path, single), 400, 'ValidationError', /"x"/), 'checkout');
    await addStrategy(h, 'checkout', 'development', { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['anyone'] }] });
    await addStrategy(h, 'checkout', 'development', { name: 'default', constraints: [{ contextName: 'not-defined', operator: 'IN', values: ['x'] }] });
    // The usage counts see the constraint; dropping the legal values lets the value in.
    expect((await h.json('GET', `${CONTEXT}/region`)).body).toMatchObject({ usedInFeatures: 1, usedInProjects: 1 });
    expect((await h.json('GET', `${CONTEXT}/region/strategies`)).body).toEqual({
      strategies: [{ id: ok.id, projectId: 'default', featureName: 'checkout', strategyName: 'default', environment: 'development' }],
    });
    expect((await h.json('GET', `${CONTEXT}/sessionId/strategies`)).body).toEqual({ strategies: [] });
    expectError(await h.json('GET', `${CONTEXT}/nope/strategies`), 404, 'NotFoundError', /nope/);
    expectError(await h.json('GET', `${CONTEXT}/a%20b/strategies`), 400, 'ValidationError', /"contextField"/);
    expect((await h.json('PUT', `${CONTEXT}/region`, { legalValues: [] })).status).toBe(200);
    expect((await h.json('POST', path, bad)).status).toBe(200);
  });
});

describe('legal values validate segment constraints', () => {
  test('a segment constraint on a field with legal values must use them (400 naming the value, nothing written), on create and update', async ({ h }) => {
    await createField(h, { name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] });
    const segment = (constraints: unknown[]) => ({ name: 'europe', constraints });
    const created = await h.json('POST', '/api/admin/segments', segment([{ contextName: 'region', operator: 'IN', values: ['eu'] }]));
    expect(created.status).toBe(201);
    const list = async () => (await h.json('GET', '/api/admin/segments')).body;
    const before = await list();
    const bad = segment([{ contextName: 'userId', operator: 'IN', values: ['7'] }, { contextName: 'region', operator: 'IN', values: ['eu', 'mars'] }]);
    expectError(await h.json('PUT', `/api/admin/segments/${created.body.id}`, bad), 400, 'ValidationError', /"constraints\[1\]": "mars" is not a legal value of context field "region"/);
    expectError(await h.json('POST', '/api/admin/segments', { ...bad, name: 'other' }), 400, 'ValidationError', /"mars"/);
    expectError(await h.json('POST', '/api/admin/segments', { ...segment([{ contextName: 'region', operator: 'STR_CONTAINS', values: ['x'] }]), name: 'third' }), 400, 'ValidationError', /"x"/);
    expect(await list()).toEqual(before);
    // A field without legal values, or an undefined one, takes anything.
    expect((await h.json('POST', '/api/admin/segments', { name: 'free', constraints: [{ contextName: 'anything', operator: 'IN', values: ['x'] }] })).status).toBe(201);
  });
});

describe('context fields are state', () => {
  test('they survive a restart, are in the dump, and a restored dump brings them back', async ({ h, tempDir, openHarnessOverTempDir }) => {
    await createField(h, { name: 'region', legalValues: [{ value: 'eu' }] });
    expect((await h.req('DELETE', `${CONTEXT}/currentTime`)).status).toBe(200);
    const before = (await h.json('GET', CONTEXT)).body;
    await h.restart();
    expect((await h.json('GET', CONTEXT)).body).toEqual(before);
    const text = await (await h.req('GET', '/api/admin/state')).text();
    expect(JSON.parse(text).service.state.contextFields.map((f: { name: string }) => f.name)).toEqual(['environment', 'userId', 'appName', 'sessionId', 'region']);
    const target = tempDir('context-restore');
    await restoreDump(target, parseDump(text));
    const restored = await openHarnessOverTempDir({}, target);
    expect((await restored.json('GET', CONTEXT)).body).toEqual(before);
    // The restored service decides with them.
    await createFlag(restored, 'f');
    expectError(await restored.json('POST', strategiesPath('f', 'development'), { name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['us'] }] }), 400, 'ValidationError', /"us"/);
  });
});

const limited = harnessTest({ env: { LIMIT_CONTEXT_FIELDS: '6' } });
limited('LIMIT_CONTEXT_FIELDS bounds the fields, the built-in ones counted (400 ExceedsLimitError, nothing written)', async ({ h }) => {
  await createField(h, { name: 'region' });
  await unchanged(h, async () => expectError(await h.json('POST', CONTEXT, { name: 'tenant' }), 400, 'ExceedsLimitError', /LIMIT_CONTEXT_FIELDS/));
});
