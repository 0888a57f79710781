/** @jsxImportSource hono/jsx */
/**
 * The API token pages (`/admin/tokens`, permission ADMIN): the list paged by the server, creating a client,
 * frontend or admin token over the API's use case (its secret shown once, in the answer to the POST that made it)
 * and revoking one after a confirmation naming it.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { tokenList, tokenScopeChoices } from '../../../queries/token-list.query.js';
import { CreateApiTokenSchema } from '../../../schemas/access.schema.js';
import { fieldNamed, ListPageQuerySchema, type ListPageQuery } from '../../../schemas/admin-pages.schema.js';
import { looseObject, nonEmptyString } from '../../../schemas/common.schema.js';
import { formatIssues } from '../../../schemas/issues.js';
import { createApiToken, revokeToken } from '../../../use-cases/tokens.use-cases.js';
import { defineRoute, type AppDeps, type AppEnv, type RouteSpec } from '../../route.js';
import { frameOf, renderPage } from '../render.js';
import type { PageError } from '../views/flag/form-parts.js';
import { SecretOnce } from '../views/tokens/secret-once.js';
import { TokenListPage } from '../views/tokens/token-list-page.js';

/** `/admin/tokens/:id/revoke`: a token's listing id. */
const TokenIdParamsSchema = looseObject({ id: nonEmptyString(100) });

const NOTICES: Record<string, string> = { revoked: 'Token revoked.' };
const TOKEN_FIELDS = ['tokenName', 'type', 'projects', 'environment', 'expiresAt'] as const;

function listPage(c: Context<AppEnv>, deps: AppDeps, query: ListPageQuery, options: { status?: number; refused?: PageError; secret?: { name: string; value: string } } = {}): Response {
  const { projects, environments } = tokenScopeChoices(deps.registry);
  const secret = options.secret
    ? <SecretOnce assets={deps.console.assets} title={`Token "${options.secret.name}" created`} label="Token secret" value={options.secret.value} what="this token's secret"
        use="Give it to the application as its API token (the Authorization header)." />
    : undefined;
  return renderPage(c, (
    <TokenListPage frame={frameOf(c, deps)} list={tokenList(deps.registry, query)} q={query.q} projects={projects} environments={environments}
      notice={query.done !== undefined && Object.hasOwn(NOTICES, query.done) ? NOTICES[query.done] : undefined} refused={options.refused} secret={secret} />
  ), options.status ?? 200);
}

/** The API body the form stands for: checked projects (`project:<id>` fields), `*` for all; an admin token's scope is all. */
function bodyOf(form: Record<string, string>) {
  const type = form['type'] ?? 'client';
  const checked = Object.keys(form).filter((k) => k.startsWith('project:')).map((k) => k.slice('project:'.length));
  const projects = checked.includes('*') ? ['*'] : checked;
  const expires = (form['expiresAt'] ?? '').trim();
  return {
    tokenName: (form['tokenName'] ?? '').trim(), type,
    ...(type === 'admin' ? {} : { projects, environment: form['environment'] ?? '' }),
    ...(expires === '' ? {} : { expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(expires) ? `${expires}T23:59:59Z` : expires }),
  };
}

export const tokenPages: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/admin/tokens', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'The API token list (`?q=` finds by name, type or project; `?page=`)', query: ListPageQuerySchema, success: { status: 200, description: 'An HTML page' },
    handle: ({ c, deps, query }) => listPage(c, deps, query),
  }),
  defineRoute({
    method: 'post', path: '/admin/tokens', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'Create an API token (its secret shown once)', success: { status: 201, description: 'The list with the token\'s secret' },
    handle: async ({ c, deps, principal }) => {
      const form = c.get('form') ?? {};
      const { _csrf: _token, ...values } = form;
      const refuse = (status: number, message: string) =>
        listPage(c, deps, { q: '', page: 1 }, { status, refused: { form: 'new-token', field: fieldNamed(message, TOKEN_FIELDS) ?? (/project/i.test(message) ? 'projects' : null), message, values } });
      const body = bodyOf(form);
      if (body.projects?.length === 0) return refuse(400, '"projects": choose at least one project, or all');
      const parsed = v.safeParse(CreateApiTokenSchema, body);
      if (!parsed.success) return refuse(400, formatIssues(parsed.issues).message);
      const made = await createApiToken(deps.registry, deps.tokenHasher, parsed.output, principal);
      if (!made.ok) return refuse(made.error.kind === 'NotFoundError' ? 404 : 400, made.error.message);
      return listPage(c, deps, { q: '', page: 1 }, { status: 201, secret: { name: made.value.token.tokenName, value: made.value.secret } });
    },
  }),
  defineRoute({
    method: 'post', path: '/admin/tokens/:id/revoke', tag: 'Console', permission: 'ADMIN', authentication: 'session', page: true,
    summary: 'Revoke an API token', params: TokenIdParamsSchema, success: { status: 303, description: 'Back to the list, with a confirmation' },
    handle: async ({ c, deps, params, principal }) => {
      const revoked = await revokeToken(deps.registry, { id: params.id }, principal);
      if (!revoked.ok) return listPage(c, deps, { q: '', page: 1 }, { status: 404, refused: { form: 'revoke', field: null, message: revoked.error.message, values: {} } });
      return c.redirect('/admin/tokens?done=revoked', 303);
    },
  }),
];
