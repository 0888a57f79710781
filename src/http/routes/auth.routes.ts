/**
 * Unleash's sign-in endpoint, `POST /auth/simple/login {username, password}`: it answers the user and sets the
 * console's session cookie, for a script as for a browser (as Unleash). A JSON body only (415 otherwise), and a
 * request that names where it comes from (`Origin`, else `Referer`) must come from this site (`csrf: 'origin'`):
 * a browser on another site cannot sign anyone in. The console's own sign-in forms (`POST /login`) keep the
 * pre-session token besides.
 */
import { SimpleLoginSchema } from '../../schemas/console.schema.js';
import { checkPassword } from '../../use-cases/sessions.use-cases.js';
import { attemptSignIn, openSession } from '../console/sign-in.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { UserView } from '../views.js';
import { userView } from './users.routes.js';

export const authRoutes: RouteSpec[] = [
  defineRoute({
    method: 'post', path: '/auth/simple/login', tag: 'Console', permission: 'NONE', authentication: 'none', csrf: 'origin',
    summary: 'Sign in with username (or email) and password: answers the user and sets the `flagpole-session` cookie. Wrong credentials: 401 "Wrong username or password"; too many failures: 429',
    body: SimpleLoginSchema, success: { status: 200, description: 'The user', schema: UserView }, errors: ['TooManyRequests', 'Unavailable'],
    handle: async ({ c, deps, body }) => {
      const result = await attemptSignIn(c, deps, body.username, () => checkPassword(deps.registry, body));
      if (!result.ok || result.value.kind !== 'password') return result.ok ? { ok: false, error: { kind: 'AuthenticationRequired', message: 'Wrong username or password' } } : result;
      await openSession(c, deps, result.value);
      // Through `c.json`: the answer must carry the cookie `setCookie` put on the context.
      return c.json(userView(result.value.user), 200);
    },
  }),
];
