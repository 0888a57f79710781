/**
 * Segments through HTTP (CLIENT-API "Segments", Unleash 6.10's `/api/admin/segments`): every route's success
 * and error rows, the limits, and who may write global and project segments. How strategies use segments,
 * deletion of a segment in use, the races and durability: test/http/segments-usage.test.ts.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { expectError, positions } from '../helpers/expect.js';
import { test } from '../helpers/fixtures.js';
import { createProject, createUser, grant, MEMBER, OWNER, personalToken, READER } from './access/access-fixtures.js';

const SEGMENTS = '/api/admin/segments';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const IN_PLAN = { contextName: 'plan', operator: 'IN', values: ['beta', 'pro'] };

async function create(on: Harness, body: Record<string, unknown>) {
  const r = await on.json('POST', SEGMENTS, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; name: string; createdAt: string; createdBy: string };
}

/** Runs `act` and asserts it wrote nothing and left the segments as they were. */
async function unchanged(on: Harness, act: () => Promise<unknown>): Promise<void> {
  const before = [positions(on), (await on.json('GET', SEGMENTS)).body];
  await act();
  expect([positions(on), (await on.json('GET', SEGMENTS)).body]).toEqual(before);
}

describe('POST /api/admin/segments', () => {
  test('answers 201 with the segment: ids from 1, description null, project null, constraints with their defaults', async ({ h }) => {
    const r = await h.json('POST', SEGMENTS, { name: 'beta users', constraints: [IN_PLAN, { contextName: 'age', operator: 'NUM_GT', value: 18 }] });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: 1, name: 'beta users', description: null, project: null,
      constraints: [
        { ...IN_PLAN, caseInsensitive: false, inverted: false },
        { contextName: 'age', operator: 'NUM_GT', value: '18', caseInsensitive: false, inverted: false },
      ],
      createdAt: expect.stringMatching(ISO), createdBy: 'init-admin-token-1',
    });
    expect((await create(h, { name: 'second', description: 'd', project: 'default', constraints: [] }))).toMatchObject({ id: 2, description: 'd', project: 'default' });
  });

  test('bad bodies are 400 naming the property, and write nothing', async ({ h }) => {
    const cases: [unknown, RegExp][] = [
      [{ constraints: [] }, /"name": is required/],
      [{ name: 'a' }, /"constraints": is required/],
      [{ name: '', constraints: [] }, /"name": must not be empty/],
      [{ name: 'x'.repeat(101), constraints: [] }, /"name": must be at most 100 characters/],
      [{ name: 'a', constraints: [{ contextName: 'plan', operator: 'IN', values: [] }] }, /"constraints.0.values": operator IN needs at least one non-empty value/],
      [{ name: 'a', constraints: [{ contextName: 'v', operator: 'SEMVER_EQ', value: '1' }] }, /"constraints.0.value"/],
      [{ name: 'a', constraints: [{ contextName: 'plan', operator: 'NOPE', values: ['x'] }] }, /"constraints.0.operator"/],
      [{ name: 'a', constraints: {} }, /"constraints": must be an array of constraints/],
      [{ name: 'a', constraints: [], project: 'a b' }, /"project"/],
      [{ name: 'a', constraints: [], extra: 1 }, /"extra": is not a known property/],
      [[{ name: 'a', constraints: [] }], /"name": is required/],
    ];
    for (const [body, message] of cases) {
      await unchanged(h, async () => expectError(await h.json('POST', SEGMENTS, body), 400, 'ValidationError', message));
    }
  });

  test('reserved names are refused (400)', async ({ h }) => {
    for (const name of ['__proto__', 'constructor', 'toString', 'prototype']) {
      await unchanged(h, async () => expectError(await h.json('POST', SEGMENTS, { name, constraints: [] }), 400, 'ValidationError', /"name": must not be/));
    }
    await unchanged(h, async () => expectError(await h.json('POST', SEGMENTS, { name: 'a', constraints: [{ contextName: '__proto__', operator: 'IN', values: ['x'] }] }), 400, 'ValidationError', /"constraints.0.contextName"/));
  });

  test('a name in use is 409 NameExistsError (names are case-sensitive)', async ({ h }) => {
    await create(h, { name: 'beta', constraints: [] });
    await unchanged(h, async () => expectError(await h.json('POST', SEGMENTS, { name: 'beta', project: 'default', constraints: [] }), 409, 'NameExistsError', /"beta"/));
    await create(h, { name: 'Beta', constraints: [] });
  });

  test('an unknown project is 404', async ({ h }) => {
    await unchanged(h, async () => expectError(await h.json('POST', SEGMENTS, { name: 'a', project: 'nope', constraints: [] }), 404, 'NotFoundError', /"nope"/));
  });

  test('more than 250 constraint values in all is 400 ExceedsLimitError; LIMIT_SEGMENT_VALUES changes it', async ({ h, openHarness }) => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    const body = (n: number) => ({ name: `s${n}`, constraints: [{ contextName: 'a', operator: 'IN', values: values(200) }, { contextName: 'b', operator: 'NOT_IN', values: values(n - 200) }] });
    await create(h, body(250));
    await unchanged(h, async () => expectError(await h.json('POST', SEGMENTS, body(251)), 400, 'ExceedsLimitError', /limited to 250 \(configurable with LIMIT_SEGMENT_VALUES\)/));
    const small = await openHarness({ LIMIT_SEGMENT_VALUES: '3' });
    await create(small, { name: 'ok', constraints: [{ contextName: 'a', operator: 'IN', values: ['1', '2', '3'] }] });
    await unchanged(small, async () => expectError(await small.json('POST', SEGMENTS, { name: 'no', constraints: [{ contextName: 'a', operator: 'IN', values: ['1', '2', '3', '4'] }] }), 400, 'ExceedsLimitError', /LIMIT_SEGMENT_VALUES/));
    const id = (await small.json('GET', SEGMENTS)).body.segments[0].id as number;
    expectError(await small.json('PUT', `${SEGMENTS}/${id}`, { name: 'ok', constraints: [{ contextName: 'a', operator: 'IN', values: ['1', '2', '3', '4'] }] }), 400, 'ExceedsLimitError', /LIMIT_SEGMENT_VALUES/);
  });

  test('the number of segments is limited (LIMIT_SEGMENTS, default 300)', async ({ h, openHarness }) => {
    const small = await openHarness({ LIMIT_SEGMENTS: '2' });
    await create(small, { name: 'a', constraints: [] });
    await create(small, { name: 'b', constraints: [] });
    await unchanged(small, async () => expectError(await small.json('POST', SEGMENTS, { name: 'c', constraints: [] }), 400, 'ExceedsLimitError', /segments is limited to 2 \(configurable with LIMIT_SEGMENTS\)/));
    expect(h.registry.limits.segments).toBe(300);
  });
});

describe('GET /api/admin/segments[/:id]', () => {
  test('lists {segments} by id and gets one; an unknown id is 404, a non-integer one 400', async ({ h }) => {
    expect((await h.json('GET', SEGMENTS)).body).toEqual({ segments: [] });
    const a = await create(h, { name: 'a', constraints: [IN_PLAN] });
    const b = await create(h, { name: 'b', project: 'default', constraints: [] });
    const list = await h.json('GET', SEGMENTS);
    expect(list.status).toBe(200);
    expect(list.body.segments.map((s: { id: number }) => s.id)).toEqual([a.id, b.id]);
    const one = await h.json('GET', `${SEGMENTS}/${b.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(list.body.segments[1]);
    expectError(await h.json('GET', `${SEGMENTS}/99`), 404, 'NotFoundError', /segment with id 99/);
    for (const bad of ['abc', '1.5', '-1', '0', '99999999999999999999']) expectError(await h.json('GET', `${SEGMENTS}/${bad}`), 400, 'ValidationError', /"id"/);
  });
});

describe('PUT /api/admin/segments/:id', () => {
  test('answers 204 and replaces name, description, project and constraints; id, createdAt and createdBy stay', async ({ h }) => {
    const a = await create(h, { name: 'a', description: 'old', constraints: [IN_PLAN] });
    const r = await h.req('PUT', `${SEGMENTS}/${a.id}`, { name: 'renamed', project: 'default', constraints: [] });
    expect(r.status).toBe(204);
    expect(await r.text()).toBe('');
    expect((await h.json('GET', `${SEGMENTS}/${a.id}`)).body).toEqual({ ...a, name: 'renamed', description: null, project: 'default', constraints: [] });
    // A GET echoed back is accepted; without `project` the segment becomes global again, as in Unleash.
    const echoed = { ...(await h.json('GET', `${SEGMENTS}/${a.id}`)).body, description: 'back', usedInFeatures: 0, usedInProjects: 0 };
    delete echoed.project;
    expect((await h.req('PUT', `${SEGMENTS}/${a.id}`, echoed)).status).toBe(204);
    expect((await h.json('GET', `${SEGMENTS}/${a.id}`)).body).toEqual({ ...a, name: 'renamed', description: 'back', project: null, constraints: [] });
  });

  test('an update that changes nothing writes nothing', async ({ h }) => {
    const a = await create(h, { name: 'a', constraints: [IN_PLAN] });
    await unchanged(h, async () => expect((await h.req('PUT', `${SEGMENTS}/${a.id}`, { name: 'a', constraints: [IN_PLAN] })).status).toBe(204));
  });

  test('unknown id 404, non-integer id 400, bad body 400, taken name 409, unknown project 404; nothing changes', async ({ h }) => {
    const a = await create(h, { name: 'a', constraints: [] });
    await create(h, { name: 'b', constraints: [] });
    await unchanged(h, async () => {
      expectError(await h.json('PUT', `${SEGMENTS}/99`, { name: 'x', constraints: [] }), 404, 'NotFoundError', /99/);
      expectError(await h.json('PUT', `${SEGMENTS}/x`, { name: 'x', constraints: [] }), 400, 'ValidationError', /"id"/);
      expectError(await h.json('PUT', `${SEGMENTS}/${a.id}`, { name: 'a' }), 400, 'ValidationError', /"constraints": is required/);
      expectError(await h.json('PUT', `${SEGMENTS}/${a.id}`, { name: 'constructor', constraints: [] }), 400, 'ValidationError', /"name"/);
      expectError(await h.json('PUT', `${SEGMENTS}/${a.id}`, { name: 'b', constraints: [] }), 409, 'NameExistsError', /"b"/);
      expectError(await h.json('PUT', `${SEGMENTS}/${a.id}`, { name: 'a', project: 'nope', constraints: [] }), 404, 'NotFoundError', /"nope"/);
    });
  });
});

describe('DELETE /api/admin/segments/:id', () => {
  test('answers 204; the id is gone and never reused; unknown id 404, non-integer 400', async ({ h }) => {
    const a = await create(h, { name: 'a', constraints: [] });
    const b = await create(h, { name: 'b', constraints: [] });
    const r = await h.req('DELETE', `${SEGMENTS}/${b.id}`);
    expect(r.status).toBe(204);
    expectError(await h.json('GET', `${SEGMENTS}/${b.id}`), 404, 'NotFoundError');
    await unchanged(h, async () => {
      expectError(await h.json('DELETE', `${SEGMENTS}/${b.id}`), 404, 'NotFoundError');
      expectError(await h.json('DELETE', `${SEGMENTS}/b`), 400, 'ValidationError', /"id"/);
    });
    expect((await create(h, { name: 'b', constraints: [] })).id).toBe(b.id + 1);
    expect((await h.json('GET', SEGMENTS)).body.segments.map((s: { id: number }) => s.id)).toEqual([a.id, b.id + 1]);
  });
});

describe('who may write segments', () => {
  /** A personal token of a new user with `rootRole`, and `projectRole` in project `p` when given. */
  async function tokenOf(h: Harness, name: string, rootRole: number, projectRole?: number): Promise<string> {
    const id = await createUser(h, { username: name, rootRole });
    if (projectRole !== undefined) await grant(h, 'p', id, projectRole);
    return personalToken(h, id);
  }

  test('a Reader reads but may not write (403 naming UPDATE_SEGMENT); a client token may do neither', async ({ h }) => {
    await createProject(h, 'p');
    const a = await create(h, { name: 'a', constraints: [] });
    const reader = await tokenOf(h, 'reader', 3, READER);
    expect((await h.json('GET', SEGMENTS, undefined, { token: reader })).status).toBe(200);
    expect((await h.json('GET', `${SEGMENTS}/${a.id}`, undefined, { token: reader })).status).toBe(200);
    await unchanged(h, async () => {
      expectError(await h.json('POST', SEGMENTS, { name: 'b', constraints: [] }, { token: reader }), 403, 'NoAccessError', /"UPDATE_SEGMENT"/);
      expectError(await h.json('PUT', `${SEGMENTS}/${a.id}`, { name: 'b', constraints: [] }, { token: reader }), 403, 'NoAccessError', /"UPDATE_SEGMENT"/);
      expectError(await h.json('DELETE', `${SEGMENTS}/${a.id}`, undefined, { token: reader }), 403, 'NoAccessError', /"UPDATE_SEGMENT"/);
      // The permission is checked before the body: a bad body from a Reader is still a 403.
      expectError(await h.json('POST', SEGMENTS, { bad: true }, { token: reader }), 403, 'NoAccessError');
    });
    const client = (await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['*'], environment: 'development' })).body.secret as string;
    expectError(await h.json('GET', SEGMENTS, undefined, { token: client }), 403, 'NoAccessError', /Client tokens/);
  });

  test('global segments: root Admin and Editor; project segments: UPDATE_PROJECT there (Owner), not a Member', async ({ h }) => {
    await createProject(h, 'p');
    await createProject(h, 'q');
    const editor = await tokenOf(h, 'editor', 2);
    const owner = await tokenOf(h, 'owner', 3, OWNER);
    const member = await tokenOf(h, 'member', 3, MEMBER);
    const global = await h.json('POST', SEGMENTS, { name: 'by-editor', constraints: [] }, { token: editor });
    expect(global.status).toBe(201);
    expect(global.body.createdBy).toBe('editor');
    expectError(await h.json('POST', SEGMENTS, { name: 'x', project: 'p', constraints: [] }, { token: editor }), 403, 'NoAccessError', /"UPDATE_PROJECT" in project "p"/);

    const mine = await h.json('POST', SEGMENTS, { name: 'by-owner', project: 'p', constraints: [] }, { token: owner });
    expect(mine.status).toBe(201);
    expect((await h.req('PUT', `${SEGMENTS}/${mine.body.id}`, { name: 'by-owner', project: 'p', constraints: [IN_PLAN] }, { token: owner })).status).toBe(204);
    await unchanged(h, async () => {
      expectError(await h.json('POST', SEGMENTS, { name: 'x', constraints: [] }, { token: owner }), 403, 'NoAccessError', /"UPDATE_SEGMENT"/);
      expectError(await h.json('POST', SEGMENTS, { name: 'x', project: 'q', constraints: [] }, { token: owner }), 403, 'NoAccessError', /"UPDATE_PROJECT" in project "q"/);
      // Moving it out of the project needs the permission of where it goes, too.
      expectError(await h.json('PUT', `${SEGMENTS}/${mine.body.id}`, { name: 'by-owner', constraints: [] }, { token: owner }), 403, 'NoAccessError', /"UPDATE_SEGMENT"/);
      expectError(await h.json('PUT', `${SEGMENTS}/${global.body.id}`, { name: 'mine now', project: 'p', constraints: [] }, { token: owner }), 403, 'NoAccessError', /"UPDATE_SEGMENT"/);
      expectError(await h.json('DELETE', `${SEGMENTS}/${global.body.id}`, undefined, { token: owner }), 403, 'NoAccessError', /"UPDATE_SEGMENT"/);
      expectError(await h.json('POST', SEGMENTS, { name: 'x', project: 'p', constraints: [] }, { token: member }), 403, 'NoAccessError', /"UPDATE_SEGMENT"/);
    });
    expect((await h.req('DELETE', `${SEGMENTS}/${mine.body.id}`, undefined, { token: owner })).status).toBe(204);
  });
});
