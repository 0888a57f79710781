/**
 * The console's archive: the archived flags of every project, most recently archived first. Each project's
 * archived flags are gathered once per state version, so a page scans only what changed since the last one.
 */
import type { Registry } from '../actors/registry.js';
import type { Flag } from '../domain/types.js';
import { nameMatches } from './applications.query.js';
import { pageOf, type ListPage } from './paging.js';
import { archivedFlags } from './flags.query.js';
import { perStateVersion } from './state-memo.js';

/** An archived flag as the archive lists it. */
export interface ArchivedRow {
  project: string;
  projectName: string;
  flag: Pick<Flag, 'name' | 'type' | 'description' | 'archivedAt' | 'createdAt'>;
}

const archivedOf = perStateVersion((state) => {
  const listed = archivedFlags(state);
  return listed.ok ? listed.value : [];
});

const newestFirst = (a: ArchivedRow, b: ArchivedRow) => {
  const x = a.flag.archivedAt ?? '';
  const y = b.flag.archivedAt ?? '';
  if (x !== y) return x > y ? -1 : 1;
  return a.flag.name < b.flag.name ? -1 : a.flag.name > b.flag.name ? 1 : a.project < b.project ? -1 : 1;
};

/**
 * One page of the archived flags of every project whose name holds `q`.
 *
 * @example archivePage(registry, { q: 'checkout', page: 1 }, 50).rows[0]?.flag.name
 */
export function archivePage(registry: Registry, query: { q?: string | undefined; page: number }, pageSize: number): ListPage<ArchivedRow> {
  const rows: ArchivedRow[] = [];
  for (const id of registry.projectIds()) {
    const state = registry.project(id)?.state;
    if (!state) continue;
    for (const flag of archivedOf(state)) if (nameMatches(flag.name, query.q)) rows.push({ project: id, projectName: state.meta.name, flag });
  }
  return pageOf(rows.sort(newestFirst), query.page, pageSize);
}
