/** Reads of the service's environments. */
import type { Registry } from '../actors/registry.js';
import { fail } from '../domain/errors.js';
import type { Environment } from '../domain/service-state.js';
import { failed, ok, type Result } from '../use-cases/result.js';

/** One environment by name (404 naming it, as Unleash words it). */
export function environmentByName(registry: Registry, name: string): Result<Environment> {
  const found = registry.service.state.environments.find((e) => e.name === name);
  return found ? ok(found) : failed(fail('NotFoundError', `Could not find environment with name: ${name}`));
}

/** Whether `name` is free for a new environment: 200, or 409 when one has it (Unleash's `validate`). */
export function validateEnvironmentName(registry: Registry, name: string): Result<null> {
  const taken = registry.service.state.environments.some((e) => e.name === name);
  return taken ? failed(fail('NameExistsError', `An environment named "${name}" already exists`)) : ok(null);
}
