/** @jsxImportSource hono/jsx */
/**
 * The flag table's search and filters: a GET form, so the view is its URL (shareable, back-button friendly).
 * The sort and page size ride along as hidden fields; a new search starts at the first page.
 */
import type { FlagTableEnvironment } from '../../../queries/flag-table/flag-table.query.js';
import { FLAG_TYPES } from '../../../schemas/feature.schema.js';
import type { FlagTableQuery } from '../../../schemas/flag-table.schema.js';
import { flagTableSearch } from '../../../schemas/flag-table.schema.js';
import { tableUrl } from './flag-urls.js';

export interface FlagFiltersProps {
  projectId: string;
  query: FlagTableQuery;
  environments: FlagTableEnvironment[];
}

const STALENESS = [['fresh', 'Active'], ['potentially-stale', 'Potentially stale'], ['stale', 'Stale']] as const;

/** Whether the query narrows the flags at all (text or any filter). */
export function isFiltered(query: FlagTableQuery): boolean {
  return Boolean(query.q) || query.type.length + query.stale.length + query.tag.length + query.enabled.length > 0;
}

/**
 * The search form above the table. On a phone the search comes first and the other filters fold behind one
 * "Filters" control (a checkbox and its label, styles only: no script), open when one of them is set.
 */
export function FlagFilters({ projectId, query, environments }: FlagFiltersProps) {
  const folded = query.type.length + query.stale.length + query.tag.length + query.enabled.length;
  const enabled = query.enabled[0];
  const enabledValue = enabled ? `${enabled.environment}:${enabled.on ? 'on' : 'off'}` : '';
  const tag = query.tag[0];
  const cleared = tableUrl(projectId, flagTableSearch({ ...query, q: undefined, type: [], stale: [], tag: [], enabled: [], offset: 0 }));
  return (
    <form method="get" action={tableUrl(projectId)} class="filters flag-filters" role="search" aria-label="Search and filter flags">
      <div class="field filter-search">
        <label for="filter-q">Search</label>
        <input id="filter-q" type="search" name="q" value={query.q ?? ''} placeholder="Name or description" maxlength={100} autocomplete="off" />
      </div>
      <input type="checkbox" id="filter-more" class="filter-toggle" aria-controls="filter-fields" checked={folded > 0} />
      <label for="filter-more" class="button filter-toggle-label">{folded > 0 ? `Filters (${folded})` : 'Filters'}</label>
      <div id="filter-fields" class="filter-fields">
        <div class="field">
          <label for="filter-type">Type</label>
          <select id="filter-type" name="type">
            <option value="">Any type</option>
            {FLAG_TYPES.map((t) => <option value={t} selected={query.type[0] === t}>{t}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="filter-stale">Status</label>
          <select id="filter-stale" name="stale">
            <option value="">Any status</option>
            {STALENESS.map(([value, label]) => <option value={value} selected={query.stale[0] === value}>{label}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="filter-tag">Tag</label>
          <input id="filter-tag" name="tag" value={tag ? `${tag.type}:${tag.value}` : ''} placeholder="type:value" maxlength={100} autocomplete="off" />
        </div>
        <div class="field">
          <label for="filter-enabled">Enabled</label>
          <select id="filter-enabled" name="enabled">
            <option value="">Anywhere</option>
            {environments.flatMap((env) => [
              <option value={`${env.name}:on`} selected={enabledValue === `${env.name}:on`}>{`On in ${env.name}`}</option>,
              <option value={`${env.name}:off`} selected={enabledValue === `${env.name}:off`}>{`Off in ${env.name}`}</option>,
            ])}
          </select>
        </div>
      </div>
      {query.sort !== 'createdAt' ? <input type="hidden" name="sort" value={query.sort} /> : null}
      <input type="hidden" name="order" value={query.order} />
      {query.archived ? <input type="hidden" name="archived" value="true" /> : null}
      {query.limit !== 50 ? <input type="hidden" name="limit" value={String(query.limit)} /> : null}
      <div class="filter-actions">
        <button type="submit" class="button button-primary">Search</button>
        {isFiltered(query) ? <a class="button" href={cleared}>Clear</a> : null}
      </div>
    </form>
  );
}
