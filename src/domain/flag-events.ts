import type { FlagEvent } from './events.js';
import type { Flag, FlagEnvironment, Strategy } from './types.js';

const EMPTY: FlagEnvironment = Object.freeze({ enabled: false, strategies: [] }) as unknown as FlagEnvironment;

/** Strategies in evaluation order; equal sortOrders keep list order (Array.prototype.sort is stable). */
export const ordered = (strategies: Strategy[]): Strategy[] => [...strategies].sort((a, b) => a.sortOrder - b.sortOrder);

function withEnvironment(flag: Flag, environment: string, version: number, change: (entry: FlagEnvironment) => FlagEnvironment): Flag {
  const entry = flag.environments[environment] ?? EMPTY;
  return { ...flag, version, environments: { ...flag.environments, [environment]: change(entry) } };
}

/**
 * The flag after `event`: the one function both deciding (for the reply) and replaying (evolve) use, so a
 * recovered flag is the flag that was answered. `flag` is undefined only for `flag.created`.
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
      return { ...flag, archived: true, archivedAt: event.at, version };
    case 'flag.revived': {
      const environments: Record<string, FlagEnvironment> = {};
      for (const [env, entry] of Object.entries(flag.environments)) environments[env] = { ...entry, enabled: false };
      return { ...flag, archived: false, archivedAt: null, environments, version };
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
      return withEnvironment(flag, event.environment, version, (e) => ({
        enabled: true,
        strategies: event.added ? ordered([...e.strategies, event.added]) : e.strategies,
      }));
    case 'flag.disabled':
      return withEnvironment(flag, event.environment, version, (e) => ({ ...e, enabled: false }));
    case 'variants.updated':
      return { ...flag, variants: event.variants, version };
  }
}
