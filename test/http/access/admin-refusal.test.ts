/**
 * A client or frontend token may use no admin route, so every admin route refuses it with 403 before anything
 * of the request is read: no path validation, no project or flag lookup. Its answer is then the same whatever
 * the path names, so it tells nothing about which projects, flags or tokens exist (docs/api-decisions.md
 * "Requests and errors"). Driven by the route records themselves (`ROUTES`), the list the router is built from.
 */
import { describe, expect } from 'vitest';
import { ROUTES } from '../../../src/app.js';
import { positions } from '../../helpers/expect.js';
import { test } from '../../helpers/fixtures.js';
import { createFlag } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createProject } from './access-fixtures.js';

const ADMIN_ROUTES = ROUTES.filter((route) => route.path.startsWith('/api/admin/'));

/**
 * What the path parameters name, one variant at a time: things that exist outside the token's project `a`,
 * one flag name held by two projects, things inside `a`, names that exist nowhere, and texts that break the
 * name rules (a 400 for a caller who may use the route).
 */
const VARIANTS: Record<string, (param: string) => string> = {
  'in another project': (param) => ({ projectId: 'b', featureName: 'only-b', environment: 'development' })[param] ?? 'only-b',
  'in two other projects': (param) => ({ projectId: 'c', featureName: 'shared', environment: 'development' })[param] ?? 'shared',
  "in the token's project": (param) => ({ projectId: 'a', featureName: 'in-a', environment: 'development' })[param] ?? 'in-a',
  'nowhere': () => 'no-such-thing',
  'malformed': () => 'a b',
  'too long': () => 'x'.repeat(101),
};

/** Projects a, b and c; flag `in-a` in a, `only-b` in b, `shared` in both b and c; a client and a frontend token of project a. */
async function arrange(h: Harness): Promise<Record<string, string>> {
  for (const project of ['a', 'b', 'c']) await createProject(h, project);
  await createFlag(h, 'in-a', {}, 'a');
  await createFlag(h, 'only-b', {}, 'b');
  await createFlag(h, 'shared', {}, 'b');
  await createFlag(h, 'shared', {}, 'c');
  const token = async (type: string) => {
    const created = await h.json('POST', '/api/admin/api-tokens', { tokenName: type, type, projects: ['a'], environment: 'development' });
    expect(created.status).toBe(201);
    return created.body.secret as string;
  };
  return { 'client token': await token('client'), 'frontend token': await token('frontend') };
}

describe('admin routes and tokens that may use none of them', () => {
  test('the fixture has the oracle: for an admin token, the flag tags route answers by where a flag exists', async ({ h }) => {
    await arrange(h);
    expect((await h.json('GET', '/api/admin/features/only-b/tags')).status).toBe(200);
    expect((await h.json('GET', '/api/admin/features/shared/tags')).status).toBe(409);
    expect((await h.json('GET', '/api/admin/features/no-such-thing/tags')).status).toBe(404);
    expect((await h.json('GET', '/api/admin/features/a%20b/tags')).status).toBe(400);
  });

  test('every admin route answers 403 NoAccessError, the same for every path, query and body, and writes nothing', async ({ h }) => {
    const tokens = await arrange(h);
    expect(ADMIN_ROUTES.length).toBeGreaterThan(100);
    const before = positions(h);
    const wrong: string[] = [];
    for (const [caller, token] of Object.entries(tokens)) {
      for (const route of ADMIN_ROUTES) {
        const messages = new Set<string>();
        for (const [variant, valueOf] of Object.entries(VARIANTS)) {
          let environment: string | undefined;
          const path = route.path.replace(/:(\w+)/g, (_m, param: string) => {
            const value = valueOf(param);
            if (param === 'environment') environment = value;
            return encodeURIComponent(value);
          });
          // A query no route accepts and a body no schema accepts: neither is read before the 403.
          const body = route.method === 'get' || route.method === 'delete' ? undefined : '{"not": "json"';
          const res = await h.req(route.method.toUpperCase(), `${path}?limit=-1&shouldActivateDisabledStrategies=maybe`, body, { token });
          const answer = await res.json().catch(() => null) as Record<string, unknown> | null;
          const where = `${caller} ${route.method.toUpperCase()} ${route.path} (${variant})`;
          if (res.status !== 403 || answer === null || JSON.stringify(Object.keys(answer).sort()) !== '["id","message","name"]' || answer['name'] !== 'NoAccessError') {
            wrong.push(`${where}: ${res.status} ${JSON.stringify(answer)}`);
            continue;
          }
          const message = String(answer['message']);
          if (!message.includes(`"${route.permission}"`)) wrong.push(`${where}: the message does not name ${route.permission}: ${message}`);
          // The message names the path's environment when its text is a well-formed name (as every 403 does):
          // it depends on the text sent, never on what exists. Nothing else of the path shows.
          if (environment !== undefined && message.includes(' in environment ') && !message.includes(`"${environment}"`)) wrong.push(`${where}: names another environment: ${message}`);
          messages.add(message.replace(/ in environment "[^"]*"/, ''));
        }
        if (messages.size > 1) wrong.push(`${caller} ${route.method.toUpperCase()} ${route.path}: the message depends on the path: ${[...messages].join(' | ')}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(positions(h)).toBe(before);
  });
});
