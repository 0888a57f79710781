import { randomUUID } from 'node:crypto';
import { hashSecret, newSecret, secretPrefix } from '../../auth/tokens.js';
import type { ServiceState, StoredToken } from '../../domain/service-state.js';
import { CreateApiTokenSchema, CreatePersonalTokenSchema } from '../../schemas/access.schema.js';
import { IntIdParamSchema, looseObject, nonEmptyString } from '../../schemas/common.schema.js';
import { UserParamsSchema } from '../../schemas/params.schema.js';
import { apiError } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { requireUser } from './users.routes.js';

/** `/api/admin/api-tokens/:id`: a token's listing id (not its secret, not its hash). */
const TokenParamsSchema = looseObject({ id: nonEmptyString(100) });
/** `/api/admin/user-admin/:userId/tokens/:id` */
const PersonalTokenParamsSchema = looseObject({ userId: IntIdParamSchema, id: nonEmptyString(100) });

/** A token as listings show it: never the secret nor its hash, only a short prefix to tell tokens apart. */
export const tokenView = (token: StoredToken) => ({
  id: token.id, tokenName: token.tokenName, type: token.type, projects: token.projects, environment: token.environment,
  createdAt: token.createdAt, expiresAt: token.expiresAt, prefix: token.prefix,
  ...(token.userId === null ? {} : { userId: token.userId }),
});

/** A new token record and its secret; the secret is answered once and never stored, logged or listed. */
function mint(input: Omit<StoredToken, 'id' | 'hash' | 'prefix' | 'createdAt'>): { secret: string; token: StoredToken } {
  const secret = newSecret(input.type, input.projects, input.environment);
  const token: StoredToken = { id: randomUUID(), hash: hashSecret(secret), prefix: secretPrefix(secret), createdAt: new Date().toISOString(), ...input };
  return { secret, token };
}

function futureExpiry(expiresAt: string | undefined): string | null {
  if (expiresAt === undefined) return null;
  if (Date.parse(expiresAt) <= Date.now()) throw apiError('ValidationError', '"expiresAt": must be in the future');
  return expiresAt;
}

/** A client token may only name projects and an environment that exist. */
function checkScope(service: ServiceState, projectExists: (id: string) => boolean, projects: string[], environment: string): void {
  for (const project of projects) {
    if (project !== '*' && !projectExists(project)) throw apiError('NotFoundError', `Could not find project "${project}"`);
  }
  if (environment !== '*' && !service.environments.some((e) => e.name === environment)) {
    throw apiError('NotFoundError', `Could not find environment "${environment}"`);
  }
}

const byCreation = (a: StoredToken, b: StoredToken) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** API tokens (admin and client) and users' personal tokens; every route needs `ADMIN`. */
export const tokenRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: '/api/admin/api-tokens', tag: 'API tokens', permission: 'ADMIN',
    summary: 'Create an admin or client token; the answer is the only place its secret ever appears',
    body: CreateApiTokenSchema, success: { status: 201, description: 'The token with its `secret`' }, errors: ['NotFoundError'],
    handle: async ({ c, body, deps, runService }) => {
      const service = deps.registry.service.state;
      checkScope(service, (id) => deps.registry.project(id) !== undefined, body.projects, body.environment);
      const { secret, token } = mint({
        tokenName: body.tokenName, type: body.type, projects: body.projects, environment: body.environment,
        expiresAt: futureExpiry(body.expiresAt), userId: null,
      });
      await runService({ type: 'token.create', token });
      return c.json({ ...tokenView(token), secret }, 201);
    },
  }),
  defineRoute({
    method: 'get', path: '/api/admin/api-tokens', tag: 'API tokens', permission: 'ADMIN',
    summary: 'List admin and client tokens (no secrets)', success: { status: 200, description: '`{tokens}`' },
    handle: ({ c, deps }) => {
      const tokens = Object.values(deps.registry.service.state.tokens).filter((t) => t.type !== 'personal').sort(byCreation);
      return c.json({ tokens: tokens.map(tokenView) });
    },
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/api-tokens/:id', tag: 'API tokens', permission: 'ADMIN',
    summary: 'Revoke an admin or client token by its id; it is refused from the next request on', params: TokenParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: async ({ c, params, deps, runService }) => {
      const token = Object.values(deps.registry.service.state.tokens).find((t) => t.id === params.id && t.type !== 'personal');
      if (!token) throw apiError('NotFoundError', `Could not find API token "${params.id}"`);
      await runService({ type: 'token.delete', hash: token.hash });
      return c.body(null, 200);
    },
  }),
  defineRoute({
    method: 'post', path: '/api/admin/user-admin/:userId/tokens', tag: 'Users', permission: 'ADMIN',
    summary: 'Create a personal token that acts as the user; the answer is the only place its secret ever appears',
    params: UserParamsSchema, body: CreatePersonalTokenSchema,
    success: { status: 201, description: 'The token with its `secret`' }, errors: ['NotFoundError'],
    handle: async ({ c, params, body, deps, runService }) => {
      requireUser(deps.registry.service.state, params.userId);
      const { secret, token } = mint({
        tokenName: body.description, type: 'personal', projects: ['*'], environment: '*',
        expiresAt: futureExpiry(body.expiresAt), userId: params.userId,
      });
      await runService({ type: 'token.create', token });
      return c.json({ ...tokenView(token), description: token.tokenName, secret }, 201);
    },
  }),
  defineRoute({
    method: 'get', path: '/api/admin/user-admin/:userId/tokens', tag: 'Users', permission: 'ADMIN',
    summary: "List a user's personal tokens (no secrets)", params: UserParamsSchema,
    success: { status: 200, description: '`{tokens}`' }, errors: ['NotFoundError'],
    handle: ({ c, params, deps }) => {
      requireUser(deps.registry.service.state, params.userId);
      const tokens = Object.values(deps.registry.service.state.tokens).filter((t) => t.userId === params.userId).sort(byCreation);
      return c.json({ tokens: tokens.map(tokenView) });
    },
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/user-admin/:userId/tokens/:id', tag: 'Users', permission: 'ADMIN',
    summary: "Revoke one of a user's personal tokens", params: PersonalTokenParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: async ({ c, params, deps, runService }) => {
      const service = deps.registry.service.state;
      requireUser(service, params.userId);
      const token = Object.values(service.tokens).find((t) => t.id === params.id && t.userId === params.userId);
      if (!token) throw apiError('NotFoundError', `User ${params.userId} has no token "${params.id}"`);
      await runService({ type: 'token.delete', hash: token.hash });
      return c.body(null, 200);
    },
  }),
];
