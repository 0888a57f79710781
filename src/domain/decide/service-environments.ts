/**
 * Changes to the service's environments after their creation (docs/api-decisions.md "Projects and
 * environments"): update, enable/disable, sort order, delete. Decided in the service mailbox, like the
 * names and sort orders of new environments.
 */
import { accept, fail, refuse, type Decision } from '../errors.js';
import type { Environment, ServiceState } from '../service-state.js';
import type { ServiceCommand } from '../service-commands.js';
import type { ServiceEvent } from '../service-events.js';
import type { ServiceLookups } from '../context.js';

type EnvironmentCommand = Extract<ServiceCommand, { type: 'environment.update' | 'environment.toggle' | 'environment.sort' | 'environment.delete' }>;

const notFound = (name: string) => fail('NotFoundError', `Could not find environment with name: ${name}`);

const updated = (environment: Environment, before: Environment): ServiceEvent => ({ type: 'environment.updated', environment, before });

/** One environment change; see {@link EnvironmentCommand}. */
export function decideEnvironmentChange(draft: ServiceState, command: EnvironmentCommand, lookups: ServiceLookups): Decision<ServiceEvent, unknown> {
  if (command.type === 'environment.sort') return decideSort(draft, command.order);
  const before = draft.environments.find((e) => e.name === command.name);
  if (!before) return refuse(notFound(command.name));
  switch (command.type) {
    case 'environment.update': {
      if (before.protected) return refuse(fail('InvalidOperationError', `Environment "${before.name}" is protected and cannot be changed`));
      const after = { ...before, type: command.environmentType ?? before.type, sortOrder: command.sortOrder ?? before.sortOrder };
      if (after.type === before.type && after.sortOrder === before.sortOrder) return accept([], before);
      return accept([updated(after, before)], after);
    }
    case 'environment.toggle': {
      if (before.enabled === command.enabled) return accept([], before);
      const after = { ...before, enabled: command.enabled };
      return accept([updated(after, before)], after);
    }
    case 'environment.delete': {
      if (before.protected) return refuse(fail('InvalidOperationError', `Environment "${before.name}" is protected and cannot be deleted`));
      const projects = lookups.environmentProjects(command.name);
      if (projects.length > 0) {
        return refuse(fail('InvalidOperationError', `Environment "${command.name}" is still enabled in project(s) ${projects.map((p) => `"${p}"`).join(', ')}; remove it from them first`));
      }
      const tokens = Object.values(draft.tokens).filter((t) => t.environment === command.name).length;
      if (tokens > 0) {
        return refuse(fail('InvalidOperationError', `Environment "${command.name}" is the environment of ${tokens} API token(s); delete them first`));
      }
      return accept([{ type: 'environment.deleted', environment: before }], before);
    }
  }
}

/** Every listed name must be an environment (all or nothing); an unchanged place records nothing. */
function decideSort(draft: ServiceState, order: { name: string; sortOrder: number }[]): Decision<ServiceEvent, null> {
  const events: ServiceEvent[] = [];
  for (const { name, sortOrder } of order) {
    const before = draft.environments.find((e) => e.name === name);
    if (!before) return refuse(notFound(name));
    if (before.sortOrder !== sortOrder) events.push(updated({ ...before, sortOrder }, before));
  }
  return accept(events, null);
}
