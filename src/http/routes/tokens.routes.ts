/** API tokens (admin and client) and users' personal tokens; every route needs `ADMIN`. */
import { secretLabel } from '../../auth/tokens.js';
import type { StoredToken } from '../../domain/service-state.js';
import { apiTokens, personalTokens, userById } from '../../queries/access.query.js';
import { CreateApiTokenSchema, CreatePersonalTokenSchema } from '../../schemas/access.schema.js';
import { IntIdParamSchema, looseObject, nonEmptyString } from '../../schemas/common.schema.js';
import { UserParamsSchema } from '../../schemas/params.schema.js';
import { createApiToken, createPersonalToken, revokeToken } from '../../use-cases/tokens.use-cases.js';
import { ApiError } from '../errors.js';
import { defineRoute, inputOf, type RouteSpec } from '../route.js';
import { CreatedTokenView, TokenListView } from '../answers/views.js';

/** `/api/admin/api-tokens/:id`: a token's listing id (not its secret, not its hash). */
const TokenParamsSchema = looseObject({ id: nonEmptyString(100) });
/** `/api/admin/user-admin/:userId/tokens/:id` */
const PersonalTokenParamsSchema = looseObject({ userId: IntIdParamSchema, id: nonEmptyString(100) });

/**
 * A token as listings show it: never the secret, its hash, nor any part of its random text. `prefix` is the
 * non-secret start every secret of the token has (`<project>:<environment>.` or `user:`), derived from its scope.
 */
export const tokenView = (token: StoredToken) => ({
  id: token.id, tokenName: token.tokenName, type: token.type, projects: token.projects, environment: token.environment,
  createdAt: token.createdAt, expiresAt: token.expiresAt, prefix: secretLabel(token),
  ...(token.userId === null ? {} : { userId: token.userId }),
});

export const tokenRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: '/api/admin/api-tokens', tag: 'API tokens', permission: 'ADMIN',
    summary: 'Create an admin or client token; the answer is the only place its secret ever appears',
    body: CreateApiTokenSchema, success: { status: 201, description: 'The token with its `secret`', schema: CreatedTokenView }, errors: ['NotFoundError'],
    handle: ({ body, principal, registry, deps }) => createApiToken(registry, deps.tokenHasher, body, principal),
    view: ({ token, secret }) => ({ ...tokenView(token), secret }),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/api-tokens', tag: 'API tokens', permission: 'ADMIN',
    summary: 'List admin and client tokens (no secrets)', success: { status: 200, description: '`{tokens}`', schema: TokenListView },
    handle: ({ c, registry }) => c.json({ tokens: apiTokens(registry).map(tokenView) }),
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/api-tokens/:id', tag: 'API tokens', permission: 'ADMIN',
    summary: 'Revoke an admin or client token by its id; it is refused from the next request on', params: TokenParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => revokeToken(registry, { id: params.id }, principal),
  }),
  defineRoute({
    method: 'post', path: '/api/admin/user-admin/:userId/tokens', tag: 'Users', permission: 'ADMIN',
    summary: 'Create a personal token that acts as the user; the answer is the only place its secret ever appears',
    params: UserParamsSchema, body: CreatePersonalTokenSchema,
    success: { status: 201, description: 'The token with its `secret`', schema: CreatedTokenView }, errors: ['NotFoundError'],
    handle: ({ params, body, principal, registry, deps }) => createPersonalToken(registry, deps.tokenHasher, inputOf(params, body), principal),
    view: ({ token, secret }) => ({ ...tokenView(token), description: token.tokenName, secret }),
  }),
  defineRoute({
    method: 'get', path: '/api/admin/user-admin/:userId/tokens', tag: 'Users', permission: 'ADMIN',
    summary: "List a user's personal tokens (no secrets)", params: UserParamsSchema,
    success: { status: 200, description: '`{tokens}`', schema: TokenListView }, errors: ['NotFoundError'],
    handle: ({ c, params, registry }) => {
      const user = userById(registry, params.userId);
      if (!user.ok) throw new ApiError(user.error);
      return c.json({ tokens: personalTokens(registry, params.userId).map(tokenView) });
    },
  }),
  defineRoute({
    method: 'delete', path: '/api/admin/user-admin/:userId/tokens/:id', tag: 'Users', permission: 'ADMIN',
    summary: "Revoke one of a user's personal tokens", params: PersonalTokenParamsSchema,
    success: { status: 200, description: 'No body' }, errors: ['NotFoundError'],
    handle: ({ params, principal, registry }) => revokeToken(registry, params, principal),
  }),
];
