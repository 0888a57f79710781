/**
 * Segments (docs/client-contract.md "Segments"): named lists of constraints that strategies reference by id. They are
 * service-wide state (the service actor holds them); strategies live in project actors and name them.
 */
import { fail } from './errors.js';
import type { ProjectState } from './project-state.js';
import { failed, ok, type Result } from './result.js';
import type { Constraint, Strategy, StrategyInput } from './types.js';

/** A stored segment. `project` null: a global segment, usable by every project. */
export interface Segment {
  /** From 1, never reused (the service keeps `nextSegmentId`). */
  id: number;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Constraint[];
  createdAt: string;
  /** Who created it, as a person reads it (a username, email or token name). */
  createdBy: string | null;
  /**
   * The service sequence number of the record that last created or changed it: what a client-API ETag
   * includes, so a changed segment changes the answer's version.
   */
  version: number;
}

/** The segment with this id among `segments` (the service's, by id); 404 when there is none. */
export function segmentWithId(segments: Readonly<Record<string, Segment>>, id: number): Result<Segment> {
  const segment = Object.hasOwn(segments, String(id)) ? segments[String(id)] : undefined;
  return segment ? ok(segment) : failed(fail('NotFoundError', `Could not find segment with id ${id}`));
}

/** What a create or an update gives: the fields a client chooses. */
export type SegmentInput = Pick<Segment, 'name' | 'description' | 'project' | 'constraints'>;

/** What a project's decisions know of a segment. */
export type SegmentRef = Pick<Segment, 'id' | 'name' | 'project'>;

/** Values a segment holds in all: the length of each constraint's `values` (as Unleash 6.10 counts them). */
export const segmentValueCount = (constraints: readonly Constraint[]): number =>
  constraints.reduce((sum, c) => sum + (c.values?.length ?? 0), 0);

/**
 * One place a segment is referenced: a strategy of a flag in an environment (archived flags and environments
 * disconnected from the project included, since both can come back), or a project's default strategy.
 */
export interface SegmentUse {
  project: string;
  /** Null for a default strategy. */
  feature: string | null;
  environment: string;
  archived: boolean;
}

const references = (strategy: Strategy | StrategyInput, id: number) => strategy.segments?.includes(id) ?? false;

/** Every place in one project's committed state that references segment `id`, flags in creation order. */
export function segmentUsesIn(state: Pick<ProjectState, 'meta' | 'flags'>, id: number): SegmentUse[] {
  const project = state.meta.id;
  const uses: SegmentUse[] = [];
  for (const flag of state.flags.values()) {
    for (const [environment, entry] of Object.entries(flag.environments)) {
      if (entry.strategies.some((s) => references(s, id))) uses.push({ project, feature: flag.name, environment, archived: flag.archived });
    }
  }
  for (const [environment, strategy] of Object.entries(state.meta.defaultStrategies)) {
    if (references(strategy, id)) uses.push({ project, feature: null, environment, archived: false });
  }
  return uses;
}

/** How a use reads in a message: `project/flag in environment`. */
export const describeUse = (use: SegmentUse): string =>
  use.feature === null
    ? `the default strategy of project "${use.project}" in ${use.environment}`
    : `${use.project}/${use.feature}${use.archived ? ' (archived)' : ''} in ${use.environment}`;
