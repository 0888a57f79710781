/**
 * Seed 4.2 to 4.8, 4.20 and revive through the real HTTP pipeline: the success case of each endpoint and
 * every error row of API-DECISIONS "Errors" that applies to it. Failed requests must leave the project as it was.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { harness, type Harness } from '../helpers/harness.js';
import { UUID, expectError, expectNoChange as noChange } from '../helpers/expect.js';

const P = '/api/admin/projects/default';
const flagPath = (name: string) => `${P}/features/${name}`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let h: Harness;
beforeEach(async () => { h = await harness(); });
afterEach(async () => { await h.close(); });

const seq = () => h.registry.project('default')!.seq;

async function create(name: string, extra: Record<string, unknown> = {}) {
  const r = await h.json('POST', `${P}/features`, { name, ...extra });
  expect(r.status).toBe(201);
  return r;
}

async function addStrategy(flag: string, env: string, body: Record<string, unknown> = { name: 'default' }) {
  const r = await h.json('POST', `${flagPath(flag)}/environments/${env}/strategies`, body);
  expect(r.status).toBe(200);
  return r.body as { id: string; parameters: Record<string, string> };
}

/** Runs `act` and asserts that it changed nothing: same log position, same flag detail (when given). */
const expectNoChange = (act: () => Promise<unknown>, flag?: string) => noChange(h, act, flag);

describe('POST /features (4.3 create)', () => {
  test('answers 201 with the flag record, its defaults and an ETag', async () => {
    const r = await create('checkout');
    expect(r.body).toEqual({
      name: 'checkout', description: '', type: 'release', project: 'default', stale: false,
      impressionData: false, createdAt: expect.stringMatching(ISO), lastSeenAt: null, variants: null,
    });
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
  });

  test('keeps given fields and accepts every flag type', async () => {
    for (const type of ['release', 'experiment', 'operational', 'kill-switch', 'permission']) {
      const r = await create(`f-${type}`, { type, description: 'why', impressionData: true });
      expect(r.body).toMatchObject({ name: `f-${type}`, type, description: 'why', impressionData: true });
    }
  });

  test('a null description is stored as ""', async () => {
    expect((await create('d', { description: null })).body.description).toBe('');
  });

  test('accepts a 100-character URL-friendly name with every unreserved mark', async () => {
    const name = `a-_.!~*'()${'x'.repeat(90)}`;
    expect(name).toHaveLength(100);
    const r = await create(name);
    expect(r.body.name).toBe(name);
    expect((await h.json('GET', flagPath(encodeURIComponent(name)))).status).toBe(200);
  });

  test('names are case-sensitive', async () => {
    await create('Flag');
    await create('flag');
    const list = await h.json('GET', `${P}/features`);
    expect(list.body.features.map((f: { name: string }) => f.name)).toEqual(['Flag', 'flag']);
  });

  test('409 NameExistsError for a used name, archived flags included; nothing changes', async () => {
    await create('taken');
    await expectNoChange(async () => expectError(await h.json('POST', `${P}/features`, { name: 'taken', description: 'other' }), 409, 'NameExistsError', /taken/), 'taken');
    expect((await h.req('DELETE', flagPath('taken'))).status).toBe(202);
    await expectNoChange(async () => expectError(await h.json('POST', `${P}/features`, { name: 'taken' }), 409, 'NameExistsError'), 'taken');
  });

  test.each([
    ['missing name', {}, /"name": is required/],
    ['empty name', { name: '' }, /"name"/],
    ['101 characters', { name: 'x'.repeat(101) }, /"name": must be at most 100/],
    ['a space', { name: 'a b' }, /"name": must be URL-friendly/],
    ['..', { name: '..' }, /"name": must be URL-friendly/],
    ['.', { name: '.' }, /"name": must be URL-friendly/],
    ['%2e%2e', { name: '%2e%2e' }, /"name": must be URL-friendly/],
    ['a slash', { name: 'a/b' }, /"name"/],
    ['unicode', { name: 'flägg' }, /"name"/],
    ['an emoji', { name: '🚩' }, /"name"/],
    ['a number', { name: 5 }, /"name": must be a string/],
    ['unknown type', { name: 'x', type: 'bogus' }, /"type"/],
    ['impressionData as a string', { name: 'x', impressionData: 'true' }, /"impressionData": must be a boolean/],
    ['an unknown field', { name: 'x', colour: 'red' }, /"colour": is not a known property/],
    ['description too long', { name: 'x', description: 'd'.repeat(10_001) }, /"description"/],
    // valibot's strictObject takes an array for an object with index keys; still a 400 naming the property.
    ['an array', [{ name: 'x' }], /"name": is required/],
    ['null', null, /object/],
  ])('400 ValidationError for %s; nothing is created', async (_label, body, message) => {
    await expectNoChange(async () => expectError(await h.json('POST', `${P}/features`, body), 400, 'ValidationError', message));
    expect((await h.json('GET', `${P}/features`)).body.features).toEqual([]);
  });

  test('a ValidationError names every property in details, the first three in its message', async () => {
    const r = await h.json('POST', `${P}/features`, { name: 7, type: 'x', impressionData: 'y', a: 1, b: 2 });
    expectError(r, 400, 'ValidationError', /^"name": .*; "type": .*; "impressionData": .*; and \d+ more$/);
    const more = Number(/and (\d+) more$/.exec(r.body.message)![1]);
    const properties = r.body.details.map((d: { message: string }) => d.message.split(':')[0]);
    expect(properties).toHaveLength(3 + more);
    expect(properties.slice(0, 4)).toEqual(['"name"', '"type"', '"impressionData"', '"a"']);
  });

  test('404 for an unknown project, 401 without a valid token', async () => {
    expectError(await h.json('POST', '/api/admin/projects/nope/features', { name: 'x' }), 404, 'NotFoundError', /nope/);
    expectError(await h.json('POST', `${P}/features`, { name: 'x' }, { token: null }), 401, 'AuthenticationRequired');
    expectError(await h.json('POST', `${P}/features`, { name: 'x' }, { token: 'not-a-token' }), 401, 'AuthenticationRequired');
    expect((await h.json('GET', `${P}/features`)).body.features).toEqual([]);
  });
});

describe('GET /features (4.2 list)', () => {
  test('lists active flags as summaries with version 2, in creation order', async () => {
    await create('one', { type: 'experiment' });
    await create('two');
    await create('gone');
    await addStrategy('two', 'production');
    expect((await h.req('POST', `${flagPath('two')}/environments/production/on`)).status).toBe(200);
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    const r = await h.json('GET', `${P}/features`);
    expect(r.status).toBe(200);
    expect(r.body.version).toBe(2);
    expect(r.body.features).toHaveLength(2);
    expect(r.body.features[0]).toMatchObject({ name: 'one', type: 'experiment', stale: false, createdAt: expect.stringMatching(ISO), lastSeenAt: null });
    expect(r.body.features[1].environments).toEqual([
      { name: 'development', displayName: 'development', enabled: false },
      { name: 'production', displayName: 'production', enabled: true },
    ]);
  });

  test('404 for an unknown project', async () => {
    expectError(await h.json('GET', '/api/admin/projects/nope/features'), 404, 'NotFoundError');
  });
});

describe('GET /features/:featureName (4.4)', () => {
  test('answers the detail: record, archived, environments in order with strategies in sortOrder', async () => {
    await create('f', { description: 'd' });
    const second = await addStrategy('f', 'development', { name: 'userWithId', parameters: { userIds: 'a' }, sortOrder: 5 });
    const first = await addStrategy('f', 'development', { name: 'default', sortOrder: 1 });
    const r = await h.json('GET', flagPath('f'));
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect(r.body).toMatchObject({ name: 'f', description: 'd', project: 'default', archived: false, variants: null, impressionData: false });
    expect(r.body.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect(Object.keys(r.body.environments[0]).sort()).toEqual(['enabled', 'lastSeenAt', 'name', 'sortOrder', 'strategies', 'type']);
    expect(r.body.environments[0].strategies.map((s: { id: string }) => s.id)).toEqual([first.id, second.id]);
    expect(r.body.environments[1]).toEqual({ name: 'production', enabled: false, type: 'production', sortOrder: 2, strategies: [], lastSeenAt: null });
  });

  test('works for an archived flag', async () => {
    await create('old');
    await h.req('DELETE', flagPath('old'));
    const r = await h.json('GET', flagPath('old'));
    expect(r.status).toBe(200);
    expect(r.body.archived).toBe(true);
  });

  test('404 NotFoundError for an unknown flag or project, 400 for a bad name', async () => {
    expectError(await h.json('GET', flagPath('missing')), 404, 'NotFoundError', /missing/);
    expectError(await h.json('GET', '/api/admin/projects/nope/features/x'), 404, 'NotFoundError');
    expectError(await h.json('GET', flagPath('x'.repeat(101))), 400, 'ValidationError', /featureName/);
  });
});

describe('PUT /features/:featureName (4.5)', () => {
  test('replaces description, type, stale and impressionData; omitted ones go back to defaults', async () => {
    const created = await create('f', { description: 'old', type: 'experiment', impressionData: true });
    const r = await h.json('PUT', flagPath('f'), { name: 'f', description: 'new', type: 'kill-switch', stale: true });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...created.body, description: 'new', type: 'kill-switch', stale: true, impressionData: false });
    expect(Number(JSON.parse(r.headers.get('etag')!))).toBeGreaterThan(Number(JSON.parse(created.headers.get('etag')!)));
    const back = await h.json('PUT', flagPath('f'), { name: 'f' });
    expect(back.body).toMatchObject({ description: '', type: 'release', stale: false, impressionData: false });
  });

  test('ignores project, createdAt and lastSeenAt in the body', async () => {
    const created = await create('f');
    const r = await h.json('PUT', flagPath('f'), { name: 'f', project: 'other', createdAt: '2000-01-01T00:00:00.000Z', lastSeenAt: '2000-01-01T00:00:00.000Z' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(created.body);
  });

  test('400 when the name differs from the path, or for unknown fields and wrong types; nothing changes', async () => {
    await create('f', { description: 'keep' });
    for (const body of [{ name: 'g' }, { name: 'f', colour: 1 }, { name: 'f', stale: 'yes' }, { name: 'f', type: 'nope' }, { description: 'x' }]) {
      await expectNoChange(async () => expectError(await h.json('PUT', flagPath('f'), body), 400, 'ValidationError'), 'f');
    }
    expectError(await h.json('PUT', flagPath('f'), { name: 'g' }), 400, 'ValidationError', /"name"/);
  });

  test('If-Match: the current ETag is accepted, a stale one is 412 and changes nothing', async () => {
    const created = await create('f');
    const etag = created.headers.get('etag')!;
    const ok = await h.json('PUT', flagPath('f'), { name: 'f', description: 'one' }, { headers: { 'if-match': etag } });
    expect(ok.status).toBe(200);
    await expectNoChange(async () => {
      expectError(await h.json('PUT', flagPath('f'), { name: 'f', description: 'two' }, { headers: { 'if-match': etag } }), 412, 'PreconditionFailed');
      expectError(await h.json('PUT', flagPath('f'), { name: 'f', description: 'two' }, { headers: { 'if-match': 'garbage' } }), 412, 'PreconditionFailed');
    }, 'f');
    const weak = await h.json('PUT', flagPath('f'), { name: 'f', description: 'three' }, { headers: { 'if-match': `W/${ok.headers.get('etag')}` } });
    expect(weak.status).toBe(200);
    const any = await h.json('PUT', flagPath('f'), { name: 'f', description: 'four' }, { headers: { 'if-match': '*' } });
    expect(any.body.description).toBe('four');
  });

  test('400 ArchivedFeatureError for an archived flag, 404 for an unknown one', async () => {
    await create('f');
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(async () => expectError(await h.json('PUT', flagPath('f'), { name: 'f', description: 'x' }), 400, 'ArchivedFeatureError', /archived/), 'f');
    expectError(await h.json('PUT', flagPath('nope'), { name: 'nope' }), 404, 'NotFoundError');
  });
});

describe('PATCH /features/:featureName (4.6)', () => {
  test('applies operations to the record and answers it', async () => {
    await create('f', { description: 'old' });
    const r = await h.json('PATCH', flagPath('f'), [
      { op: 'test', path: '/description', value: 'old' },
      { op: 'replace', path: '/description', value: 'new' },
      { op: 'replace', path: '/stale', value: true },
      { op: 'replace', path: '/type', value: 'operational' },
      { op: 'copy', from: '/description', path: '/description' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'f', description: 'new', stale: true, type: 'operational' });
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);
    expect((await h.json('GET', flagPath('f'))).body).toMatchObject({ description: 'new', stale: true, type: 'operational' });
  });

  test('removing a field puts it back to its default', async () => {
    await create('f', { description: 'old', impressionData: true });
    const r = await h.json('PATCH', flagPath('f'), [{ op: 'remove', path: '/description' }, { op: 'remove', path: '/impressionData' }]);
    expect(r.body).toMatchObject({ description: '', impressionData: false });
  });

  test('409 PatchTestFailed when a test fails; earlier operations are not kept', async () => {
    await create('f', { description: 'old' });
    await expectNoChange(async () => expectError(await h.json('PATCH', flagPath('f'), [
      { op: 'replace', path: '/description', value: 'new' },
      { op: 'test', path: '/description', value: 'something else' },
    ]), 409, 'PatchTestFailed'), 'f');
  });

  test.each([
    ['/name', [{ op: 'replace', path: '/name', value: 'g' }], /name/],
    ['/project', [{ op: 'replace', path: '/project', value: 'p' }], /project/],
    ['/createdAt', [{ op: 'replace', path: '/createdAt', value: '2000-01-01T00:00:00.000Z' }], /createdAt/],
    ['/lastSeenAt', [{ op: 'add', path: '/lastSeenAt', value: null }], /lastSeenAt/],
    ['a move from /name', [{ op: 'move', from: '/name', path: '/description' }], /name/],
    ['/variants', [{ op: 'add', path: '/variants', value: [] }], /variants/],
    ['the whole document', [{ op: 'replace', path: '', value: {} }], /whole/],
    ['an unknown field', [{ op: 'add', path: '/colour', value: 'red' }], /"colour": is not a known property/],
    ['a wrong type', [{ op: 'replace', path: '/stale', value: 'yes' }], /"stale": must be a boolean/],
    ['an unknown flag type', [{ op: 'replace', path: '/type', value: 'bogus' }], /"type"/],
    ['a missing path', [{ op: 'remove', path: '/nothing/here' }], /JSON Patch/],
    ['__proto__', [{ op: 'add', path: '/__proto__/polluted', value: true }], /__proto__/],
    ['constructor/prototype', [{ op: 'add', path: '/constructor/prototype/polluted', value: true }], /"0.path"/],
    ['a hostile from', [{ op: 'copy', from: '/__proto__', path: '/description' }], /"0.from"/],
    ['a pointer without /', [{ op: 'replace', path: 'description', value: 'x' }], /JSON pointer/],
    ['an unknown op', [{ op: 'merge', path: '/description', value: 'x' }], /"0.op"/],
    ['a replace without value', [{ op: 'replace', path: '/description' }], /"0.value"/],
    ['a move without from', [{ op: 'move', path: '/description' }], /"0.from"/],
    ['an empty document', [], /at least one/],
    ['an object instead of an array', { op: 'replace', path: '/description', value: 'x' }, /array/],
  ])('400 ValidationError for %s; nothing changes', async (_label, body, message) => {
    await create('f', { description: 'keep' });
    await expectNoChange(async () => expectError(await h.json('PATCH', flagPath('f'), body), 400, 'ValidationError', message), 'f');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  test('412 with a stale If-Match, 400 archived, 404 unknown', async () => {
    const created = await create('f');
    await h.json('PATCH', flagPath('f'), [{ op: 'replace', path: '/description', value: 'x' }]);
    const patch = [{ op: 'replace', path: '/description', value: 'y' }];
    await expectNoChange(async () => expectError(await h.json('PATCH', flagPath('f'), patch, { headers: { 'if-match': created.headers.get('etag')! } }), 412, 'PreconditionFailed'), 'f');
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(async () => expectError(await h.json('PATCH', flagPath('f'), patch), 400, 'ArchivedFeatureError'), 'f');
    expectError(await h.json('PATCH', flagPath('nope'), patch), 404, 'NotFoundError');
  });
});

describe('POST /features/:featureName/clone (4.7)', () => {
  test('copies metadata, variants and every strategy with new ids; the clone is disabled everywhere', async () => {
    await create('src', { description: 'desc', type: 'experiment', impressionData: true });
    const rollout = await addStrategy('src', 'development', { name: 'flexibleRollout', parameters: { rollout: 30 }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    const other = await addStrategy('src', 'development', { name: 'flexibleRollout', parameters: { rollout: '10', groupId: 'elsewhere' } });
    const plain = await addStrategy('src', 'production', { name: 'default', title: 'all' });
    expect((await h.req('POST', `${flagPath('src')}/environments/development/on`)).status).toBe(200);
    const variants = await h.json('PUT', `${flagPath('src')}/variants`, [
      { name: 'blue', weightType: 'variable', weight: 500, stickiness: 'userId', payload: { type: 'string', value: 'b' }, overrides: [{ contextName: 'userId', values: ['7'] }] },
      { name: 'red', weightType: 'fix', weight: 100 },
    ]);
    const sourceBefore = (await h.json('GET', flagPath('src'))).body;

    const r = await h.json('POST', `${flagPath('src')}/clone`, { name: 'copy' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'copy', description: 'desc', type: 'experiment', impressionData: true, project: 'default', stale: false, lastSeenAt: null });
    expect(r.body.variants).toEqual(variants.body.variants);
    expect(r.headers.get('etag')).toMatch(/^"\d+"$/);

    const copy = (await h.json('GET', flagPath('copy'))).body;
    expect(copy.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, false]);
    const [dev, prod] = copy.environments;
    expect(dev.strategies).toHaveLength(2);
    expect(dev.strategies[0]).toEqual({ ...rollout, id: expect.stringMatching(UUID), parameters: { ...rollout.parameters, groupId: 'copy' } });
    expect(dev.strategies[1]).toEqual({ ...other, id: expect.stringMatching(UUID) });
    expect(prod.strategies).toEqual([{ ...plain, id: expect.stringMatching(UUID) }]);
    const ids = [...dev.strategies, ...prod.strategies].map((s: { id: string }) => s.id);
    expect(ids).not.toContain(rollout.id);
    expect(ids).not.toContain(other.id);
    expect(ids).not.toContain(plain.id);
    expect((await h.json('GET', flagPath('src'))).body).toEqual(sourceBefore);
  });

  test('replaceGroupId false keeps the source groupId', async () => {
    await create('src');
    await addStrategy('src', 'development', { name: 'flexibleRollout' });
    await h.json('POST', `${flagPath('src')}/clone`, { name: 'copy', replaceGroupId: false });
    const copy = (await h.json('GET', flagPath('copy'))).body;
    expect(copy.environments[0].strategies[0].parameters.groupId).toBe('src');
  });

  test('404 unknown source, 409 name in use (archived too), 400 archived source or bad name; nothing changes', async () => {
    await create('src');
    await create('taken');
    await create('old');
    await h.req('DELETE', flagPath('old'));
    await expectNoChange(async () => {
      expectError(await h.json('POST', `${flagPath('nope')}/clone`, { name: 'x' }), 404, 'NotFoundError');
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'taken' }), 409, 'NameExistsError');
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'src' }), 409, 'NameExistsError');
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'old' }), 409, 'NameExistsError');
      expectError(await h.json('POST', `${flagPath('old')}/clone`, { name: 'fresh' }), 400, 'ArchivedFeatureError');
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: '..' }), 400, 'ValidationError', /"name"/);
      expectError(await h.json('POST', `${flagPath('src')}/clone`, {}), 400, 'ValidationError', /"name": is required/);
      expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'ok', extra: 1 }), 400, 'ValidationError', /"extra"/);
    }, 'src');
    const tag = (await h.json('GET', flagPath('src'))).headers.get('etag')!;
    await h.json('PUT', flagPath('src'), { name: 'src', description: 'moved on' });
    await expectNoChange(async () => expectError(await h.json('POST', `${flagPath('src')}/clone`, { name: 'fresh' }, { headers: { 'if-match': tag } }), 412, 'PreconditionFailed'), 'src');
    expect((await h.json('GET', flagPath('fresh'))).status).toBe(404);
  });
});

describe('DELETE /features/:featureName (4.8 archive)', () => {
  test('answers 202 with no body, also when already archived; the flag leaves the list and overview', async () => {
    await create('f');
    await create('stay');
    const r = await h.req('DELETE', flagPath('f'));
    expect(r.status).toBe(202);
    expect(await r.text()).toBe('');
    const atSeq = seq();
    expect((await h.req('DELETE', flagPath('f'))).status).toBe(202);
    expect(seq()).toBe(atSeq);
    const detail = (await h.json('GET', flagPath('f'))).body;
    expect(detail).toMatchObject({ archived: true, archivedAt: expect.stringMatching(ISO) });
    expect((await h.json('GET', `${P}/features`)).body.features.map((f: { name: string }) => f.name)).toEqual(['stay']);
    expect((await h.json('GET', P)).body.features.map((f: { name: string }) => f.name)).toEqual(['stay']);
  });

  test('keeps the data of the archived flag', async () => {
    await create('f', { description: 'kept' });
    const strategy = await addStrategy('f', 'production');
    await h.req('DELETE', flagPath('f'));
    const detail = (await h.json('GET', flagPath('f'))).body;
    expect(detail.description).toBe('kept');
    expect(detail.environments[1].strategies).toEqual([strategy]);
  });

  test('an archived flag refuses every change with 400 ArchivedFeatureError', async () => {
    await create('f');
    const strategy = await addStrategy('f', 'development');
    await h.req('DELETE', flagPath('f'));
    const env = `${flagPath('f')}/environments/development`;
    const attempts: [string, string, unknown][] = [
      ['PUT', flagPath('f'), { name: 'f' }],
      ['PATCH', flagPath('f'), [{ op: 'replace', path: '/description', value: 'x' }]],
      ['POST', `${env}/strategies`, { name: 'default' }],
      ['PUT', `${env}/strategies/${strategy.id}`, { name: 'default' }],
      ['PATCH', `${env}/strategies/${strategy.id}`, [{ op: 'replace', path: '/title', value: 't' }]],
      ['DELETE', `${env}/strategies/${strategy.id}`, undefined],
      ['POST', `${env}/on`, undefined],
      ['POST', `${env}/off`, undefined],
      ['PUT', `${flagPath('f')}/variants`, [{ name: 'a', weightType: 'variable', weight: 1 }]],
      ['PATCH', `${flagPath('f')}/variants`, [{ op: 'add', path: '/0', value: { name: 'a', weightType: 'variable', weight: 1 } }]],
      ['POST', `${flagPath('f')}/clone`, { name: 'g' }],
    ];
    for (const [method, path, body] of attempts) {
      await expectNoChange(async () => expectError(await h.json(method, path, body), 400, 'ArchivedFeatureError', /archived/), 'f');
    }
  });

  test('404 for an unknown flag, 412 for a stale If-Match', async () => {
    const created = await create('f');
    await h.json('PUT', flagPath('f'), { name: 'f', description: 'changed' });
    expectError(await h.json('DELETE', flagPath('nope')), 404, 'NotFoundError');
    await expectNoChange(async () => expectError(await h.json('DELETE', flagPath('f'), undefined, { headers: { 'if-match': created.headers.get('etag')! } }), 412, 'PreconditionFailed'), 'f');
  });
});

describe('POST /revive', () => {
  test('brings archived flags back disabled everywhere, strategies kept; other names are left alone', async () => {
    await create('f');
    const strategy = await addStrategy('f', 'development');
    expect((await h.req('POST', `${flagPath('f')}/environments/development/on`)).status).toBe(200);
    await create('active', { description: 'untouched' });
    await h.req('DELETE', flagPath('f'));
    const activeBefore = (await h.json('GET', flagPath('active'))).body;
    const r = await h.req('POST', `${P}/revive`, { features: ['f', 'active', 'unknown'] });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    const detail = (await h.json('GET', flagPath('f'))).body;
    expect(detail).toMatchObject({ archived: false, archivedAt: null });
    expect(detail.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, false]);
    expect(detail.environments[0].strategies).toEqual([strategy]);
    expect((await h.json('GET', flagPath('active'))).body).toEqual(activeBefore);
    expect((await h.json('GET', `${P}/features`)).body.features.map((f: { name: string }) => f.name).sort()).toEqual(['active', 'f']);
    expect((await h.json('PUT', flagPath('f'), { name: 'f', description: 'editable again' })).status).toBe(200);
  });

  test.each([
    [{}], [{ features: 'f' }], [{ features: [1] }], [{ features: [''] }], [{ features: ['f'], more: true }], [['f']],
  ])('400 ValidationError naming features for %j; nothing changes', async (body) => {
    await create('f');
    await h.req('DELETE', flagPath('f'));
    await expectNoChange(async () => expectError(await h.json('POST', `${P}/revive`, body), 400, 'ValidationError'), 'f');
  });
});

describe('POST /delete (4.20 batch delete)', () => {
  test('removes the listed archived flags only; 200 with no body; the name becomes free', async () => {
    await create('archived-1');
    await create('archived-2');
    await create('active');
    await create('archived-unlisted');
    for (const name of ['archived-1', 'archived-2', 'archived-unlisted']) await h.req('DELETE', flagPath(name));
    const activeBefore = (await h.json('GET', flagPath('active'))).body;
    const r = await h.req('POST', `${P}/delete`, { features: ['archived-1', 'archived-2', 'active', 'unknown', 'archived-1'] });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
    expect((await h.json('GET', flagPath('archived-1'))).status).toBe(404);
    expect((await h.json('GET', flagPath('archived-2'))).status).toBe(404);
    expect((await h.json('GET', flagPath('active'))).body).toEqual(activeBefore);
    expect((await h.json('GET', flagPath('archived-unlisted'))).body.archived).toBe(true);
    await create('archived-1');
  });

  test('only unknown or active names: 200 and nothing changes', async () => {
    await create('active');
    await expectNoChange(async () => expect((await h.req('POST', `${P}/delete`, { features: ['active', 'ghost'] })).status).toBe(200), 'active');
  });

  test.each([
    ['no features', {}, /"features": is required/],
    ['features a string', { features: 'a' }, /"features"/],
    ['a number in the list', { features: ['a', 2] }, /"features.1"/],
    ['an extra key', { features: [], x: 1 }, /"x"/],
    ['an array body', ['a'], /"features": is required/],
  ])('400 ValidationError for %s; nothing changes', async (_label, body, message) => {
    await create('a');
    await h.req('DELETE', flagPath('a'));
    await expectNoChange(async () => expectError(await h.json('POST', `${P}/delete`, body), 400, 'ValidationError', message), 'a');
  });

  test('401 without a token, 404 for an unknown project', async () => {
    await create('a');
    await h.req('DELETE', flagPath('a'));
    await expectNoChange(async () => {
      expectError(await h.json('POST', `${P}/delete`, { features: ['a'] }, { token: null }), 401, 'AuthenticationRequired');
      expectError(await h.json('POST', '/api/admin/projects/nope/delete', { features: ['a'] }), 404, 'NotFoundError');
    }, 'a');
  });
});
