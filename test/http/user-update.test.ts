/**
 * `PUT /api/admin/user-admin/:userId` (Unleash's user update): a root role by id or name, name and email; the last
 * root Admin keeps the role; a refused change writes nothing; the change is durable.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { harness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeEach(async () => { h = await harness(); });
afterEach(async () => { await h.close(); });

describe('PUT /api/admin/user-admin/:userId', () => {
  test('changes the root role (by name too), name and email, read back after a restart', async () => {
    const id = (await h.json('POST', '/api/admin/user-admin', { username: 'bob' })).body.id as number;
    const res = await h.json('PUT', `/api/admin/user-admin/${id}`, { rootRole: 'Editor', name: 'Bob', email: 'bob@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, rootRole: 2, name: 'Bob', email: 'bob@example.com', username: 'bob' });
    await h.restart();
    expect((await h.json('GET', `/api/admin/user-admin/${id}`)).body).toMatchObject({ rootRole: 2, name: 'Bob' });
  });

  test('refuses to take the Admin role from the last root Admin, and an unknown role or user', async () => {
    const refused = await h.json('PUT', '/api/admin/user-admin/1', { rootRole: 3 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('last root Admin');
    expect((await h.json('GET', '/api/admin/user-admin/1')).body.rootRole).toBe(1);
    expect((await h.json('PUT', '/api/admin/user-admin/1', { rootRole: 4 })).status).toBe(400);
    expect((await h.json('PUT', '/api/admin/user-admin/99', { rootRole: 2 })).status).toBe(404);
  });

  test('refuses an email another user has', async () => {
    await h.json('POST', '/api/admin/user-admin', { email: 'ann@example.com' });
    const bob = (await h.json('POST', '/api/admin/user-admin', { username: 'bob' })).body.id as number;
    expect((await h.json('PUT', `/api/admin/user-admin/${bob}`, { email: 'ANN@example.com' })).status).toBe(409);
  });
});
