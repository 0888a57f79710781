/**
 * User deletion and membership grants are serialized (the registry's access mailbox): whatever order
 * parallel requests take, no deleted user is ever a member, and every project keeps an Owner. Before, 60
 * rounds of parallel delete + grant left 13 orphan memberships, once a project's only Owner.
 */
import { expect, test } from 'vitest';
import { expectError } from '../helpers/expect.js';
import { harness, type Harness } from '../helpers/harness.js';

const OWNER = 4;
const MEMBER = 5;

async function orphans(h: Harness): Promise<string[]> {
  const users = new Set(Object.keys(h.registry.service.state.users));
  const found: string[] = [];
  for (const id of h.registry.projectIds()) {
    const members = h.registry.project(id)!.state.meta.members;
    for (const user of Object.keys(members)) if (!users.has(user)) found.push(`${id}:${user}`);
    expect(Object.values(members), `project ${id} has an Owner`).toContain(OWNER);
  }
  return found;
}

test('60 rounds of parallel delete, grant and role change leave no deleted user in any project, also after a restart', async () => {
  const h = await harness();
  try {
    for (const id of ['a', 'b', 'c']) expect((await h.json('POST', '/api/admin/projects', { id, name: id })).status).toBe(201);
    for (let round = 0; round < 60; round += 1) {
      const user = (await h.json('POST', '/api/admin/user-admin', { username: `u${round}` })).body.id as number;
      const project = ['a', 'b', 'c'][round % 3]!;
      await Promise.all([
        h.json('POST', `/api/admin/projects/${project}/users/${user}/roles/${round % 2 === 0 ? OWNER : MEMBER}`),
        h.json('DELETE', `/api/admin/user-admin/${user}`),
        h.json('POST', `/api/admin/projects/default/users/${user}/roles/${MEMBER}`),
        h.json('PUT', `/api/admin/projects/${project}/users/${user}/roles/${OWNER}`),
      ]);
      expect(await orphans(h)).toEqual([]);
    }
    await h.restart();
    expect(await orphans(h)).toEqual([]);
  } finally {
    await h.close();
  }
});

test('the last root Admin cannot be deleted, so an admin-token project always gets an Owner', async () => {
  const h = await harness();
  try {
    const other = (await h.json('POST', '/api/admin/user-admin', { username: 'second', rootRole: 1 })).body.id as number;
    // User 1 owns "default"; hand it over, then delete user 1: another Admin remains.
    expect((await h.json('POST', `/api/admin/projects/default/users/${other}/roles/${OWNER}`)).status).toBe(200);
    expect((await h.json('DELETE', '/api/admin/user-admin/1')).status).toBe(200);
    const editor = (await h.json('POST', '/api/admin/user-admin', { username: 'editor', rootRole: 2 })).body.id as number;
    expect((await h.json('POST', `/api/admin/projects/default/users/${editor}/roles/${OWNER}`)).status).toBe(200);
    expectError(await h.json('DELETE', `/api/admin/user-admin/${other}`), 400, 'ValidationError', /last root Admin/);
    expect(h.registry.project('default')!.state.meta.members[String(other)]).toBe(OWNER);
    const created = await h.json('POST', '/api/admin/projects', { id: 'made-by-token', name: 'x' });
    expect(created.status).toBe(201);
    expect(h.registry.project('made-by-token')!.state.meta.members).toEqual({ [other]: OWNER });
  } finally {
    await h.close();
  }
});
