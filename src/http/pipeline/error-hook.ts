import type { Context } from 'hono';
import type { AppEnv } from '../route.js';

/** A route's own answer to an error, or undefined to leave it to `errorAnswer` (error-answer.ts). */
export type ErrorHook = (c: Context<AppEnv>, error: unknown) => Response | undefined;
