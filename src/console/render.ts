/**
 * Pages as answers: rendered inside the request's context (Hono's `jsxRenderer`), so the layout and any part
 * of a page read the page's frame (who is signed in, the session's CSRF token, what they may do, the assets)
 * from the request (`useFrame`), computed once per request (`frameOf`), instead of being handed it prop by prop.
 */
import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import { jsxRenderer, RequestContext, useRequestContext } from 'hono/jsx-renderer';
import { jsx } from 'hono/jsx';
import { isAllowed, type Permission, type Principal } from '../auth/permissions.js';
import { sessionCsrfToken } from '../auth/session-keys.js';
import { roleById } from '../queries/access.query.js';
import type { ConsoleEnv, Frame, Viewer } from './console-deps.js';

export type { Frame, Viewer } from './console-deps.js';

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

/** The frame of this request's page, computed the first time it is asked for (the console's parts: `c.get('console')`). */
export function frameOf(c: Context<ConsoleEnv>): Frame {
  const known = c.get('frame');
  if (known) return known;
  const deps = c.get('console');
  const principal = c.get('principal') as Principal | undefined;
  const session = c.get('session');
  const frame = {
    assets: deps.assets,
    viewer: principal ? viewerOf(principal) : undefined,
    csrf: session ? sessionCsrfToken(deps.tokenHasher, session.id) : undefined,
    permits: permitsOf(principal),
  };
  c.set('frame', frame);
  return frame;
}

/** The frame of the page being rendered (inside `renderPage` or `renderFragment`). */
export const useFrame = (): Frame => frameOf(useRequestContext<ConsoleEnv>());

/** The console's renderer: pages with their doctype, htmx fragments without; both inside the request's context. */
const renderer = jsxRenderer(undefined, (c: Context<ConsoleEnv>) => ({ docType: c.get('fragment') !== true }));
const NEXT = async (): Promise<void> => {};

/** Renders `node` with the console's renderer (set on the request the first time). */
function render(c: Context<ConsoleEnv>, node: Child, status: number | undefined): Response {
  void renderer(c, NEXT);
  if (status !== undefined) c.status(status as 200);
  return c.render(node as string) as Response;
}

/**
 * A page as the answer, with `status` or the one already set (a refused form's). The page headers (CSP) were set
 * by its first step.
 *
 * @example return renderPage(c, <ProjectList projects={projects} />);
 */
export function renderPage(c: Context<ConsoleEnv>, page: Child, status?: number): Response {
  return render(c, page, status);
}

/** An htmx fragment (a row of the flag table) as the answer: no doctype, the request's context as a page's. */
export function renderFragment(c: Context<ConsoleEnv>, fragment: Child): Response {
  c.set('fragment', true);
  return render(c, fragment, 200);
}

/**
 * `node` rendered for no one, in a frame of `frame` (a start runs a page's code once, before the first person asks
 * for it: `warm-up.ts`).
 */
export function renderForNoOne(frame: Frame, node: Child): string {
  const context = { get: (key: string) => (key === 'frame' ? frame : undefined) } as unknown as Context;
  return String(jsx(RequestContext.Provider, { value: context }, node));
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
