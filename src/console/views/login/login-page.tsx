/** @jsxImportSource hono/jsx */
import { BrandMark, Layout } from '../../layout.js';

export interface LoginPageProps {
  /** The sign-in forms' CSRF token (bound to the `flagpole-login` cookie). */
  csrf: string;
  /** Where to go once signed in (a path of this site). */
  next: string;
  /** The username typed before, shown again after a failure (never the password). */
  username?: string | undefined;
  /** The message of a failed password sign-in. */
  error?: string | undefined;
  /** The message of a failed token sign-in. */
  tokenError?: string | undefined;
  /** A notice, e.g. after signing out. */
  notice?: string | undefined;
}

function Hidden({ csrf, next }: { csrf: string; next: string }) {
  return (
    <>
      <input type="hidden" name="_csrf" value={csrf} />
      <input type="hidden" name="next" value={next} />
    </>
  );
}

/** The sign-in page: username and password, or an API token. */
export function LoginPage(props: LoginPageProps) {
  const { csrf, next, username, error, tokenError, notice } = props;
  return (
    <Layout title="Sign in" bare>
      <div class="auth">
        <p class="auth-brand"><BrandMark />flagpole</p>
        <div class="card auth-card">
          <h1>Sign in</h1>
          <p class="muted">Feature flags for every project and environment.</p>
          {notice ? <p class="alert alert-info" role="status">{notice}</p> : null}
          <form method="post" action="/login" class="form-stack" aria-labelledby="password-title">
            <h2 id="password-title" class="sr-only">With your username and password</h2>
            <Hidden csrf={csrf} next={next} />
            {error ? <p class="alert alert-error" role="alert" id="login-error">{error}</p> : null}
            <div class="field">
              <label for="username">Username or email</label>
              <input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck={false}
                required value={username ?? ''} autofocus={!tokenError} aria-describedby={error ? 'login-error' : undefined} />
            </div>
            <div class="field">
              <label for="password">Password</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required
                aria-describedby={error ? 'login-error' : undefined} />
            </div>
            <button type="submit" class="button button-primary button-block">Sign in</button>
          </form>
          <div class="divider" role="presentation"><span>or</span></div>
          <form method="post" action="/login/token" class="form-stack" aria-labelledby="token-title">
            <h2 id="token-title" class="form-title">Sign in with an API token</h2>
            <Hidden csrf={csrf} next={next} />
            {tokenError ? <p class="alert alert-error" role="alert" id="token-error">{tokenError}</p> : null}
            <div class="field">
              <label for="token">API token</label>
              <input id="token" name="token" type="password" autocomplete="off" required autofocus={Boolean(tokenError)}
                aria-describedby={tokenError ? 'token-error token-hint' : 'token-hint'} />
              <p class="hint" id="token-hint">An admin token, or your personal access token. It is not kept in the browser.</p>
            </div>
            <button type="submit" class="button button-secondary button-block">Sign in with token</button>
          </form>
        </div>
      </div>
    </Layout>
  );
}
