/** One row of the console's flag table, and the page of rows the table query answers. */
import { currentStage } from '../../domain/flag-stages.js';
import { stalenessAt, type Staleness } from '../../domain/project-health.js';
import type { Flag, LifecycleStage, Tag } from '../../domain/types.js';

/** A flag in one environment of its project, as the table's switch needs it. */
export interface FlagRowEnvironment {
  name: string;
  enabled: boolean;
  /** Whether switching on needs no strategy added first (else the page offers the project's default strategy). */
  hasEnabledStrategy: boolean;
  strategyCount: number;
}

/** One flag of the table. */
export interface FlagRow {
  name: string;
  /** Shown nowhere in the row; the free text matches it. */
  description: string;
  type: Flag['type'];
  createdAt: string;
  /** When an SDK last reported the flag (any environment); null when never. */
  lastSeenAt: string | null;
  /** The lifecycle or staleness mark: archived, or the staleness of an active flag at the moment asked. */
  mark: 'archived' | Staleness;
  /** The lifecycle stage it is in now (docs/api-decisions.md "Feature lifecycle"). */
  stage: LifecycleStage;
  archivedAt: string | null;
  tags: Tag[];
  /** The project's environments, in the service's order. */
  environments: FlagRowEnvironment[];
  /** The flag's version: the `If-Match` of a switch sent from this row. */
  version: number;
  /** What the row shows that a live update may change ({@link rowMark}). */
  shown: string;
}

/** A column of the table: one environment the project is connected to. */
export interface FlagTableEnvironment {
  name: string;
  type: string;
}

/** One page of the table: its rows, how many flags the query selects in all, and the environment columns. */
export interface FlagTablePage {
  rows: FlagRow[];
  total: number;
  offset: number;
  limit: number;
  environments: FlagTableEnvironment[];
}

/**
 * `flag` as a row of the table at `now`.
 *
 * @example flagRow(flag, ['development', 'production'], null, Date.now(), potentiallyStaleFrom(flag))
 */
export function flagRow(flag: Flag, environments: readonly string[], lastSeenAt: string | null, now: number, staleFrom: number): FlagRow {
  return {
    name: flag.name,
    description: flag.description,
    type: flag.type,
    createdAt: flag.createdAt,
    lastSeenAt,
    mark: flag.archived ? 'archived' : stalenessAt(flag, now, staleFrom),
    stage: currentStage(flag).stage,
    archivedAt: flag.archivedAt,
    tags: flag.tags ?? [],
    environments: environments.map((name) => {
      const strategies = flag.environments[name]?.strategies ?? [];
      return {
        name,
        enabled: flag.environments[name]?.enabled ?? false,
        hasEnabledStrategy: strategies.some((s) => !s.disabled),
        strategyCount: strategies.length,
      };
    }),
    version: flag.version,
    shown: rowMark(flag),
  };
}

/**
 * What a drawn row shows that changes under it: the flag's version and its lifecycle stage (SDK reports move the
 * stage without a new version). A live update whose mark is the row's own has nothing new to draw.
 *
 * @example rowMark(flag) // '12:pre-live'
 */
export function rowMark(flag: Flag): string {
  return `${flag.version}:${currentStage(flag).stage}`;
}
