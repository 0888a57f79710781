/**
 * The plan of a migration: for every thing the source holds, compared with what the target holds (its dump),
 * one step (create, update, unchanged, or skipped with a reason) and the admin API requests that carry it
 * out. Requests that need an id the target gives later (a segment's, a user's) name it through `Ids`,
 * resolved when they are sent. Nothing here sends anything: `--dry-run` prints the plan. This module holds the
 * vocabulary of a plan; the steps are made in `service-steps.ts` and `flag-steps.ts`.
 */
import type { Strategy } from './source-model.js';

/** The kinds of things a migration carries, in the order it carries them. */
export const KINDS = ['environments', 'tag types', 'context fields', 'strategy definitions', 'projects', 'segments', 'default strategies', 'users', 'project roles', 'flags', 'dependencies', 'addons', 'api tokens'] as const;
/** One of {@link KINDS}. */
export type Kind = (typeof KINDS)[number];

/** The target's ids of things named in the source. */
export interface Ids {
  segment(name: string): number;
  user(sourceId: number): number;
}

/** One admin API request of a step; a path or body that needs a target id is a function of {@link Ids}. */
export interface Op {
  method: string;
  path: string | ((ids: Ids) => string);
  body?: unknown;
}

/** What the migration does with one thing of the source, and the requests that do it. */
export interface Step {
  kind: Kind;
  name: string;
  action: 'create' | 'update' | 'unchanged' | 'skip';
  /** Why skipped, or what an update changes. */
  detail?: string;
  ops: Op[];
  /** Sent in the last phase, after every flag and dependency: archiving. */
  after?: Op[];
}

/** What the target accepts beyond the base API (read from its OpenAPI document). */
export interface Capabilities {
  projectFields: Set<string>;
  projectUpdate: boolean;
  /** `PUT /api/admin/environments/update/:name` (type, sort order). */
  environmentUpdate: boolean;
  /** `POST /api/admin/environments/:name/on` and `/off`. */
  environmentToggle: boolean;
  /** `PUT /api/admin/environments/sort-order`. */
  environmentSortOrder: boolean;
}

/** A strategy as flagpole's add body, its segments resolved to the target's ids when sent. */
export const strategyBody = (s: Strategy, sortOrder: number) => (ids: Ids) => ({
  name: s.name, title: s.title, disabled: s.disabled, sortOrder, constraints: s.constraints, parameters: s.parameters,
  variants: s.variants.map(({ overrides: _o, ...rest }) => rest), segments: s.segments.map((name) => ids.segment(name)),
});

/** Resolves the function-valued parts of an op. */
export function resolve(op: Op, ids: Ids): { method: string; path: string; body?: unknown } {
  const path = typeof op.path === 'function' ? op.path(ids) : op.path;
  const body = typeof op.body === 'function' ? (op.body as (ids: Ids) => unknown)(ids) : op.body;
  return body === undefined ? { method: op.method, path } : { method: op.method, path, body };
}
