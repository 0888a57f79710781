/** @jsxImportSource hono/jsx */
/**
 * The API token pages (`/admin/tokens`, permission ADMIN): the list paged by the server, creating a client,
 * frontend or admin token over the API's use case (its secret shown once, in the answer to the POST that made it)
 * and revoking one after a confirmation naming it.
 */
import type { Context } from 'hono';
import { tokenList, tokenScopeChoices } from '../../queries/token-list.query.js';
import { FIRST_LIST_PAGE, type ListPageQuery } from '../../schemas/admin-pages.schema.js';
import { looseObject, nonEmptyString } from '../../schemas/common.schema.js';
import { createApiToken, revokeToken } from '../../use-cases/tokens.use-cases.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { NewTokenForm } from '../forms/admin.forms.js';
import { buttonForm } from '../forms/flag.forms.js';
import type { Refusal } from '../forms/form.js';
import { definePage } from '../page.js';
import { adminListPage } from './admin-list.js';
import { renderPage } from '../render.js';
import { SecretOnce } from '../views/tokens/secret-once.js';
import { TokenListPage } from '../views/tokens/token-list-page.js';
import { done, noticeOf } from '../notices.js';

/** `/admin/tokens/:id/revoke`: a token's listing id. */
const TokenIdParamsSchema = looseObject({ id: nonEmptyString(100) });


function listPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, query: ListPageQuery, options: { status?: number; refused?: Refusal<unknown>; secret?: { name: string; value: string } } = {}): Response {
  const { projects, environments } = tokenScopeChoices(deps.registry);
  const secret = options.secret
    ? <SecretOnce title={`Token "${options.secret.name}" created`} label="Token secret" value={options.secret.value} what="this token's secret"
        use="Give it to the application as its API token (the Authorization header)." />
    : undefined;
  return renderPage(c, (
    <TokenListPage list={tokenList(deps.registry, query)} q={query.q} projects={projects} environments={environments}
      notice={noticeOf('tokens', query.done)} refused={options.refused} secret={secret} />
  ), options.status);
}


export const tokenPages = [
  adminListPage('/admin/tokens', 'The API token list (`?q=` finds by name, type or project; `?page=`)', listPage),
  definePage({
    method: 'post', path: '/admin/tokens', permission: 'ADMIN', form: NewTokenForm,
    summary: 'Create an API token (its secret shown once)', success: { status: 201, description: 'The list with the token\'s secret' },
    handle: async ({ c, deps, form, principal }) => {
      const made = await createApiToken(deps.registry, deps.tokenHasher, form, principal);
      if (!made.ok) return made;
      return listPage(c, deps, FIRST_LIST_PAGE, { status: 201, secret: { name: made.value.token.tokenName, value: made.value.secret } });
    },
    refused: ({ c, deps }, refusal) => listPage(c, deps, FIRST_LIST_PAGE, { refused: refusal }),
  }),
  definePage({
    method: 'post', path: '/admin/tokens/:id/revoke', permission: 'ADMIN', params: TokenIdParamsSchema, form: buttonForm('revoke'),
    summary: 'Revoke an API token', success: { status: 303, description: 'Back to the list, with a confirmation' },
    handle: ({ deps, params, principal }) => revokeToken(deps.registry, { id: params.id }, principal),
    done: () => done('/admin/tokens', 'tokens', 'revoked'),
    refused: ({ c, deps }, refusal) => listPage(c, deps, FIRST_LIST_PAGE, { refused: refusal }),
  }),
];
