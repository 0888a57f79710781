/**
 * The console's flag table (issue 31 §2): one page of a project's flags, searched, filtered and sorted by the
 * server from the flag search's per-project indexes (`search-index.ts`, shared with
 * `GET /api/admin/search/features`): the free text is an `indexOf` over the project's joined names and
 * descriptions, the order is the search's kept order for the column, and one pass over it counts the matches
 * and keeps the page's flags. Only the page's flags become rows.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as v from 'valibot';
import type { Registry } from '../../actors/registry.js';
import { fail, failAt } from '../../domain/errors.js';
import type { ProjectState } from '../../domain/project-state.js';
import { failed, ok, type Result } from '../../domain/result.js';
import type { Flag } from '../../domain/types.js';
import { FlagTableQuerySchema, type FlagTableQuery } from '../../schemas/flag-table.schema.js';
import { flagTableFilter } from './flag-table-filter.js';
import { flagRow, type FlagRow, type FlagTableEnvironment, type FlagTablePage } from './flag-table-row.js';
import { TableColumns } from './flag-table-columns.js';
import { textMatches, type SearchIndexes } from '../search/search-index.js';
import { comparator, orderKey, sortField } from '../search/search-order.js';

export type { FlagRow, FlagRowEnvironment, FlagTableEnvironment, FlagTablePage } from './flag-table-row.js';

/** The table a project page opens on: every active flag, newest first. */
const FIRST_PAGE = v.parse(FlagTableQuerySchema, {});

/**
 * The flag table of every project, over the search's indexes.
 *
 * @example new FlagTable(registry, deps.search.indexes).page(actor.state, v.parse(FlagTableQuerySchema, {}))
 */
export class FlagTable {
  private readonly columns = new TableColumns();

  constructor(private readonly registry: Registry, private readonly indexes: SearchIndexes) {}

  /**
   * The page `query` asks for of the project whose committed state is `state`, with staleness judged at
   * `now`. A 400 `ValidationError` when `enabled` names an environment the project is not connected to.
   */
  page(state: ProjectState, query: FlagTableQuery, now: number = Date.now()): Result<FlagTablePage> {
    const id = state.meta.id;
    const connected = new Set(state.meta.environments);
    const unknown = query.enabled.find((f) => !connected.has(f.environment));
    if (unknown) return failed(failAt('ValidationError', 'enabled', `project "${id}" has no environment "${unknown.environment}"`));
    const environments = this.environmentsOf(state);
    const names = environments.map((e) => e.name);

    const usage = this.registry.usage.counts;
    const order = this.orderOf(id, state, query);
    const index = this.indexes.index(id, state);
    const text = query.q ? textMatches(index, [query.q]) : undefined;
    const keep = flagTableFilter(query, index, this.columns, now);

    const { offset, limit } = query;
    const end = offset + limit;
    const flags: Flag[] = [];
    let total = 0;
    for (let k = 0; k < order.length; k += 1) {
      const at = order[k]!;
      if (text !== undefined && text[at] === 0) continue;
      if (!keep(at)) continue;
      if (total >= offset && total < end) flags.push(index.base[at]!.flag);
      total += 1;
    }
    const rows = flags.map((flag) => flagRow(flag, names, usage.seen(id, flag.name).lastSeenAt, now, this.columns.staleFromOf(flag)));
    return ok({ rows, total, offset, limit, environments });
  }

  /**
   * Builds what each project's first page needs, one project after another: its index in slices between
   * other work (`SearchIndexes.warm`), then the page's order. Started once the server listens, so the first
   * page after a start does not build a 100,000-flag index; a page asked meanwhile builds what is missing.
   *
   * @example void table.warm()
   */
  async warm(): Promise<void> {
    for (const id of this.registry.projectIds()) {
      const actor = this.registry.project(id);
      if (!actor) continue;
      await this.indexes.warm(id, actor.state);
      this.orderOf(id, actor.state, FIRST_PAGE);
      await nextTurn();
    }
  }

  /**
   * One flag's row as the table shows it (for the page to redraw a row after a switch); a 404 `NotFoundError`
   * when the project has no flag of that name.
   */
  row(state: ProjectState, name: string, now: number = Date.now()): Result<FlagRow> {
    const flag = state.flags.get(name);
    if (!flag) return failed(fail('NotFoundError', `Could not find feature flag "${name}" in project "${state.meta.id}"`));
    const names = this.environmentsOf(state).map((e) => e.name);
    return ok(flagRow(flag, names, this.registry.usage.counts.seen(state.meta.id, name).lastSeenAt, now, this.columns.staleFromOf(flag)));
  }

  /** The project's flags in the order `query` sorts by (kept by the search's indexes). */
  private orderOf(id: string, state: ProjectState, query: FlagTableQuery): Uint32Array {
    const usage = this.registry.usage.counts;
    const descending = query.order === 'desc';
    const field = sortField(query.sort, (project, flag) => usage.seen(project, flag).lastSeenAt);
    return this.indexes.order(id, state, orderKey(query.sort, descending, usage.version(id)), comparator(field, descending));
  }

  /** The project's environments, in the service's order: the table's switch columns. */
  private environmentsOf(state: ProjectState): FlagTableEnvironment[] {
    const connected = new Set(state.meta.environments);
    return this.registry.service.state.environments.filter((e) => connected.has(e.name)).map(({ name, type }) => ({ name, type }));
  }
}
