/** Reads of the service's environments, with the counts Unleash 6.10 answers beside them. */
import type { Registry } from '../actors/registry.js';
import { own } from '../domain/dict.js';
import { fail } from '../domain/errors.js';
import type { ProjectState } from '../domain/project-state.js';
import type { Environment } from '../domain/service-state.js';
import type { StrategyInput } from '../domain/types.js';
import { failed, ok, type Result } from '../domain/result.js';

/** An environment as Unleash 6.10 lists it: `requiredApprovals` (Enterprise change requests) is always null here. */
export type ListedEnvironment = Environment & { requiredApprovals: null; projectCount: number; apiTokenCount: number; enabledToggleCount: number };

/** An environment as `GET /api/admin/environments/project/:projectId` shows it. */
export type ProjectEnvironment = Environment & {
  requiredApprovals: null; projectApiTokenCount: number; projectEnabledToggleCount: number; visible: boolean; defaultStrategy?: StrategyInput;
};

/** Flags of a project enabled in `environment`, archived ones included (Unleash counts the enabled entries). */
function enabledIn(state: ProjectState, environment: string): number {
  let count = 0;
  for (const flag of state.flags.values()) if (own(flag.environments, environment)?.enabled) count += 1;
  return count;
}

/**
 * Every environment in sort order with Unleash's counts: projects that have it, API tokens scoped to it, and
 * flags enabled there (a scan of every flag: an admin read, not a client one).
 */
export function listEnvironments(registry: Registry): ListedEnvironment[] {
  const service = registry.service.state;
  const states = registry.projectIds().map((id) => registry.project(id)!.state);
  return service.environments.map((environment) => {
    const connected = states.filter((state) => state.meta.environments.includes(environment.name));
    return {
      ...environment,
      requiredApprovals: null,
      projectCount: connected.length,
      apiTokenCount: Object.values(service.tokens).filter((t) => t.environment === environment.name).length,
      enabledToggleCount: connected.reduce((sum, state) => sum + enabledIn(state, environment.name), 0),
    };
  });
}

/** One environment by name (404 naming it, as Unleash words it). */
export function environmentByName(registry: Registry, name: string): Result<Environment & { requiredApprovals: null }> {
  const found = registry.service.state.environments.find((e) => e.name === name);
  return found ? ok({ ...found, requiredApprovals: null }) : failed(fail('NotFoundError', `Could not find environment with name: ${name}`));
}

/**
 * Every environment as seen from one project (Unleash's `getProjectEnvironments`): `visible` when the project
 * has it, the tokens that name the project and the environment, the project's flags enabled there, and the
 * project's default strategy for it when one is set.
 */
export function projectEnvironments(registry: Registry, state: ProjectState): ProjectEnvironment[] {
  const service = registry.service.state;
  const projectId = state.meta.id;
  return service.environments.map((environment) => {
    const visible = state.meta.environments.includes(environment.name);
    const defaultStrategy = visible ? own(state.meta.defaultStrategies, environment.name) : undefined;
    return {
      ...environment,
      requiredApprovals: null,
      projectApiTokenCount: Object.values(service.tokens).filter((t) => t.environment === environment.name && t.projects.includes(projectId)).length,
      projectEnabledToggleCount: visible ? enabledIn(state, environment.name) : 0,
      ...(defaultStrategy ? { defaultStrategy } : {}),
      visible,
    };
  });
}

/** Whether `name` is free for a new environment: 200, or 409 when one has it (Unleash's `validate`). */
export function validateEnvironmentName(registry: Registry, name: string): Result<null> {
  const taken = registry.service.state.environments.some((e) => e.name === name);
  return taken ? failed(fail('NameExistsError', `An environment named "${name}" already exists`)) : ok(null);
}
