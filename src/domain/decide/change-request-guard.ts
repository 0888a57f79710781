/**
 * Environments whose changes go through change requests refuse direct writes (Unleash Enterprise's
 * `stopWhenChangeRequestsEnabled`): a 403 `PermissionError` naming `SKIP_CHANGE_REQUEST`, unless the sender
 * holds it. Decided in the project mailbox, with the settings as the same batch has them.
 */
import type { ProjectCommand } from '../commands.js';
import type { ActorContext } from '../context.js';
import { own } from '../dict.js';
import type { DomainError } from '../errors.js';
import type { ProjectMeta } from '../types.js';

/** Writes to one environment: refused when that environment takes changes through requests. */
const ENVIRONMENT_WRITES: ReadonlySet<ProjectCommand['type']> = new Set([
  'flag.enable', 'flag.disable', 'flags.enable', 'flags.disable',
  'strategy.add', 'strategy.update', 'strategy.patch', 'strategy.delete', 'strategy.set-sort-order', 'strategy.copy',
  'flags.import',
]);

/**
 * Writes to the whole flag: refused when any environment of the project takes changes through requests
 * (as Unleash's archive and dependencies; flagpole's variants are one list for every environment).
 */
const PROJECT_WRITES: ReadonlySet<ProjectCommand['type']> = new Set([
  'flag.archive', 'flags.archive', 'dependency.add', 'dependency.remove', 'variants.set', 'variants.patch',
]);

/** Unleash's message for a caller without the permission, word for word. */
const SKIP_MESSAGE = 'You don\'t have the required permissions to perform this operation. To perform this action, you need the "SKIP_CHANGE_REQUEST" permission.';

/**
 * The 403 of a direct write to environments that take changes through requests: Unleash's body
 * (`PermissionError`, `permissions: ["SKIP_CHANGE_REQUEST"]`), with a second detail saying where to send it.
 */
export function skipRefusal(project: string, environments: readonly string[]): DomainError {
  const where = environments.map((e) => `"${e}"`).join(', ');
  const how = environments.length === 1
    ? `Environment ${where} of project "${project}" takes changes through change requests: add this change to one (POST /api/admin/projects/${project}/environments/${environments[0]}/change-requests)`
    : `Environments ${where} of project "${project}" take changes through change requests: add this change to a change request of each`;
  return { kind: 'PermissionError', message: SKIP_MESSAGE, details: [{ message: SKIP_MESSAGE }, { message: how }], permissions: ['SKIP_CHANGE_REQUEST'] };
}

/** The environments of the project that take changes through requests, in the project's order. */
export function protectedEnvironments(meta: ProjectMeta): string[] {
  const settings = meta.changeRequestSettings;
  if (!settings) return [];
  return meta.environments.filter((environment) => own(settings, environment) !== undefined);
}

/** Whether one environment of the project takes changes through requests. */
export const isProtected = (meta: ProjectMeta, environment: string): boolean =>
  meta.changeRequestSettings !== undefined && own(meta.changeRequestSettings, environment) !== undefined;

/**
 * The refusal of a direct write that would change an environment taking changes through requests, or null.
 * Commands of the service itself (no `rights`) and senders holding `SKIP_CHANGE_REQUEST` go through; an
 * applied request decides its changes without this check.
 *
 * @example changeRequestGuard(draft.meta, { type: 'flag.enable', feature: 'a', environment: 'production' }, context)
 */
export function changeRequestGuard(meta: ProjectMeta, command: ProjectCommand, context: ActorContext): DomainError | null {
  if (!context.rights || context.rights.skipChangeRequests || !meta.changeRequestSettings) return null;
  if (ENVIRONMENT_WRITES.has(command.type)) {
    const environment = command.type === 'flags.import' ? command.plan.environment : (command as { environment: string }).environment;
    return isProtected(meta, environment) ? skipRefusal(meta.id, [environment]) : null;
  }
  if (!PROJECT_WRITES.has(command.type)) return null;
  const environments = protectedEnvironments(meta);
  return environments.length > 0 ? skipRefusal(meta.id, environments) : null;
}
