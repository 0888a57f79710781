import { PROJECT_MEMBER, PROJECT_OWNER, PROJECT_READER, ROOT_ADMIN, ROOT_EDITOR, ROOT_VIEWER } from '../domain/roles.js';
import type { User } from '../domain/service-state.js';

/** What a route needs (docs/permissions.md lists which route needs which). */
export type Permission =
  | 'READ'
  | 'CREATE_FEATURE'
  | 'UPDATE_FEATURE'
  | 'DELETE_FEATURE'
  | 'CREATE_FEATURE_STRATEGY'
  | 'UPDATE_FEATURE_STRATEGY'
  | 'DELETE_FEATURE_STRATEGY'
  | 'UPDATE_FEATURE_ENVIRONMENT'
  | 'UPDATE_FEATURE_VARIANTS'
  | 'UPDATE_PROJECT'
  | 'PROJECT_USER_ACCESS'
  /** Create, change or delete a global segment (a project's segments need `UPDATE_PROJECT` there). */
  | 'UPDATE_SEGMENT'
  /** Create, change or delete a tag type (service-wide): root Admins and Editors, as Unleash 6.10's `*_TAG_TYPE`. */
  | 'UPDATE_TAG_TYPE'
  /**
   * Create, change or delete a context field or a strategy definition (service-wide): root Admins and Editors, as
   * Unleash 6.10's `*_CONTEXT_FIELD` and `*_STRATEGY` permissions.
   */
  | 'UPDATE_DEFINITIONS'
  /** Create, change or delete an addon (an integration): root Admins and Editors, as Unleash 6.10's `*_ADDON` permissions. */
  | 'UPDATE_ADDONS'
  | 'ADMIN'
  /** What a user does to their own account (their password): any user, by personal token or session; no API token. */
  | 'OWN_ACCOUNT'
  /** The client (SDK) API: client tokens and admin tokens only, never a user's personal token (as Unleash). */
  | 'CLIENT_API'
  /** Read evaluated flags through `/api/frontend`: frontend tokens (in their scope) and admin tokens. */
  | 'FRONTEND_API'
  /** OFREP bulk evaluation and its event stream: client, frontend and admin tokens (docs/client-contract.md "OpenFeature (OFREP)"). */
  | 'EVALUATE'
  /** Anyone, without a token (`authentication: 'none'` routes: `POST /edge/validate`, as Unleash's `NONE`). */
  | 'NONE';

/** Who is calling, resolved from the `Authorization` header. */
export type Principal =
  | { kind: 'admin'; name: string }
  /** A client (SDK) token: it reads the flags of its projects (or all, `*`) in its one environment. */
  | { kind: 'client'; name: string; projects: readonly string[]; environment: string }
  /** A frontend token: the enabled flags of its projects (or all, `*`) in its one environment, evaluated by the server. */
  | { kind: 'frontend'; name: string; projects: readonly string[]; environment: string }
  | { kind: 'user'; user: User; tokenName: string };

/** The permissions each project role grants. */
export const ROLE_PERMISSIONS: Record<number, ReadonlySet<Permission>> = {
  [PROJECT_OWNER]: new Set<Permission>([
    'READ', 'CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE', 'CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_STRATEGY',
    'DELETE_FEATURE_STRATEGY', 'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_VARIANTS', 'UPDATE_PROJECT', 'PROJECT_USER_ACCESS',
  ]),
  [PROJECT_MEMBER]: new Set<Permission>([
    'READ', 'CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE', 'CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_STRATEGY',
    'DELETE_FEATURE_STRATEGY', 'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_VARIANTS',
  ]),
  [PROJECT_READER]: new Set<Permission>(['READ']),
};

/** The project role a root role acts as in every project. */
const ROOT_AS_PROJECT: Record<number, number> = { [ROOT_EDITOR]: PROJECT_MEMBER, [ROOT_VIEWER]: PROJECT_READER };

const RANK: Record<number, number> = { [PROJECT_READER]: 1, [PROJECT_MEMBER]: 2, [PROJECT_OWNER]: 3 };

/** The stronger of a user's project role and what their root role acts as. */
export function effectiveProjectRole(rootRole: number, projectRole: number | undefined): number {
  const fromRoot = ROOT_AS_PROJECT[rootRole] ?? PROJECT_READER;
  if (projectRole === undefined) return fromRoot;
  return (RANK[projectRole] ?? 0) >= (RANK[fromRoot] ?? 0) ? projectRole : fromRoot;
}

/**
 * Whether `principal` may do what needs `permission`; `projectRole` is the user's role in the project the
 * route addresses (undefined for none or for routes outside a project).
 */
export function isAllowed(principal: Principal, permission: Permission, projectRole: number | undefined): boolean {
  if (permission === 'NONE') return true;
  if (permission === 'OWN_ACCOUNT') return principal.kind === 'user';
  switch (principal.kind) {
    case 'admin':
      return true;
    case 'client':
      return permission === 'CLIENT_API' || permission === 'EVALUATE';
    case 'frontend':
      return permission === 'FRONTEND_API' || permission === 'EVALUATE';
    case 'user': {
      if (permission === 'CLIENT_API' || permission === 'FRONTEND_API' || permission === 'EVALUATE') return false;
      if (principal.user.rootRole === ROOT_ADMIN) return true;
      if (permission === 'ADMIN') return false;
      // Global segments belong to no project: root Editors may write them (as in Unleash 6.10), no project role grants it.
      if (permission === 'UPDATE_SEGMENT') return principal.user.rootRole === ROOT_EDITOR;
      if (permission === 'UPDATE_TAG_TYPE' || permission === 'UPDATE_DEFINITIONS' || permission === 'UPDATE_ADDONS') return principal.user.rootRole === ROOT_EDITOR;
      return ROLE_PERMISSIONS[effectiveProjectRole(principal.user.rootRole, projectRole)]?.has(permission) ?? false;
    }
  }
}

/**
 * Whether `principal` may create, change or delete a segment of `project` (null: a global segment), given
 * its role there: `UPDATE_SEGMENT` for a global segment, `UPDATE_PROJECT` in the project for a project's.
 * Answers the 403 message, or null when allowed.
 */
export function segmentWriteRefusal(principal: Principal, project: string | null, projectRole: number | undefined): string | null {
  if (project === null) return isAllowed(principal, 'UPDATE_SEGMENT', undefined) ? null : noAccessMessage('UPDATE_SEGMENT');
  return isAllowed(principal, 'UPDATE_PROJECT', projectRole) ? null : `You need the permission "UPDATE_PROJECT" in project "${project}" to write its segments`;
}

/**
 * Whether `principal` may write some segment, given its roles in every project: the pipeline's check before
 * the body names the segment's project (see {@link segmentWriteRefusal} for the segment at hand).
 */
export function mayWriteSomeSegment(principal: Principal, projectRoles: Iterable<number | undefined>): boolean {
  if (isAllowed(principal, 'UPDATE_SEGMENT', undefined) || isAllowed(principal, 'UPDATE_PROJECT', undefined)) return true;
  for (const role of projectRoles) if (isAllowed(principal, 'UPDATE_PROJECT', role)) return true;
  return false;
}

/** The message of a 403: names the permission and, where one applies, the environment. */
export function noAccessMessage(permission: Permission, environment?: string): string {
  return environment
    ? `You need the permission "${permission}" in environment "${environment}" to do this`
    : `You need the permission "${permission}" to do this`;
}

/** How a principal is recorded in the log and the history. */
export function principalLabel(principal: Principal): string {
  switch (principal.kind) {
    case 'admin':
      return `admin-token:${principal.name}`;
    case 'client':
      return `client-token:${principal.name}`;
    case 'frontend':
      return `frontend-token:${principal.name}`;
    case 'user':
      return `user:${principal.user.id}`;
  }
}
