import { flagRules } from '../../machines/flag-rules.js';
import type { FlagEvent } from './events.js';
import type { Flag, FlagEnvironment, Strategy } from './types.js';

const EMPTY: FlagEnvironment = Object.freeze({ ...flagRules.newEnvironment(), strategies: [] }) as unknown as FlagEnvironment;

/** Number of strategies that are evaluated (not `disabled`): the guard input of the environment machine. */
export const enabledCount = (entry: { strategies: readonly { disabled: boolean }[] }): number =>
  entry.strategies.filter((s) => !s.disabled).length;

/** Strategies in evaluation order; equal sortOrders keep list order (Array.prototype.sort is stable). */
export const ordered = (strategies: Strategy[]): Strategy[] => [...strategies].sort((a, b) => a.sortOrder - b.sortOrder);

function withEnvironment(flag: Flag, environment: string, version: number, change: (entry: FlagEnvironment) => FlagEnvironment): Flag {
  const entry = (Object.hasOwn(flag.environments, environment) ? flag.environments[environment] : undefined) ?? EMPTY;
  return { ...flag, version, environments: { ...flag.environments, [environment]: change(entry) } };
}

/**
 * The flag after `event`: the one function both deciding (for the reply) and replaying (evolve) use, so a
 * recovered flag is the flag that was answered. `flag` is undefined only for `flag.created`. Lifecycle and
 * on/off values come from the machines (an accepted event is replayed through the same step that decided
 * it); strategy events carry the `enabled` the environment machine decided.
 */
export function applyFlagEvent(flag: Flag | undefined, event: FlagEvent): Flag | null {
  if (event.type === 'flag.created') return event.flag;
  if (event.type === 'flag.deleted') return null;
  if (!flag) throw new Error(`event ${event.type} for unknown flag "${event.name}"`);
  const { version } = event;
  switch (event.type) {
    case 'flag.updated':
      return { ...flag, ...event.after, version };
    case 'flag.archived':
      return { ...flag, archived: (flagRules.archive(flag.archived) ?? flag).archived, archivedAt: event.at, version };
    case 'flag.revived': {
      const revived = flagRules.revive(flag.archived);
      if (!revived?.resetEnvironments) return { ...flag, archived: (revived ?? flag).archived, archivedAt: null, version };
      const environments: Record<string, FlagEnvironment> = {};
      for (const [env, entry] of Object.entries(flag.environments)) {
        environments[env] = { ...entry, enabled: (flagRules.reset(entry.enabled, enabledCount(entry)) ?? entry).enabled };
      }
      return { ...flag, archived: revived.archived, archivedAt: null, environments, version };
    }
    case 'strategy.added':
      return withEnvironment(flag, event.environment, version, (e) => ({ enabled: event.enabled, strategies: ordered([...e.strategies, event.strategy]) }));
    case 'strategy.updated':
      return withEnvironment(flag, event.environment, version, (e) => ({
        enabled: event.enabled,
        strategies: ordered(e.strategies.map((s) => (s.id === event.strategy.id ? event.strategy : s))),
      }));
    case 'strategy.deleted':
      return withEnvironment(flag, event.environment, version, (e) => ({
        enabled: event.enabled,
        strategies: e.strategies.filter((s) => s.id !== event.before.id),
      }));
    case 'flag.enabled':
      return withEnvironment(flag, event.environment, version, (e) => {
        const strategies = event.added ? ordered([...e.strategies, event.added]) : e.strategies;
        return { enabled: (flagRules.enable(e.enabled, enabledCount({ strategies })) ?? e).enabled, strategies };
      });
    case 'flag.disabled':
      return withEnvironment(flag, event.environment, version, (e) => ({ ...e, enabled: (flagRules.disable(e.enabled, enabledCount(e)) ?? e).enabled }));
    case 'variants.updated':
      return { ...flag, variants: event.variants, version };
  }
}
