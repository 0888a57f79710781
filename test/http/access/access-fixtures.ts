import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';

/** Creates a user through the API and returns its id. */
export async function createUser(h: Harness, body: Record<string, unknown>): Promise<number> {
  const res = await h.json('POST', '/api/admin/user-admin', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** Creates a personal token for a user and returns its secret. */
export async function personalToken(h: Harness, userId: number, description = 'test'): Promise<string> {
  const res = await h.json('POST', `/api/admin/user-admin/${userId}/tokens`, { description });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.secret as string;
}

/** Creates a project (as the admin token, so user 1 is its first Owner). */
export async function createProject(h: Harness, id: string): Promise<void> {
  const res = await h.json('POST', '/api/admin/projects', { id, name: id });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** Grants a project role; expects 200. */
export async function grant(h: Harness, projectId: string, userId: number, roleId: number): Promise<void> {
  const res = await h.json('POST', `/api/admin/projects/${projectId}/users/${userId}/roles/${roleId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** `{userId: roleId}` of a project, as `GET .../access` lists them. */
export async function membersOf(h: Harness, projectId: string): Promise<Record<number, number>> {
  const res = await h.json('GET', `/api/admin/projects/${projectId}/access`);
  expect(res.status).toBe(200);
  return Object.fromEntries((res.body.users as { id: number; roleId: number }[]).map((u) => [u.id, u.roleId]));
}

export const OWNER = 4;
export const MEMBER = 5;
export const READER = 6;
