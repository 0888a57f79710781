/** The shapes of the console's forms and page queries (`src/http/console/pages/`). */
import * as v from 'valibot';

const text = (max: number) => v.optional(v.pipe(v.string(), v.maxLength(max, `must be at most ${max} characters`)), '');

/** `?next=`: where to go after signing in (checked to be a path of this site where it is used). */
export const NextQuerySchema = v.object({ next: v.optional(v.pipe(v.string(), v.maxLength(2000, 'must be at most 2000 characters'))) });

/** The password sign-in form (`POST /login`) and Unleash's `POST /auth/simple/login` body. */
export const LoginFormSchema = v.object({ username: text(255), password: text(256), next: text(2000) });
export type LoginForm = v.InferOutput<typeof LoginFormSchema>;

/** The token sign-in form (`POST /login/token`). */
export const TokenFormSchema = v.object({ token: text(600), next: text(2000) });

/** Body of `POST /auth/simple/login` (Unleash's): username (or email) and password. */
export const SimpleLoginSchema = v.object({
  username: v.pipe(v.string('must be a string'), v.maxLength(255, 'must be at most 255 characters')),
  password: v.pipe(v.string('must be a string'), v.maxLength(256, 'must be at most 256 characters')),
});
