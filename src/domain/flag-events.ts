import { flagRules } from '../../machines/flag-rules.js';
import { dict, own, withKey } from './dict.js';
import type { FlagEvent } from './events.js';
import { withEntered } from './flag-stages.js';
import type { Flag, FlagEnvironment, FlagStages, ProjectMeta, Strategy, StrategyInput, Tag } from './types.js';

const EMPTY: FlagEnvironment = Object.freeze({ ...flagRules.newEnvironment(), strategies: [] }) as unknown as FlagEnvironment;

/** A strategy whose parameters are a map that inherits nothing (see `dict.ts`). */
const strategyWithDict = (strategy: Strategy): Strategy => ({ ...strategy, parameters: dict(strategy.parameters) });

/** A flag whose environments and strategy parameters are maps that inherit nothing (see `dict.ts`). */
export function withDicts(flag: Flag): Flag {
  const environments = dict(Object.entries(flag.environments).map(([env, entry]): [string, FlagEnvironment] =>
    [env, { ...entry, strategies: entry.strategies.map(strategyWithDict) }]));
  return { ...flag, environments };
}

/** Project meta whose default strategies (with their parameters), members and change-request settings are maps that inherit nothing. */
export function metaWithDicts(meta: ProjectMeta): ProjectMeta {
  const defaultStrategies = dict(Object.entries(meta.defaultStrategies).map(([env, s]): [string, StrategyInput] =>
    [env, s.parameters ? { ...s, parameters: dict(s.parameters) } : s]));
  const withDicts = { ...meta, defaultStrategies, members: dict(meta.members) };
  if (meta.changeRequestSettings) withDicts.changeRequestSettings = dict(meta.changeRequestSettings);
  return withDicts;
}

/** Number of strategies that are evaluated (not `disabled`): the guard input of the environment machine. */
export const enabledCount = (entry: { strategies: readonly { disabled: boolean }[] }): number =>
  entry.strategies.filter((s) => !s.disabled).length;

/** Strategies in evaluation order; equal sortOrders keep list order (Array.prototype.sort is stable). */
export const ordered = (strategies: Strategy[]): Strategy[] => [...strategies].sort((a, b) => a.sortOrder - b.sortOrder);

function withEnvironment(flag: Flag, environment: string, version: number, change: (entry: FlagEnvironment) => FlagEnvironment): Flag {
  const entry = own(flag.environments, environment) ?? EMPTY;
  return { ...flag, version, environments: withKey(flag.environments, environment, change(entry)) };
}

/**
 * The flag after `event`: the one function both deciding (for the reply) and replaying (evolve) use, so a
 * recovered flag is the flag that was answered. `flag` is undefined only for `flag.created`. Lifecycle and
 * on/off values come from the machines (an accepted event is replayed through the same step that decided
 * it); strategy events carry the `enabled` the environment machine decided.
 */
export function applyFlagEvent(flag: Flag | undefined, event: FlagEvent): Flag | null {
  // A created flag read back from the log is JSON: its maps become ones that inherit nothing again.
  if (event.type === 'flag.created') return withDicts(event.flag);
  if (event.type === 'flag.deleted') return null;
  if (!flag) throw new Error(`event ${event.type} for unknown flag "${event.name}"`);
  // The stages a report entered, as the stage machine decided them; the flag keeps its version.
  if (event.type === 'flag.stages-entered') return { ...flag, stages: withEntered(flag.stages, event.stages, event.at) };
  const { version } = event;
  switch (event.type) {
    case 'flag.updated':
      return { ...flag, ...event.after, version };
    case 'flag.archived':
      return { ...flag, archived: (flagRules.archive(flag.archived) ?? flag).archived, archivedAt: event.at, version };
    case 'flag.revived': {
      const revived = flagRules.revive(flag.archived);
      // A revived flag starts its lifecycle again at initial, as in Unleash.
      const stages: FlagStages = event.at === undefined ? {} : { initial: event.at };
      if (!revived?.resetEnvironments) return { ...flag, archived: (revived ?? flag).archived, archivedAt: null, stages, version };
      const environments = dict(Object.entries(flag.environments).map(([env, entry]): [string, FlagEnvironment] =>
        [env, { ...entry, enabled: (flagRules.reset(entry.enabled, enabledCount(entry)) ?? entry).enabled }]));
      return { ...flag, archived: revived.archived, archivedAt: null, environments, stages, version };
    }
    case 'strategy.added':
      return withEnvironment(flag, event.environment, version, (e) => ({ enabled: event.enabled, strategies: ordered([...e.strategies, strategyWithDict(event.strategy)]) }));
    case 'strategy.updated':
      return withEnvironment(flag, event.environment, version, (e) => ({
        enabled: event.enabled,
        strategies: ordered(e.strategies.map((s) => (s.id === event.strategy.id ? strategyWithDict(event.strategy) : s))),
      }));
    case 'strategy.deleted':
      return withEnvironment(flag, event.environment, version, (e) => ({
        enabled: event.enabled,
        strategies: e.strategies.filter((s) => s.id !== event.before.id),
      }));
    case 'strategies.sorted': {
      const orders = new Map(event.order.map((o) => [o.id, o.sortOrder]));
      return withEnvironment(flag, event.environment, version, (e) => ({
        ...e,
        strategies: ordered(e.strategies.map((s) => (orders.has(s.id) ? { ...s, sortOrder: orders.get(s.id)! } : s))),
      }));
    }
    case 'flag.enabled':
      return withEnvironment(flag, event.environment, version, (e) => {
        const activated = new Set(event.activated ?? []);
        const current = activated.size === 0 ? e.strategies : e.strategies.map((s) => (activated.has(s.id) ? { ...s, disabled: false } : s));
        const strategies = event.added ? ordered([...current, strategyWithDict(event.added)]) : current;
        return { enabled: (flagRules.enable(e.enabled, enabledCount({ strategies })) ?? e).enabled, strategies };
      });
    case 'flag.disabled':
      return withEnvironment(flag, event.environment, version, (e) => ({ ...e, enabled: (flagRules.disable(e.enabled, enabledCount(e)) ?? e).enabled }));
    case 'variants.updated':
      return { ...flag, variants: event.variants, version };
    case 'flag.tagged':
      return { ...flag, tags: retagged(flag.tags ?? [], event.added, event.removed), version };
    case 'dependency.added':
      return { ...flag, dependencies: [...(flag.dependencies ?? []).filter((d) => d.feature !== event.dependency.feature), event.dependency], version };
    case 'flag.completed':
      return { ...flag, stages: { ...flag.stages, completed: event.completion }, version };
    case 'flag.uncompleted': {
      const { completed: _completed, ...stages } = flag.stages ?? {};
      return { ...flag, stages, version };
    }
    case 'flag.imported':
      return withDicts({ ...event.flag, version });
    case 'dependencies.removed': {
      const gone = new Set(event.removed.map((d) => d.feature));
      return { ...flag, dependencies: (flag.dependencies ?? []).filter((d) => !gone.has(d.feature)), version };
    }
  }
}

/** Whether two tags are the same (type and value). */
export const sameTag = (a: Tag, b: Tag): boolean => a.type === b.type && a.value === b.value;

/** `tags` without `removed`, then `added` at the end (each tag once). */
function retagged(tags: readonly Tag[], added: readonly Tag[], removed: readonly Tag[]): Tag[] {
  const next = tags.filter((t) => !removed.some((r) => sameTag(r, t)));
  for (const tag of added) if (!next.some((t) => sameTag(t, tag))) next.push({ type: tag.type, value: tag.value });
  return next;
}
