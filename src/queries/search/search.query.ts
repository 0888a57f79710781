/**
 * Flag search (`GET /api/admin/search/features`, Unleash 6.10's feature search), answered from the projects'
 * committed states. Each project keeps, per state version, its flags sorted in each order asked for and its
 * flags' lower-cased names and descriptions joined in one string (`search-index.ts`), so a search is a few
 * `indexOf` scans for the free text and one pass over the sorted flags of the projects in scope: count every
 * match, keep the first `offset + limit`. Several projects' kept matches are merged by the same order
 * (`search-order.ts`).
 */
import type { Registry } from '../../actors/registry.js';
import { creatorUserId } from '../../domain/flag-creator.js';
import type { Flag } from '../../domain/types.js';
import type { FeatureSearchQuery } from '../../schemas/search.schema.js';
import { shownName } from '../flag-creators.query.js';
import { isMatch, searchFilter } from './search-filter.js';
import { SearchIndexes, textMatches } from './search-index.js';
import { comparator, orderKey, sortField, type Hit } from './search-order.js';
import { searchFeature, type SearchAnswer } from './search-view.js';

/** The user who created `flag`, as a search entry names them (none: an API token, or a deleted user). */
function creatorOf(registry: Registry, flag: Flag): { id: number; name: string } | undefined {
  const id = creatorUserId(flag);
  const user = id === undefined ? undefined : registry.service.state.users[String(id)];
  const name = user && shownName(user);
  return id !== undefined && name ? { id, name } : undefined;
}

const DEFAULT_LIMIT = 50;

/**
 * The searches of one app: the per-project indexes and sort orders live here, keyed on state versions.
 *
 * @example new FeatureSearch(registry).search({ query: ['checkout'], limit: 10 }).total
 */
export class FeatureSearch {
  /** The per-project indexes and orders, shared with the console's flag table (`flag-table.query.ts`). */
  readonly indexes: SearchIndexes;

  constructor(private readonly registry: Registry) {
    this.indexes = new SearchIndexes(() => registry.projectIds());
  }

  /** One page of the flags the query selects, in its order, and how many it selects in all. */
  search(query: FeatureSearchQuery): SearchAnswer {
    const registry = this.registry;
    const offset = query.offset ?? 0;
    const limit = query.limit ?? DEFAULT_LIMIT;
    let descending = query.sortOrder === 'desc';
    let sortBy = query.sortBy ?? 'createdAt';
    // An environment no project has: every key is null, so the order is the tie-break alone (createdAt, name,
    // ascending). Mapped to that order, so made-up names cannot make a project sort (and keep) order after order.
    if (sortBy.startsWith('environment:') && !registry.service.state.environments.some((e) => `environment:${e.name}` === sortBy)) {
      sortBy = 'createdAt';
      descending = false;
    }
    const field = sortField(sortBy, (project, flag) => registry.usage.counts.seen(project, flag).lastSeenAt);
    const compare = comparator(field, descending);
    const keep = offset + limit;
    const projects = registry.projectIds().filter((id) => !query.project || isMatch(query.project.operator, query.project.values, id));
    const segmentNames = new Map(Object.values(registry.service.state.segments).map((s) => [s.id, s.name]));
    const matches = searchFilter(query, segmentNames);
    const terms = query.query ?? [];

    let total = 0;
    const kept: Hit[] = [];
    for (const id of projects) {
      const state = registry.project(id)?.state;
      if (!state) continue;
      const key = orderKey(sortBy, descending, registry.usage.counts.version(id));
      const order = this.indexes.order(id, state, key, compare);
      const index = this.indexes.index(id, state);
      const text = terms.length > 0 ? textMatches(index, terms) : undefined;
      let taken = 0;
      for (let k = 0; k < order.length; k += 1) {
        const at = order[k]!;
        if (text !== undefined && text[at] === 0) continue;
        const entry = index.base[at]!;
        if (!matches(entry)) continue;
        total += 1;
        if (taken < keep) {
          kept.push({ flag: entry.flag, project: id });
          taken += 1;
        }
      }
    }
    if (projects.length > 1) kept.sort(compare);
    const environments = registry.service.state.environments;
    const features = kept.slice(offset, keep).map(({ flag, project }) => {
      const state = registry.project(project)!.state;
      return searchFeature(flag, {
        project, environments, connected: new Set(state.meta.environments), segmentNames,
        seen: registry.usage.counts.seen(project, flag.name), parent: this.indexes.parents(project, state).has(flag.name),
        creator: creatorOf(registry, flag),
      });
    });
    return { features, total };
  }
}
