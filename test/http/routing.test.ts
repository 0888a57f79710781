/**
 * Routing: every route outside the mounted prefixes fits Hono's RegExpRouter (one that does not would send every
 * request through the slower TrieRouter again, see src/app.ts `MOUNTED_PREFIXES`), and a mounted prefix answers
 * what is not its own as the main app does: the same 404 body, and a path that only starts like it is not its.
 * The console's pages sit in a router of their own, asked only when no API route matched (src/app.ts).
 */
import { describe, expect } from 'vitest';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { mountedPrefixOf, ROUTES } from '../../src/app.js';
import { expectError } from '../helpers/expect.js';
import { test } from '../helpers/fixtures.js';

describe('routing', () => {
  test('every route outside the mounted prefixes fits the RegExpRouter; those inside would not', () => {
    const outside = ROUTES.filter((route) => mountedPrefixOf(route.path) === undefined);
    const router = new RegExpRouter<number>();
    outside.forEach((route, i) => router.add(route.method.toUpperCase(), route.path, i));
    expect(() => router.match('GET', '/health')).not.toThrow();
    // The reason for the prefixes: with every route, the router refuses them.
    expect(() => {
      const every = new RegExpRouter<number>();
      ROUTES.forEach((route, i) => every.add(route.method.toUpperCase(), route.path, i));
      every.match('GET', '/health');
    }).toThrow(/environments|context/);
  });

  test('under a mounted prefix, an unknown path answers the 404 of any unknown path; next to it, the main app answers', async ({ h }) => {
    for (const path of ['/api/admin/environments/development/x', '/api/admin/context/x/y/z', '/api/admin/environmentsx', '/api/admin/contexts']) {
      const r = await h.json('GET', path);
      expectError(r, 404, 'NotFoundError', new RegExp(`No route GET ${path}`));
    }
    expect((await h.json('GET', '/api/admin/environments/development')).status).toBe(200);
    expect((await h.json('GET', '/api/admin/context')).status).toBe(200);
  });

  test('the API router holds no page; pages still answer, after it, and an unknown path is the same 404', async ({ h }) => {
    const registered = new Set(h.app.routes.map((r) => `${r.method} ${r.path}`));
    const pages = ROUTES.filter((route) => route.page === true);
    expect(pages.length).toBeGreaterThan(50);
    for (const page of pages) expect(registered.has(`${page.method.toUpperCase()} ${page.path}`)).toBe(false);
    const login = await h.req('GET', '/login', undefined, { token: null });
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toMatch(/text\/html/);
    expect(login.headers.get('x-request-id')).toBeTruthy();
    expect((await h.json('GET', '/api/admin/projects')).status).toBe(200);
    expectError(await h.json('GET', '/api/admin/no-such-thing'), 404, 'NotFoundError', /No route GET \/api\/admin\/no-such-thing/);
    const page404 = await h.req('GET', '/no-such-page', undefined, { token: null, headers: { accept: 'text/html' } });
    expect(page404.status).toBe(404);
    expect(page404.headers.get('content-type')).toMatch(/text\/html/);
  });
});
