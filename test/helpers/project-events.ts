/**
 * Past facts of a project, for `given` and `then` (see `decider.ts`): short builders of the events the
 * project decider records. Versions are left at 0 and stamped with the sequence number of the command that
 * records them; times are the spec's fixed {@link AT}.
 */
import { expect } from 'vitest';
import type { ProjectEvent } from '../../src/domain/events.js';
import type { Flag, FlagEnvironment, ProjectMeta, Strategy, StrategyInput, Variant } from '../../src/domain/types.js';

/** When every fact of a spec happened (also when its commands are decided). */
export const AT = '2025-01-01T00:00:00.000Z';

/** The project every project spec starts from. */
export const META: ProjectMeta = Object.freeze({
  id: 'p', name: 'P', description: '', createdAt: AT,
  environments: ['development', 'production'], defaultStrategies: {}, members: {},
}) as ProjectMeta;

/** `event` as recorded at `seq`: a flag event gives the flag that version. */
export function stamped(event: ProjectEvent, seq: number): ProjectEvent {
  if (event.type === 'flag.created') return typeof event.flag.name === 'string' ? { ...event, flag: { ...event.flag, version: seq } } : event;
  return 'version' in event ? { ...event, version: seq } : event;
}

/** A stored strategy with the defaults a strategy without those fields gets. */
export function strategy(id: string, input: Partial<StrategyInput> & { sortOrder?: number } = {}): Strategy {
  return {
    id, name: input.name ?? 'default', title: input.title ?? null, disabled: input.disabled ?? false, sortOrder: input.sortOrder ?? 0,
    constraints: input.constraints ?? [], parameters: input.parameters ?? {}, variants: input.variants ?? [], segments: input.segments ?? [],
  };
}

/** A gradual rollout as `strategy.add` stores it for `flag`: rollout 100, stickiness default, groupId the flag's name. */
export const rollout = (id: string, flag: string, parameters: Record<string, string> = {}, sortOrder = 0): Strategy =>
  strategy(id, { name: 'flexibleRollout', sortOrder, parameters: { rollout: '100', stickiness: 'default', groupId: flag, ...parameters } });

/** A new flag with default metadata and an empty, disabled entry in each of `environments`. */
export function flagCreated(name: string, environments: readonly string[] = META.environments, fields: Partial<Flag> = {}): ProjectEvent {
  const entries: Record<string, FlagEnvironment> = Object.fromEntries(environments.map((env) => [env, { enabled: false, strategies: [] }]));
  return {
    type: 'flag.created',
    flag: {
      name, description: '', type: 'release', stale: false, impressionData: false, createdAt: AT, lastSeenAt: null,
      archived: false, archivedAt: null, variants: [], version: 0, environments: entries, ...fields,
    },
  };
}

/** `strategy` added to `flag` in `environment`; `enabled` is the environment's state after it (adding never enables). */
export const strategyAdded = (flag: string, environment: string, added: Strategy, enabled = false): ProjectEvent =>
  ({ type: 'strategy.added', name: flag, version: 0, environment, strategy: added, enabled });

/** `/on` in `environment`, with the default strategy it added first, if any. */
export const flagEnabled = (flag: string, environment = 'development', added: Strategy | null = null): ProjectEvent =>
  ({ type: 'flag.enabled', name: flag, version: 0, environment, added });

/** `/off` in `environment`. */
export const flagDisabled = (flag: string, environment = 'development'): ProjectEvent =>
  ({ type: 'flag.disabled', name: flag, version: 0, environment });

export const flagArchived = (flag: string): ProjectEvent => ({ type: 'flag.archived', name: flag, version: 0, at: AT });

export const flagRevived = (flag: string): ProjectEvent => ({ type: 'flag.revived', name: flag, version: 0, at: AT });

/** A flag deleted for good; by default any archived flag of that name is the `before`. */
export const flagDeleted = (flag: string, before: Flag = expect.objectContaining({ name: flag, archived: true }) as Flag): ProjectEvent =>
  ({ type: 'flag.deleted', name: flag, before });

export const variantsUpdated = (flag: string, variants: Variant[], before: Variant[] = []): ProjectEvent =>
  ({ type: 'variants.updated', name: flag, version: 0, variants, before });

/** The project's default strategy set in each of `environments` (all of the project's by default). */
export function defaultStrategySet(input: StrategyInput, environments: readonly string[] = META.environments): ProjectEvent {
  const defaultStrategies = Object.fromEntries(environments.map((env) => [env, input]));
  return { type: 'project.updated', meta: { ...META, defaultStrategies }, before: META };
}
