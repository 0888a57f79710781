/** @jsxImportSource hono/jsx */
/**
 * The API token list (`/admin/tokens`): admin, client and frontend tokens with their scope, found by name and
 * paged by the server, revoked after a confirmation naming the token; the new-token form; a token just made
 * shown once above the list.
 */
import type { Child } from 'hono/jsx';
import type { StoredToken } from '../../../domain/service-state.js';
import type { ListPage } from '../../../queries/paging.js';
import { AdminFrame } from '../admin/admin-frame.js';
import { ListEmpty, ListRows, ListSearch, withQuery } from '../list.js';
import { Csrf, FormAlert, When, type Refusal } from '../form-parts.js';
import { NewTokenForm } from './new-token-form.js';
import { Notice } from '../notice.js';

export interface TokenListProps {
  list: ListPage<StoredToken>;
  q: string;
  projects: { id: string; name: string }[];
  environments: string[];
  notice?: string | undefined;
  refused?: Refusal<unknown> | undefined;
  /** A token just made, shown once. */
  secret?: Child;
}

const TYPE_NAMES: Record<string, string> = { admin: 'Admin', client: 'Client', frontend: 'Frontend' };

function Revoke({ token }: { token: StoredToken }) {
  return (
    <details class="confirm">
      <summary class="button button-small button-danger-outline" aria-label={`Revoke ${token.tokenName}…`}>Revoke…</summary>
      <form method="post" action={`/admin/tokens/${encodeURIComponent(token.id)}/revoke`} class="confirm-panel" aria-label={`Revoke ${token.tokenName}`}>
        <Csrf />
        <p>Revoke the {TYPE_NAMES[token.type]?.toLowerCase() ?? token.type} token <strong>{token.tokenName}</strong>? Every application using it is refused from its next request. This cannot be undone.</p>
        <button type="submit" class="button button-danger">Revoke {token.tokenName}</button>
      </form>
    </details>
  );
}

function Row({ token }: { token: StoredToken }) {
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();
  return (
    <tr>
      <th scope="row">{token.tokenName}</th>
      <td><span class={`badge token-${token.type}`}>{TYPE_NAMES[token.type] ?? token.type}</span></td>
      <td>{token.projects.includes('*') ? <span class="muted">All</span> : token.projects.map((p) => <code class="chip">{p}</code>)}</td>
      <td>{token.environment === '*' ? <span class="muted">All</span> : <code class="chip">{token.environment}</code>}</td>
      <td><When at={token.createdAt} /></td>
      <td>{token.expiresAt === null ? <span class="muted">never</span> : <><When at={token.expiresAt} />{expired ? <span class="badge badge-danger">expired</span> : null}</>}</td>
      <td class="cell-actions"><Revoke token={token} /></td>
    </tr>
  );
}

/** The page. */
export function TokenListPage({ list, q, projects, environments, notice, refused, secret }: TokenListProps) {
  return (
    <AdminFrame title="API tokens" current="tokens" lead="Tokens for SDKs (client), browser and mobile apps (frontend) and scripts (admin). A secret is shown once, when its token is made."
      actions={<NewTokenForm projects={projects} environments={environments} refused={refused} />}>
      <Notice notice={notice} />
      {secret}
      <FormAlert error={refused} form="revoke" />
      <ListSearch action="/admin/tokens" q={q} id="list-q" class="list-search" label="Find tokens" placeholder="Name, type or project" maxlength={200} clear />
      <ListRows list={list} label="API tokens" class="admin-table"
        empty={<ListEmpty title={q === '' ? 'No API tokens yet' : 'No token matches'} card><p class="muted">{q === '' ? 'Create one with "New token".' : `No token's name, type or project contains "${q}".`}</p></ListEmpty>}
        columns={['Name', 'Type', 'Projects', 'Environment', 'Created', 'Expires', <span class="sr-only">Actions</span>]}
        row={(token) => <Row token={token} />} href={(n) => withQuery('/admin/tokens', { q, page: n })} noun={['token', 'tokens']} />
      <p class="hint">When each token was last used is not recorded.</p>
    </AdminFrame>
  );
}
