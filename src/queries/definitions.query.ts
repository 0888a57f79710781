/** Reads of context fields (with how many flags and projects constrain on each) and strategy definitions. */
import type { Registry } from '../actors/registry.js';
import type { ContextField, StrategyDefinition } from '../domain/definitions.js';
import { fail } from '../domain/errors.js';
import { failed, ok, type Result } from '../domain/result.js';

/** A context field as answered: Unleash's `contextFieldSchema`, usage counts included. */
export type ContextFieldAnswer = ContextField & { usedInFeatures: number; usedInProjects: number };

/** For each context name: the flags (by project) whose strategies constrain on it, from the committed states. */
function contextUsage(registry: Registry): Map<string, { flags: number; projects: Set<string> }> {
  const usage = new Map<string, { flags: number; projects: Set<string> }>();
  for (const id of registry.projectIds()) {
    for (const flag of registry.project(id)!.state.flags.values()) {
      const names = new Set<string>();
      for (const entry of Object.values(flag.environments)) for (const s of entry.strategies) for (const c of s.constraints) names.add(c.contextName);
      for (const name of names) {
        const counted = usage.get(name) ?? { flags: 0, projects: new Set<string>() };
        counted.flags += 1;
        counted.projects.add(id);
        usage.set(name, counted);
      }
    }
  }
  return usage;
}

const answer = (field: ContextField, usage: ReturnType<typeof contextUsage>): ContextFieldAnswer => ({
  ...field, usedInFeatures: usage.get(field.name)?.flags ?? 0, usedInProjects: usage.get(field.name)?.projects.size ?? 0,
});

/** Every context field, by `sortOrder` then name (as Unleash). */
export function contextFields(registry: Registry): ContextFieldAnswer[] {
  const usage = contextUsage(registry);
  return [...registry.service.state.contextFields]
    .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name))
    .map((field) => answer(field, usage));
}

/** One context field; 404 when unknown. */
export function contextFieldByName(registry: Registry, name: string): Result<ContextFieldAnswer> {
  const field = registry.service.state.contextFields.find((f) => f.name === name);
  return field ? ok(answer(field, contextUsage(registry))) : failed(fail('NotFoundError', `Could not find context field with name ${name}`));
}

/** Every strategy definition: the built-in ones first, then the custom ones in creation order. */
export const strategyDefinitions = (registry: Registry): StrategyDefinition[] => registry.service.state.strategyDefinitions;

/** One strategy definition; 404 when unknown. */
export function strategyDefinitionByName(registry: Registry, name: string): Result<StrategyDefinition> {
  const found = registry.service.state.strategyDefinitions.find((d) => d.name === name);
  return found ? ok(found) : failed(fail('NotFoundError', `Could not find strategy with name ${name}`));
}

/** A strategy that constrains on a context field (Unleash's `contextFieldStrategiesSchema` item). */
export interface ContextFieldStrategy {
  id: string;
  projectId: string;
  featureName: string;
  strategyName: string;
  environment: string;
}

/**
 * The strategies of every flag (archived ones included, as Unleash) with a constraint on context field `name`,
 * by project, flag and environment; 404 when no such field exists.
 */
export function strategiesUsingContextField(registry: Registry, name: string): Result<ContextFieldStrategy[]> {
  if (!registry.service.state.contextFields.some((f) => f.name === name)) return failed(fail('NotFoundError', `Could not find context field with name ${name}`));
  const found: ContextFieldStrategy[] = [];
  for (const projectId of registry.projectIds()) {
    for (const flag of registry.project(projectId)!.state.flags.values()) {
      for (const [environment, entry] of Object.entries(flag.environments)) {
        for (const s of entry.strategies) {
          if (s.constraints.some((c) => c.contextName === name)) found.push({ id: s.id, projectId, featureName: flag.name, strategyName: s.name, environment });
        }
      }
    }
  }
  return ok(found);
}
