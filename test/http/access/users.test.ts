import { describe, expect } from 'vitest';
import { test as it } from '../../helpers/fixtures.js';
import { createProject, createUser, grant, membersOf, MEMBER, OWNER, personalToken } from './access-fixtures.js';


describe('GET /api/admin/roles', () => {
  it('lists the six built-in roles with their ids', async ({ h }) => {
    const res = await h.json('GET', '/api/admin/roles');
    expect(res.status).toBe(200);
    expect(res.body.roles.map((r: { id: number; name: string; type: string }) => [r.id, r.name, r.type])).toEqual([
      [1, 'Admin', 'root'], [2, 'Editor', 'root'], [3, 'Viewer', 'root'],
      [4, 'Owner', 'project'], [5, 'Member', 'project'], [6, 'Reader', 'project'],
    ]);
  });

  it('gets one role, 404 for an unknown id, 400 for a non-integer id', async ({ h }) => {
    expect((await h.json('GET', '/api/admin/roles/5')).body).toMatchObject({ id: 5, name: 'Member', type: 'project' });
    const unknown = await h.json('GET', '/api/admin/roles/7');
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
    const bad = await h.json('GET', '/api/admin/roles/x');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('roleId');
  });
});

describe('users', () => {
  it('creates a user (201), lists it and gets it by id', async ({ h }) => {
    const created = await h.json('POST', '/api/admin/user-admin', { email: 'ada@example.com', name: 'Ada', rootRole: 'Editor' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 2, email: 'ada@example.com', name: 'Ada', rootRole: 2, username: null });
    expect(typeof created.body.createdAt).toBe('string');

    const list = await h.json('GET', '/api/admin/user-admin');
    expect(list.status).toBe(200);
    expect(list.body.users.map((u: { id: number }) => u.id)).toEqual([1, 2]);
    expect(list.body.rootRoles.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Editor', 'Viewer']);

    const one = await h.json('GET', '/api/admin/user-admin/2');
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);
  });

  it('defaults the root role to Viewer', async ({ h }) => {
    const res = await h.json('POST', '/api/admin/user-admin', { username: 'bob' });
    expect(res.body).toMatchObject({ username: 'bob', email: null, name: null, rootRole: 3 });
  });

  it.for([
    [{ email: 'not-an-email' }, 'email'],
    [{ name: 'No email' }, 'email'],
    [{ email: 'a@example.com', name: '' }, 'name'],
    [{ email: 'a@example.com', rootRole: 4 }, 'rootRole'],
    [{ email: 'a@example.com', password: 'x' }, 'password'],
  ])('refuses %j with a 400 naming %s', async ([body, property], { h }) => {
    const res = await h.json('POST', '/api/admin/user-admin', body);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain(`"${property}"`);
  });

  it('refuses a second user with the same email or username (409)', async ({ h }) => {
    await createUser(h, { email: 'ada@example.com', username: 'ada' });
    expect((await h.json('POST', '/api/admin/user-admin', { email: 'ADA@example.com' })).status).toBe(409);
    expect((await h.json('POST', '/api/admin/user-admin', { username: 'Ada' })).status).toBe(409);
  });

  it('answers 404 for an unknown user and 400 for a bad id', async ({ h }) => {
    for (const method of ['GET', 'DELETE']) {
      const res = await h.json(method, '/api/admin/user-admin/99');
      expect(res.status).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
      expect((await h.json(method, '/api/admin/user-admin/0')).status).toBe(400);
    }
  });

  it('deletes a user: 200, gone from the list, from every project, and their tokens stop working', async ({ h }) => {
    const id = await createUser(h, { email: 'ada@example.com' });
    await createProject(h, 'web');
    await grant(h, 'web', id, MEMBER);
    await grant(h, 'default', id, OWNER);
    const token = await personalToken(h, id);
    expect((await h.json('GET', '/api/admin/projects/web', undefined, { token })).status).toBe(200);

    expect((await h.json('DELETE', `/api/admin/user-admin/${id}`)).status).toBe(200);
    expect((await h.json('GET', `/api/admin/user-admin/${id}`)).status).toBe(404);
    expect(await membersOf(h, 'web')).toEqual({ 1: OWNER });
    expect(await membersOf(h, 'default')).toEqual({ 1: OWNER });
    expect((await h.json('GET', '/api/admin/projects/web')).body.members).toBe(1);
    expect((await h.json('GET', '/api/admin/projects/web', undefined, { token })).status).toBe(401);
  });

  it('refuses (400) to delete the only Owner of a project and changes nothing', async ({ h }) => {
    const id = await createUser(h, { email: 'ada@example.com' });
    await createProject(h, 'web');
    await grant(h, 'web', id, OWNER);
    expect((await h.json('DELETE', '/api/admin/projects/web/users/1/roles/4')).status).toBe(200);
    await grant(h, 'default', id, MEMBER);

    const res = await h.json('DELETE', `/api/admin/user-admin/${id}`);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain('"web"');
    // Checked before anything is purged: the membership in "default" is still there.
    expect(await membersOf(h, 'default')).toEqual({ 1: OWNER, [id]: MEMBER });
    expect(await membersOf(h, 'web')).toEqual({ [id]: OWNER });
    expect((await h.json('GET', `/api/admin/user-admin/${id}`)).status).toBe(200);
  });

  it('undoes the purges already made when an Owner is demoted while the delete runs', async ({ h }) => {
    const id = await createUser(h, { email: 'ada@example.com' });
    for (const project of ['a', 'b']) {
      await createProject(h, project);
      await grant(h, project, id, OWNER);
    }
    // The race, made certain: as project "a" receives the purge, user 1 leaves "b", so "b" now has the
    // user as its only Owner although the check before the purges saw two.
    const a = h.registry.project('a')!;
    const send = a.send.bind(a);
    a.send = async (command, by) => {
      if (command.type === 'member.purge') await h.registry.project('b')!.send({ type: 'member.remove', userId: 1, roleId: OWNER }, 'test');
      return send(command, by);
    };
    const res = await h.json('DELETE', `/api/admin/user-admin/${id}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"b"');
    expect(await membersOf(h, 'a')).toEqual({ 1: OWNER, [id]: OWNER });
    expect(await membersOf(h, 'b')).toEqual({ [id]: OWNER });
    expect((await h.json('GET', `/api/admin/user-admin/${id}`)).status).toBe(200);
  });

  it('refuses to delete user 1 while they are the only Owner of "default"', async ({ h }) => {
    expect((await h.json('DELETE', '/api/admin/user-admin/1')).status).toBe(400);
  });
});
