/** The shapes of the console's forms and page queries (`src/console/pages/`, read by `src/console/forms/`). */
import * as v from 'valibot';
import { oneOf } from './messages.js';

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

/**
 * A flag's switch in an environment, as both the flag table and the flag page send it (`enabled`: a checkbox),
 * with the choice taken from the offer that comes when switching on would serve the flag to no one: `strategy`
 * adds the project's default strategy for the environment (else a 100% rollout) and switches on; `disabled`
 * enables its disabled strategies with it. `back`: the table's address a form sent without script returns to.
 */
export const SWITCH_CHOICES = ['strategy', 'disabled'] as const;
export const SwitchFormSchema = v.object({
  enabled: v.boolean(),
  with: v.optional(v.picklist(SWITCH_CHOICES, oneOf(SWITCH_CHOICES))),
  back: v.pipe(v.string(), v.maxLength(2000, 'must be at most 2000 characters')),
});
export type SwitchForm = v.InferOutput<typeof SwitchFormSchema>;

/** The flag table's bulk bar: the selected flags, the action of the button pressed, the environment of a switch. */
export const BULK_ACTIONS = ['on', 'off', 'stale', 'archive'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const BulkFormSchema = v.object({
  features: v.pipe(v.array(v.string()), v.maxLength(1000, 'must list at most 1000 flags')),
  action: v.picklist(BULK_ACTIONS, oneOf(BULK_ACTIONS)),
  environment: v.string(),
  back: v.string(),
});

/** The stale page's bulk bar: mark stale, or archive once confirmed (`confirmed`: the confirmation page's form). */
export const STALE_ACTIONS = ['stale', 'archive'] as const;
export const StaleBulkFormSchema = v.object({
  features: v.pipe(v.array(v.string()), v.maxLength(1000, 'must list at most 1000 flags')),
  action: v.picklist(STALE_ACTIONS, oneOf(STALE_ACTIONS)),
  confirmed: v.boolean(),
  back: v.string(),
});

/** A form that only says where it was sent from (`back`: an address of the page to return to). */
export const BackFormSchema = v.object({ back: v.string() });
