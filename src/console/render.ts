import type { Context } from 'hono';
import { isAllowed, type Permission, type Principal } from '../auth/permissions.js';
import { sessionCsrfToken } from '../auth/session-keys.js';
import { roleById } from '../queries/access.query.js';
import type { ConsoleDeps, ConsoleEnv } from './console-deps.js';
import type { Frame, Viewer } from './layout.js';

/**
 * A rendered page as the answer: the doctype and the markup (hono/jsx escapes every value it is given), with
 * `status`, or the one already set (a refused form's). The page headers (CSP) were set by the route's first step.
 *
 * @example return renderPage(c, <Layout title="Projects" {...frameOf(c, deps)}>...</Layout>);
 */
export function renderPage(c: Context, page: unknown, status?: number): Response {
  const html = `<!DOCTYPE html>${String(page)}`;
  return status === undefined ? c.html(html) : c.html(html, status as 200);
}

/** How the header names a principal. */
export function viewerOf(principal: Principal): Viewer {
  switch (principal.kind) {
    case 'user': {
      const { user } = principal;
      const role = roleById(user.rootRole);
      return { name: user.name ?? user.username ?? user.email ?? `User ${user.id}`, role: role.ok ? role.value.name : 'User', person: true };
    }
    case 'admin':
      return { name: principal.name, role: 'Admin token', person: false };
    default:
      return { name: principal.name, role: `${principal.kind} token`, person: false };
  }
}

/** The service-wide permissions a page's frame is drawn for (navigation places, admin actions). */
const FRAME_PERMISSIONS: readonly Permission[] = ['READ', 'ADMIN', 'UPDATE_SEGMENT', 'UPDATE_TAG_TYPE', 'UPDATE_DEFINITIONS', 'OWN_ACCOUNT'];

/** The service-wide permissions (outside any project) `principal` has, of those a page frame asks about. */
export function permitsOf(principal: Principal | undefined): ReadonlySet<Permission> {
  if (!principal) return new Set();
  return new Set(FRAME_PERMISSIONS.filter((permission) => isAllowed(principal, permission, undefined)));
}

/** The frame of a page for the request's caller: assets, who is signed in, their session's CSRF token. */
export function frameOf(c: Context<ConsoleEnv>, deps: ConsoleDeps): Frame {
  const principal = c.get('principal') as Principal | undefined;
  const session = c.get('session');
  return {
    assets: deps.assets,
    viewer: principal ? viewerOf(principal) : undefined,
    csrf: session ? sessionCsrfToken(deps.tokenHasher, session.id) : undefined,
    permits: permitsOf(principal),
  };
}

/**
 * A `next` path to go to after sign-in: only a path of this site (`/…`, never `//host` or a scheme), else
 * `/projects`.
 *
 * @example safeNext('/projects/web?q=a') // '/projects/web?q=a'; safeNext('//evil.example') // '/projects'
 */
export function safeNext(next: string | undefined | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.length > 2000) return '/projects';
  // Control characters and backslashes could be read as another host by some browsers.
  if (/[\u0000-\u001f\\]/.test(next)) return '/projects';
  return next;
}
