import { describe, expect } from 'vitest';
import { harnessTest } from '../../helpers/fixtures.js';
import { createProject, createUser, grant, membersOf, MEMBER, OWNER, READER } from './access-fixtures.js';

/** Every test starts with project `web` (user 1 its Owner) and user `ada`, who is in no project. */
const it = harnessTest({ arrange: (h) => createProject(h, 'web') }).extend<{ ada: number }>({
  ada: [async ({ h }, use) => { await use(await createUser(h, { email: 'ada@example.com' })); }, { auto: true }],
});

const path = (userId: number, roleId: number, project = 'web') => `/api/admin/projects/${project}/users/${userId}/roles/${roleId}`;

describe('add a user to a project (seed 4.17)', () => {
  it('answers 200 with no body; the access list and the overview count the member', async ({ h, ada }) => {
    const res = await h.req('POST', path(ada, MEMBER));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER, [ada]: MEMBER });
    expect((await h.json('GET', '/api/admin/projects/web')).body.members).toBe(2);
  });

  it('accepts the example body that repeats the path', async ({ h, ada }) => {
    const res = await h.json('POST', path(ada, READER), { userId: ada, projectId: 'web', roleId: READER });
    expect(res.status).toBe(200);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER, [ada]: READER });
  });

  it('answers 400 [{msg}] when the user already has access, whatever the role asked', async ({ h, ada }) => {
    await grant(h, 'web', ada, MEMBER);
    const res = await h.json('POST', path(ada, OWNER));
    expect(res.status).toBe(400);
    expect(res.body).toEqual([{ msg: expect.stringContaining('already has access') }]);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER, [ada]: MEMBER });
  });

  it('lists members with name, email and role', async ({ h, ada }) => {
    await grant(h, 'web', ada, READER);
    const res = await h.json('GET', '/api/admin/projects/web/access');
    expect(res.body.users).toEqual([
      { id: 1, name: 'admin', email: null, username: 'admin', roleId: OWNER },
      { id: ada, name: null, email: 'ada@example.com', username: null, roleId: READER },
    ]);
    expect(res.body.roles.map((r: { id: number }) => r.id)).toEqual([4, 5, 6]);
  });
});

describe('change a role (seed 4.18)', () => {
  it('answers 200 and sets the new role', async ({ h, ada }) => {
    await grant(h, 'web', ada, READER);
    expect((await h.req('PUT', path(ada, OWNER))).status).toBe(200);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER, [ada]: OWNER });
    expect((await h.req('PUT', path(1, MEMBER))).status).toBe(200);
    expect(await membersOf(h, 'web')).toEqual({ 1: MEMBER, [ada]: OWNER });
  });

  it('answers 200 and changes nothing for a user not in the project', async ({ h, ada }) => {
    const res = await h.req('PUT', path(ada, MEMBER));
    expect(res.status).toBe(200);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER });
  });

  it('answers 400 [{msg}] when it would leave no Owner', async ({ h }) => {
    const res = await h.json('PUT', path(1, MEMBER));
    expect(res.status).toBe(400);
    expect(res.body).toEqual([{ msg: 'A project must have at least one owner' }]);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER });
  });
});

describe('remove a user (seed 4.19)', () => {
  it('answers 200 and removes the member', async ({ h, ada }) => {
    await grant(h, 'web', ada, MEMBER);
    expect((await h.req('DELETE', path(ada, MEMBER))).status).toBe(200);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER });
    expect((await h.json('GET', '/api/admin/projects/web')).body.members).toBe(1);
  });

  it('answers 400 [{msg}] when the user does not hold that role, or is not in the project', async ({ h, ada }) => {
    await grant(h, 'web', ada, MEMBER);
    const wrongRole = await h.json('DELETE', path(ada, READER));
    expect(wrongRole.status).toBe(400);
    expect(wrongRole.body).toEqual([{ msg: expect.stringContaining('does not have role') }]);
    const other = await createUser(h, { email: 'bob@example.com' });
    expect((await h.json('DELETE', path(other, MEMBER))).status).toBe(400);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER, [ada]: MEMBER });
  });

  it('answers 400 [{msg}] when removing the only Owner', async ({ h, ada }) => {
    const res = await h.json('DELETE', path(1, OWNER));
    expect(res.status).toBe(400);
    expect(res.body).toEqual([{ msg: 'A project must have at least one owner' }]);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER });
  });
});

describe('bad users, roles and projects', () => {
  it.for(['POST', 'PUT', 'DELETE'])('%s: unknown user 404, unknown role 404, root role 400 [{msg}] naming roleId, unknown project 404', async (method, { h, ada }) => {
    const unknownUser = await h.json(method, path(99, MEMBER));
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body.message).toContain('user');
    const unknownRole = await h.json(method, path(ada, 7));
    expect(unknownRole.status).toBe(404);
    expect(unknownRole.body.message).toContain('role');
    const rootRole = await h.json(method, path(ada, 1));
    expect(rootRole.status).toBe(400);
    // Every 400 of the project-user routes has the seed's `[{msg}]` body (API-DECISIONS "Errors").
    expect(rootRole.body).toEqual([{ msg: expect.stringContaining('"roleId"') }]);
    expect((await h.json(method, path(ada, MEMBER, 'nope'))).status).toBe(404);
    const badId = await h.json(method, `/api/admin/projects/web/users/x/roles/${MEMBER}`);
    expect(badId.status).toBe(400);
    expect(badId.body).toEqual([{ msg: expect.stringContaining('"userId"') }]);
    const badBody = await h.json(method, path(ada, MEMBER), '{not json', { headers: { 'content-type': 'application/json' } });
    expect(badBody.status).toBe(400);
    expect(badBody.body).toEqual([{ msg: expect.stringContaining('not valid JSON') }]);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER });
  });

  it('GET access of an unknown project: 404', async ({ h }) => {
    expect((await h.json('GET', '/api/admin/projects/nope/access')).status).toBe(404);
  });
});

describe('the at-least-one-Owner rule under parallel requests', () => {
  it('demoting both of two Owners at once: exactly one succeeds', async ({ h, ada }) => {
    await grant(h, 'web', ada, OWNER);
    const results = await Promise.all([h.json('PUT', path(1, MEMBER)), h.json('PUT', path(ada, MEMBER))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const members = await membersOf(h, 'web');
    expect(Object.values(members).filter((r) => r === OWNER)).toHaveLength(1);
  });

  it('removing both of two Owners at once: exactly one succeeds', async ({ h, ada }) => {
    await grant(h, 'web', ada, OWNER);
    const results = await Promise.all([h.json('DELETE', path(1, OWNER)), h.json('DELETE', path(ada, OWNER))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(Object.values(await membersOf(h, 'web'))).toEqual([OWNER]);
  });

  it('many Owners demoted and removed at once: one Owner is always left', async ({ h, ada }) => {
    await grant(h, 'web', ada, OWNER);
    const ids = [1, ada];
    for (let i = 0; i < 6; i += 1) {
      const id = await createUser(h, { email: `u${i}@example.com` });
      await grant(h, 'web', id, OWNER);
      ids.push(id);
    }
    const results = await Promise.all(ids.map((id, i) => (i % 2 === 0 ? h.json('PUT', path(id, READER)) : h.json('DELETE', path(id, OWNER)))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(ids.length - 1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(1);
    expect(Object.values(await membersOf(h, 'web')).filter((r) => r === OWNER)).toHaveLength(1);
  });
});
