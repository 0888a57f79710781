import type { Permission } from '../../auth/permissions.js';
import type { AppDeps, RouteSpec, Step } from '../route.js';

/** The SDKs' reads: they carry a revision (an ETag, an event id) and are never answered an older state (`client-ahead.ts`). */
const SDK_READS: ReadonlySet<Permission> = new Set<Permission>(['CLIENT_API', 'FRONTEND_API', 'EVALUATE']);

/**
 * Several nodes on one database: a read of the admin API or of a console page first catches up with what any
 * node committed, so it shows every write answered before it, whichever node took the write (a script's
 * create on one node then its read on another; the console's redirect after a form). Skipped when the node
 * has lost the database (reads then answer from memory at once), and bounded by `NODE_CATCH_UP_WAIT_MS`.
 * Nothing on one process; the SDKs' reads do not need it.
 *
 * @example if (freshReadsFor(route, deps)) steps.push(freshReads(deps));
 */
export function freshReads(deps: AppDeps): Step {
  return () => deps.registry.freshen(deps.config.nodes.catchUpWaitMs);
}

/** Whether `route` is a read that {@link freshReads} applies to on this installation. */
export function freshReadsFor(route: RouteSpec, deps: AppDeps): boolean {
  return deps.registry.shared && route.method === 'get' && !SDK_READS.has(route.permission);
}
