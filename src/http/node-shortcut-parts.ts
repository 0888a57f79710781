import type { IncomingMessage } from 'node:http';
import { isAllowed, type Permission, type Principal } from '../auth/permissions.js';
import { requestLineWriter } from '../log.js';
import { callerOf } from './middleware/authenticate.js';
import type { Observers } from './pipeline/observers.js';
import type { AppDeps } from './route.js';

/**
 * The parts the Node shortcuts (`client-revalidation.ts`, `client-stream-shortcut.ts`, `frontend-shortcut.ts`)
 * share with the routes they stand in front of.
 */

/**
 * The caller of a request as the route's first steps would find it: a principal with `permission`
 * (`CLIENT_API`, or `FRONTEND_API` for `/api/frontend`); `false` to leave the request to the route (a token of
 * another kind); a promise of `false` while a token from before keyed hashes is re-stored (the route answers
 * once that write is done). Throws as `callerOf` does (no or an unknown token): the route answers that too.
 */
export function clientCallerOf(req: IncomingMessage, deps: AppDeps, permission: Permission = 'CLIENT_API'): Principal | false | Promise<false> {
  const caller = callerOf(req.headers.authorization, deps);
  if (caller instanceof Promise) return caller.then(() => false, () => false);
  return isAllowed(caller, permission, undefined) ? caller : false;
}

/** What `observed` notes of a route's answer, for a shortcut's: the request metric and the request log line. */
export function shortcutObserver(observers: Observers, path: string): (reqId: string, status: number, start: number) => void {
  const line = requestLineWriter(observers.log, path);
  return (reqId, status, start) => {
    const ms = performance.now() - start;
    observers.metrics?.observeRequest(path, 'GET', status, ms / 1000);
    line(reqId, 'GET', status, ms);
  };
}
