/** @jsxImportSource hono/jsx */
/**
 * A person's own page (`/account`): who they are, their password (the current one first), their personal access
 * tokens (made with the secret shown once, listed, revoked after a confirmation naming the token) and signing out
 * of every session.
 */
import type { Child } from 'hono/jsx';
import type { StoredToken, User } from '../../../domain/service-state.js';
import { Layout } from '../../layout.js';
import type { PersonalTokenForm } from '../../forms/account.forms.js';
import type { FormDraft } from '../../forms/form.js';
import { Csrf, errorAttrs, FieldError, FormAlert, refusedIn, When, type Refusal } from '../form-parts.js';
import { Notice } from '../notice.js';

export interface AccountPageProps {
  user: User;
  roleName: string;
  /** Whether they have a password (else they set a first one, without a current one). */
  hasPassword: boolean;
  tokens: StoredToken[];
  notice?: string | undefined;
  refused?: Refusal<unknown> | undefined;
  /** A personal token's secret just made, shown once. */
  secret?: Child;
}

function PasswordField({ id, label, autocomplete, error, hint }: { id: string; label: string; autocomplete: string; error: Refusal<unknown> | undefined; hint?: string }) {
  return (
    <div class="field">
      <label for={`account-${id}`}>{label}</label>
      <input id={`account-${id}`} name={id} type="password" autocomplete={autocomplete} required maxlength={256} {...errorAttrs(error, 'password', id, `account-${id}`, hint ? `account-${id}-hint` : undefined)} />
      {hint ? <p class="hint" id={`account-${id}-hint`}>{hint}</p> : null}
      <FieldError error={error} form="password" field={id} id={`account-${id}`} />
    </div>
  );
}

function PasswordCard({ user, hasPassword, error }: { user: User; hasPassword: boolean; error: Refusal<unknown> | undefined }) {
  return (
    <section class="card" aria-labelledby="password-title">
      <h2 id="password-title" class="section-title">{hasPassword ? 'Change password' : 'Set a password'}</h2>
      <form method="post" action="/account/password" class="form-stack">
        <Csrf />
        <FormAlert error={error} form="password" />
        <input type="text" name="username" value={user.username ?? user.email ?? ''} autocomplete="username" hidden readonly />
        {hasPassword ? <PasswordField id="currentPassword" label="Current password" autocomplete="current-password" error={error} /> : <p class="muted">You sign in with a token. A password lets you sign in with your username.</p>}
        <PasswordField id="password" label="New password" autocomplete="new-password" error={error} hint="At least 8 characters, not your username or email, not a common password." />
        <PasswordField id="confirmPassword" label="Repeat the new password" autocomplete="new-password" error={error} />
        <p class="hint">Your other sessions signed in with the old password end; this one goes on.</p>
        <div class="form-actions"><button type="submit" class="button button-primary">Save password</button></div>
      </form>
    </section>
  );
}

function TokenRow({ token }: { token: StoredToken }) {
  return (
    <tr>
      <th scope="row">{token.tokenName}</th>
      <td><When at={token.createdAt} /></td>
      <td>{token.expiresAt ? <When at={token.expiresAt} /> : <span class="muted">never</span>}</td>
      <td class="cell-actions">
        <details class="confirm">
          <summary class="button button-small button-danger-outline" aria-label={`Revoke ${token.tokenName}…`}>Revoke…</summary>
          <form method="post" action={`/account/tokens/${encodeURIComponent(token.id)}/revoke`} class="confirm-panel" aria-label={`Revoke ${token.tokenName}`}>
            <Csrf />
            <p>Revoke <strong>{token.tokenName}</strong>? Anything using it is refused from its next request. This cannot be undone.</p>
            <button type="submit" class="button button-danger">Revoke {token.tokenName}</button>
          </form>
        </details>
      </td>
    </tr>
  );
}

function TokensCard({ tokens, error }: { tokens: StoredToken[]; error: Refusal<unknown> | undefined }) {
  const values = refusedIn<FormDraft<typeof PersonalTokenForm>>(error, 'token')?.draft;
  return (
    <section class="card form-stack" aria-labelledby="tokens-title">
      <h2 id="tokens-title" class="section-title">Personal access tokens</h2>
      <p class="muted">A personal token acts as you on the admin API, with your roles. Keep it as you keep a password.</p>
      <FormAlert error={error} form="revoke" />
      {tokens.length === 0 ? <p class="muted">You have no personal tokens.</p> : (
        <div class="table-scroll" tabindex={0} role="region" aria-label="Your personal access tokens">
          <table class="data-table admin-table">
            <thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>{tokens.map((token) => <TokenRow token={token} />)}</tbody>
          </table>
        </div>
      )}
      <form method="post" action="/account" class="form-grid token-create" aria-label="New personal access token">
        <Csrf />
        <div class="field-wide"><FormAlert error={error} form="token" /></div>
        <div class="field">
          <label for="token-description">Name</label>
          <input id="token-description" name="description" required maxlength={100} value={values?.description ?? ''} autocomplete="off" {...errorAttrs(error, 'token', 'description', 'token-description')} />
          <FieldError error={error} form="token" field="description" id="token-description" />
        </div>
        <div class="field">
          <label for="token-expires">Expires <span class="muted">(optional)</span></label>
          <input id="token-expires" name="expiresAt" type="date" value={values?.expiresAt ?? ''} {...errorAttrs(error, 'token', 'expiresAt', 'token-expires', 'token-expires-hint')} />
          <p class="hint" id="token-expires-hint">At the end of that day, UTC. Empty: never.</p>
          <FieldError error={error} form="token" field="expiresAt" id="token-expires" />
        </div>
        <div class="form-actions field-wide"><button type="submit" class="button button-primary">Create token</button></div>
      </form>
    </section>
  );
}

function SessionsCard() {
  return (
    <section class="card form-stack" aria-labelledby="sessions-title">
      <h2 id="sessions-title" class="section-title">Sessions</h2>
      <p class="muted">Signed in somewhere you no longer use? End every console session of yours, on every device.</p>
      <details class="confirm">
        <summary class="button button-danger-outline">Sign out everywhere…</summary>
        <form method="post" action="/account/sessions/end" class="confirm-panel confirm-left" aria-label="Sign out everywhere">
          <Csrf />
          <p>End <strong>every</strong> console session of yours, this one included? You sign in again afterwards. Your personal tokens keep working.</p>
          <button type="submit" class="button button-danger">Sign out everywhere</button>
        </form>
      </details>
    </section>
  );
}

/** The page. */
export function AccountPage({ user, roleName, hasPassword, tokens, notice, refused, secret }: AccountPageProps) {
  return (
    <Layout title="Your account">
      <div class="page-header">
        <div>
          <h1>Your account</h1>
          <p class="lead">{user.name ?? user.username ?? user.email} · {roleName}</p>
        </div>
      </div>
      <Notice notice={notice} />
      {secret}
      <div class="card">
        <dl class="facts">
          <div><dt>Name</dt><dd>{user.name ?? '—'}</dd></div>
          <div><dt>Username</dt><dd>{user.username ?? '—'}</dd></div>
          <div><dt>Email</dt><dd>{user.email ?? '—'}</dd></div>
          <div><dt>Root role</dt><dd>{roleName}</dd></div>
        </dl>
      </div>
      <div class="admin-columns">
        <PasswordCard user={user} hasPassword={hasPassword} error={refused} />
        <SessionsCard />
      </div>
      <TokensCard tokens={tokens} error={refused} />
    </Layout>
  );
}
