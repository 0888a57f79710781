/** @jsxImportSource hono/jsx */
/**
 * A person's own page (`/account`, permission OWN_ACCOUNT): change their password (the current one first, its
 * failures limited as sign-ins are), their personal access tokens over the personal-token use cases (the secret
 * shown once, in the answer to the POST that made it), and signing out of every session of theirs.
 */
import type { Context } from 'hono';
import type { Principal } from '../../auth/permissions.js';
import type { User } from '../../domain/service-state.js';
import { personalTokens, roleById } from '../../queries/access.query.js';
import type { Result } from '../../domain/result.js';
import { DoneQuerySchema } from '../../schemas/admin-pages.schema.js';
import { looseObject, nonEmptyString } from '../../schemas/common.schema.js';
import { changeOwnPassword } from '../../use-cases/passwords.use-cases.js';
import { endEverySessionOf } from '../../use-cases/sessions.use-cases.js';
import { createPersonalToken, revokeToken } from '../../use-cases/tokens.use-cases.js';
import { ApiError } from '../../http/errors.js';
import type { ConsoleDeps, ConsoleEnv } from '../console-deps.js';
import { clearSessionCookie } from '../pipeline/cookies.js';
import { OwnPasswordForm, PersonalTokenForm } from '../forms/account.forms.js';
import { buttonForm } from '../forms/flag.forms.js';
import type { Refusal } from '../forms/form.js';
import { definePage } from '../page.js';
import { renderPage } from '../render.js';
import { attemptSignIn, openSession } from '../pipeline/session.js';
import { AccountPage } from '../views/account/account-page.js';
import { SecretOnce } from '../views/tokens/secret-once.js';
import { done, noticeOf } from '../notices.js';

const REDIRECT = { status: 303, description: 'Back to the page, with a confirmation' };

/** `/account/tokens/:id/revoke`: a personal token's listing id. */
const TokenIdParamsSchema = looseObject({ id: nonEmptyString(100) });


/** The signed-in person (the route's permission, OWN_ACCOUNT, admits users only). */
function userOf(principal: Principal): User {
  if (principal.kind !== 'user') throw new ApiError({ kind: 'NoAccessError', message: 'Only a person has an account page' });
  return principal.user;
}

function accountPage(c: Context<ConsoleEnv>, deps: ConsoleDeps, principal: Principal, options: { status?: number; done?: string | undefined; refused?: Refusal<unknown>; secret?: string } = {}): Response {
  const user = userOf(principal);
  const role = roleById(user.rootRole);
  const secret = options.secret
    ? <SecretOnce title="Your new personal access token" label="Token secret" value={options.secret} what="this token"
        use="Send it as the Authorization header of admin API requests, or sign in to the console with it." />
    : undefined;
  return renderPage(c, (
    <AccountPage user={user} roleName={role.ok ? role.value.name : 'User'} hasPassword={Object.hasOwn(deps.registry.service.state.passwords, String(user.id))}
      tokens={personalTokens(deps.registry, user.id)} notice={noticeOf('account', options.done)}
      refused={options.refused} secret={secret} />
  ), options.status);
}

/** The account page again with a refused form. */
const refusedOnAccount = ({ c, deps, principal }: { c: Context<ConsoleEnv>; deps: ConsoleDeps; principal: Principal }, refusal: Refusal<unknown>) => accountPage(c, deps, principal, { refused: refusal });

/** A refusal of the password form the page makes itself, about one of its fields. */
const passwordRefusal = (kind: 'ValidationError' | 'TooManyRequests' | 'Unavailable', field: string, message: string): Result<never> => ({ ok: false, error: { kind, message, path: field } });

export const accountPages = [
  definePage({
    method: 'get', path: '/account', permission: 'OWN_ACCOUNT', query: DoneQuerySchema, summary: 'The signed-in person\'s own page',
    handle: ({ c, deps, principal, query }) => accountPage(c, deps, principal, { done: query.done }),
  }),
  definePage({
    // The page's own address: a reload of the answer (a GET) shows the page, never the secret again.
    method: 'post', path: '/account', permission: 'OWN_ACCOUNT', form: PersonalTokenForm,
    summary: 'Create a personal access token (its secret shown once)', success: { status: 201, description: 'The page with the token\'s secret' },
    handle: async ({ c, deps, form, principal }) => {
      const made = await createPersonalToken(deps.registry, deps.tokenHasher, { userId: userOf(principal).id, ...form }, principal);
      return made.ok ? accountPage(c, deps, principal, { status: 201, secret: made.value.secret }) : made;
    },
    refused: refusedOnAccount,
  }),
  definePage({
    method: 'post', path: '/account/tokens/:id/revoke', permission: 'OWN_ACCOUNT', params: TokenIdParamsSchema, form: buttonForm('revoke'),
    summary: 'Revoke one of the person\'s own personal access tokens', success: REDIRECT,
    handle: ({ deps, params, principal }) => revokeToken(deps.registry, { id: params.id, userId: userOf(principal).id }, principal),
    done: () => done('/account', 'account', 'revoked'),
    refused: refusedOnAccount,
  }),
  definePage({
    method: 'post', path: '/account/password', permission: 'OWN_ACCOUNT', form: OwnPasswordForm,
    summary: 'Change the person\'s own password (the current one first, when they have one)', success: REDIRECT,
    handle: async ({ c, deps, form, principal }) => {
      const user = userOf(principal);
      if (form.password !== form.confirmPassword) return passwordRefusal('ValidationError', 'confirmPassword', 'The two new passwords differ');
      // The current password is checked by the use case, within the sign-in limits (charged before scrypt).
      const changed = await attemptSignIn(c, deps, user.username ?? user.email ?? '', () => changeOwnPassword(deps.registry, { password: form.password, oldPassword: form.currentPassword }, principal));
      if (!changed.ok && (changed.error.kind === 'TooManyRequests' || changed.error.kind === 'Unavailable')) return passwordRefusal(changed.error.kind, 'currentPassword', changed.error.message);
      if (!changed.ok && changed.error.kind === 'AuthenticationRequired') return passwordRefusal('ValidationError', 'currentPassword', 'This is not your current password');
      if (!changed.ok) return changed;
      // The new password ended every session of the old one, this one too: a password session starts again.
      if (principal.kind === 'user' && principal.tokenName === 'session') await openSession(c, deps, { kind: 'password', user });
      return changed;
    },
    done: () => done('/account', 'account', 'password'),
    refused: refusedOnAccount,
  }),
  definePage({
    method: 'post', path: '/account/sessions/end', permission: 'OWN_ACCOUNT', form: buttonForm('sessions'),
    summary: 'Sign out everywhere: every console session of the person ends, this one included', success: { status: 303, description: 'To the sign-in page' },
    handle: async ({ c, deps, principal }) => {
      await endEverySessionOf(deps.registry, userOf(principal).id);
      clearSessionCookie(c, deps);
      return c.redirect('/login?signed-out', 303);
    },
  }),
];
