/**
 * What the change-request tests share: the project's paths, turning change requests on, the people who draft,
 * approve and apply (with their personal tokens), and the calls they make.
 */
import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { createUser, grant, MEMBER, OWNER, personalToken, READER } from '../access/access-fixtures.js';

export const P = '/api/admin/projects/default';
export const CR = `${P}/change-requests`;

/** Turns change requests on for `environment` of project `default`, needing `approvals`. */
export async function protect(h: Harness, environment = 'production', approvals = 1): Promise<void> {
  const res = await h.json('PUT', `${P}/environments/${environment}/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: approvals });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Someone with a personal token. */
export interface Person {
  id: number;
  token: string;
}

/** The people of a change-request test: users with project roles in `default` (root Viewers otherwise), an Editor, a root Admin. */
export interface People {
  owner: Person;
  owner2: Person;
  member: Person;
  reader: Person;
  editor: Person;
  admin: Person;
}

export async function people(h: Harness): Promise<People> {
  const person = async (username: string, rootRole: number, projectRole?: number): Promise<Person> => {
    const id = await createUser(h, { username, rootRole });
    if (projectRole !== undefined) await grant(h, 'default', id, projectRole);
    return { id, token: await personalToken(h, id) };
  };
  return {
    owner: await person('olga', 3, OWNER), owner2: await person('oskar', 3, OWNER), member: await person('mia', 3, MEMBER),
    reader: await person('rita', 3, READER), editor: await person('ed', 2), admin: await person('ada', 1),
  };
}

/** Adds `changes` to the caller's draft for `environment`; expects 200 and answers the request. */
export async function draft(h: Harness, changes: unknown, token?: string, environment = 'production'): Promise<any> {
  const res = await h.json('POST', `${P}/environments/${environment}/change-requests`, changes, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** `PUT .../state`; answers status and body. */
export const move = (h: Harness, id: number, body: unknown, token?: string) => h.json('PUT', `${CR}/${id}/state`, body, { token });

/** Moves a request to `state` and expects 200. */
export async function moveOk(h: Harness, id: number, body: Record<string, unknown>, token?: string): Promise<any> {
  const res = await move(h, id, body, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** One change request, as answered. */
export async function requestOf(h: Harness, id: number): Promise<any> {
  const res = await h.json('GET', `${CR}/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** One environment of a flag of `default`, as the flag detail shows it. */
export async function envOf(h: Harness, flag: string, environment = 'production'): Promise<any> {
  const res = await h.json('GET', `${P}/features/${flag}`);
  expect(res.status).toBe(200);
  return res.body.environments.find((e: { name: string }) => e.name === environment);
}
