/** @jsxImportSource hono/jsx */
/**
 * The pages of a one-time password link (`/set-password`), shown before anyone signs in: the link's landing
 * (our script moves the secret from the fragment into the form and sends it; without the script the person pastes
 * it), the new-password form, and the page of a link that has expired or was used.
 */
import type { Child } from 'hono/jsx';
import { BrandMark, Layout, Script } from '../../layout.js';
import { errorAttrs, FieldError, type Refusal } from '../form-parts.js';

/** The new-password form, as a refusal names it. */
const FORM = 'new-password';

/** The sign-in forms' CSRF token (no session yet), which every step needs. */
interface Base {
  csrf: string;
}

function Shell({ title, children }: { title: string; children?: Child }) {
  return (
    <Layout title={title} bare>
      <div class="auth">
        <p class="auth-brand"><BrandMark />flagpole</p>
        <div class="card auth-card">{children}</div>
      </div>
    </Layout>
  );
}

/** The landing page of a link: the secret arrives in the fragment, which only our script can read. */
export function LinkLanding({ csrf }: Base) {
  return (
    <Shell title="Set your password">
      <h1>Set your password</h1>
      <form method="post" action="/set-password" id="link-form" class="form-stack">
        <input type="hidden" name="_csrf" value={csrf} />
        <p id="link-checking" class="muted" role="status" hidden>Checking your link…</p>
        <div id="link-manual" class="form-stack">
          <p class="muted">Open the link you were given in this browser. If this page does not go on by itself, paste the part of the link after <code>#</code> here.</p>
          <div class="field">
            <label for="link-secret">Code from your link</label>
            <input id="link-secret" name="secret" type="text" autocomplete="off" autocapitalize="none" spellcheck={false} required maxlength={100} />
          </div>
          <button type="submit" class="button button-primary button-block">Continue</button>
        </div>
      </form>
      <Script name="set-password.js" />
    </Shell>
  );
}

export interface NewPasswordProps extends Base {
  /** The link's secret, carried on in a hidden field (never in the address). */
  secret: string;
  /** Who the link is for, as they sign in. */
  username: string;
  /** A refused password, its message next to the field it names. */
  error?: Refusal<unknown> | undefined;
}

/** The new-password form of a link that works. */
export function NewPasswordForm({ csrf, secret, username, error }: NewPasswordProps) {
  const attrs = (field: 'password' | 'confirmPassword', hint?: string) => errorAttrs(error, FORM, field, field, hint);
  return (
    <Shell title="Choose a password">
      <h1>Choose a password</h1>
      <p class="muted">For <strong>{username}</strong>. You are signed in once it is saved.</p>
      <form method="post" action="/set-password/save" class="form-stack">
        <input type="hidden" name="_csrf" value={csrf} />
        <input type="hidden" name="secret" value={secret} />
        <input type="text" name="username" value={username} autocomplete="username" hidden readonly />
        <div class="field">
          <label for="password">New password</label>
          <input id="password" name="password" type="password" autocomplete="new-password" required maxlength={256} autofocus {...attrs('password', 'password-hint')} />
          <p class="hint" id="password-hint">At least 8 characters, not your username or email, not a common password.</p>
          <FieldError error={error} form={FORM} field="password" id="password" />
        </div>
        <div class="field">
          <label for="confirmPassword">Repeat it</label>
          <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" required maxlength={256} {...attrs('confirmPassword')} />
          <FieldError error={error} form={FORM} field="confirmPassword" id="confirmPassword" />
        </div>
        <button type="submit" class="button button-primary button-block">Save password and sign in</button>
      </form>
    </Shell>
  );
}

/** A link that cannot be used any more. */
export function LinkEnded({ message }: { message: string }) {
  return (
    <Shell title="This link no longer works">
      <h1>This link no longer works</h1>
      <p class="alert alert-error" role="alert">{message}</p>
      <p class="muted">A link sets a password once, and only for 24 hours after it was made. If you already chose a password, sign in with it.</p>
      <p><a class="button button-primary button-block" href="/login">Go to sign-in</a></p>
    </Shell>
  );
}
