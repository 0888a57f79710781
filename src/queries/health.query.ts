import type { ProjectState } from '../domain/project-state.js';
import { healthAt, healthFacts, potentiallyStaleFrom, type HealthFacts } from '../domain/project-health.js';
import type { Flag } from '../domain/types.js';

/**
 * Project health (docs/api-decisions.md "Overview") as the overview, the project list and later the console ask for
 * it: facts cached per project state version, the figure computed at the moment asked.
 *
 * @example const health = new HealthQuery(); health.of(actor.state, Date.now()) // 100
 */
export class HealthQuery {
  private readonly facts = new Map<string, { version: number; facts: HealthFacts }>();
  /** Parsing 100k creation dates is most of the cost of health; each flag image is parsed once. */
  private readonly staleFrom = new WeakMap<Flag, number>();
  private readonly staleFromOf = (flag: Flag): number => {
    let from = this.staleFrom.get(flag);
    if (from === undefined) {
      from = potentiallyStaleFrom(flag);
      this.staleFrom.set(flag, from);
    }
    return from;
  };

  /** The project's health at `now`. */
  of(state: ProjectState, now: number): number {
    let cached = this.facts.get(state.meta.id);
    if (cached?.version !== state.version) {
      cached = { version: state.version, facts: healthFacts(state.flags.values(), this.staleFromOf) };
      this.facts.set(state.meta.id, cached);
    }
    return healthAt(cached.facts, now);
  }
}
