/**
 * The console's stale flags: per project, the active flags marked stale, those past their type's expected
 * lifetime (the rule project health counts with, `domain/project-health.ts`) and those no SDK has asked for in
 * 7 days (by the usage metrics' last seen; a flag younger than that is not counted unused yet).
 */
import type { Registry } from '../actors/registry.js';
import { LIFETIME_DAYS, potentiallyStaleFrom } from '../domain/project-health.js';
import type { ProjectState } from '../domain/project-state.js';
import type { Flag } from '../domain/types.js';
import type { StaleKind } from '../schemas/insight-pages.schema.js';
import { nameMatches } from './applications.query.js';
import { pageOf, type ListPage } from './paging.js';
import { projectUsage } from './usage.query.js';

/** Days without an SDK asking for a flag before it counts as unused. */
export const UNUSED_DAYS = 7;
const DAY_MS = 86_400_000;

/** A flag the stale page lists, with why. */
export interface StaleRow {
  flag: Pick<Flag, 'name' | 'type' | 'createdAt' | 'stale'>;
  kinds: StaleKind[];
  /** For an overdue flag: when its type's lifetime ended (ms since the epoch), and that lifetime in days. */
  overdue: { since: number; lifetimeDays: number | null } | null;
  lastSeenAt: string | null;
}

/** How many flags of a project are of each kind, and of any. */
export interface StaleCounts {
  stale: number;
  overdue: number;
  unused: number;
  any: number;
}

/** A project with its counts. */
export interface StaleProject {
  id: string;
  name: string;
  counts: StaleCounts;
}

function rowsOf(registry: Registry, state: ProjectState, now: number): StaleRow[] {
  const usage = projectUsage(registry, state.meta.id);
  const unusedBefore = new Date(now - UNUSED_DAYS * DAY_MS).toISOString();
  const rows: StaleRow[] = [];
  for (const flag of state.flags.values()) {
    if (flag.archived) continue;
    const kinds: StaleKind[] = [];
    if (flag.stale) kinds.push('stale');
    const due = potentiallyStaleFrom(flag);
    const overdue = due < now;
    if (overdue) kinds.push('overdue');
    const lastSeenAt = usage.lastSeenAt(flag.name);
    if (flag.createdAt < unusedBefore && (lastSeenAt === null || lastSeenAt < unusedBefore)) kinds.push('unused');
    if (kinds.length > 0) rows.push({ flag: { name: flag.name, type: flag.type, createdAt: flag.createdAt, stale: flag.stale }, kinds, overdue: overdue ? { since: due, lifetimeDays: LIFETIME_DAYS[flag.type] } : null, lastSeenAt });
  }
  return rows;
}

function countsOf(rows: readonly StaleRow[]): StaleCounts {
  const counts: StaleCounts = { stale: 0, overdue: 0, unused: 0, any: rows.length };
  for (const row of rows) for (const kind of row.kinds) counts[kind] += 1;
  return counts;
}

/** Every project with its counts, in the registry's order. */
export function staleProjects(registry: Registry, now = Date.now()): StaleProject[] {
  const projects: StaleProject[] = [];
  for (const id of registry.projectIds()) {
    const state = registry.project(id)?.state;
    if (state) projects.push({ id, name: state.meta.name, counts: countsOf(rowsOf(registry, state, now)) });
  }
  return projects;
}

/**
 * One page of a project's flags of `kind` (absent: any kind) whose name holds `q`, by name, with the
 * project's counts.
 */
export function staleFlagPage(registry: Registry, state: ProjectState, query: { kind?: StaleKind | undefined; q?: string | undefined; page: number }, pageSize: number, now = Date.now()): ListPage<StaleRow> & { counts: StaleCounts } {
  const all = rowsOf(registry, state, now);
  const chosen = all
    .filter((row) => (query.kind === undefined || row.kinds.includes(query.kind)) && nameMatches(row.flag.name, query.q))
    .sort((a, b) => (a.flag.name < b.flag.name ? -1 : a.flag.name > b.flag.name ? 1 : 0));
  return { ...pageOf(chosen, query.page, pageSize), counts: countsOf(all) };
}
