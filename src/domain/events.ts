import type { SeenStage } from '../../machines/flag-rules.js';
import type { ChangeRequestEvent } from './change-request-events.js';
import type { Dependency, Flag, FlagCompletion, FlagType, ProjectMeta, Strategy, StrategyOrder, Tag, Variant } from './types.js';

/** The metadata a flag update changes. */
export interface FlagMetadata {
  description: string;
  type: FlagType;
  stale: boolean;
  impressionData: boolean;
}

/** Every flag event names its flag and the version (project sequence number) it gives the flag. */
interface OnFlag {
  name: string;
  version: number;
}

/**
 * What happened to a flag, past tense. Each event carries only what changed, with the previous value of
 * what it replaced or removed (as Unleash's events carry `data` and `preData`), so records stay small however
 * many strategies a flag has, and the history can show both sides.
 */
export type FlagEvent =
  | { type: 'flag.created'; flag: Flag }
  | ({ type: 'flag.updated'; before: FlagMetadata; after: FlagMetadata } & OnFlag)
  | ({ type: 'flag.archived'; at: string } & OnFlag)
  /** `at` is absent in logs written before flags had lifecycle stages. */
  | ({ type: 'flag.revived'; at?: string } & OnFlag)
  | { type: 'flag.deleted'; name: string; before: Flag }
  /** `enabled`: the environment's state after the change, as the environment machine decided it. */
  | ({ type: 'strategy.added'; environment: string; strategy: Strategy; enabled: boolean } & OnFlag)
  | ({ type: 'strategy.updated'; environment: string; strategy: Strategy; before: Strategy; enabled: boolean } & OnFlag)
  | ({ type: 'strategy.deleted'; environment: string; before: Strategy; enabled: boolean } & OnFlag)
  /** `order`: the new sortOrder of each strategy that changed, `before`: their previous ones. */
  | ({ type: 'strategies.sorted'; environment: string; order: StrategyOrder[]; before: StrategyOrder[] } & OnFlag)
  /**
   * `added`: the default strategy `/on` added first, when it had to; `activated`: ids of the disabled strategies
   * enabled with it (`shouldActivateDisabledStrategies`; absent in older logs: none).
   */
  | ({ type: 'flag.enabled'; environment: string; added: Strategy | null; activated?: string[] } & OnFlag)
  | ({ type: 'flag.disabled'; environment: string } & OnFlag)
  | ({ type: 'variants.updated'; variants: Variant[]; before: Variant[] } & OnFlag)
  /** Only tags the flag did not have are `added`, only tags it had are `removed`. */
  | ({ type: 'flag.tagged'; added: Tag[]; removed: Tag[] } & OnFlag)
  /** `before`: the dependency on the same parent it replaced, if any. */
  | ({ type: 'dependency.added'; dependency: Dependency; before: Dependency | null } & OnFlag)
  | ({ type: 'dependencies.removed'; removed: Dependency[] } & OnFlag)
  /**
   * SDK reports from `environment` moved the flag into these lifecycle stages. No `version`: usage never
   * moves a flag's version or `ETag` (docs/api-decisions.md "Feature lifecycle").
   */
  | { type: 'flag.stages-entered'; name: string; environment: string; stages: SeenStage[]; at: string }
  /** Marked completed; `before`: the completion it replaced, if it was completed already. */
  | ({ type: 'flag.completed'; completion: FlagCompletion; before: FlagCompletion | null } & OnFlag)
  | ({ type: 'flag.uncompleted'; before: FlagCompletion } & OnFlag)
  /** An import replaced the flag whole (docs/api-decisions.md "Export and import"); `before`: the flag it replaced. */
  | ({ type: 'flag.imported'; flag: Flag; before: Flag } & OnFlag);

export type FlagEventType = FlagEvent['type'];

/** What happened in a project, past tense. */
export type ProjectEvent =
  | { type: 'project.created'; meta: ProjectMeta }
  | { type: 'project.updated'; meta: ProjectMeta; before: ProjectMeta }
  /**
   * An environment left the project: `meta` without it, and every flag's entry there (its strategies too)
   * removed, as Unleash removes them; flags that had an entry take `version`.
   */
  | { type: 'environment.disconnected'; environment: string; meta: ProjectMeta; before: ProjectMeta; version: number }
  | FlagEvent
  | ChangeRequestEvent;
