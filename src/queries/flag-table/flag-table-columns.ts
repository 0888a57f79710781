/**
 * Columns of one search index that the flag table's filters read: each flag's potentially-stale moment and
 * whether it is on in an environment, one typed array per index (so per state version), built on the first
 * filter that asks. A filter then walks typed arrays instead of 100k flags' records and environment maps.
 */
import { potentiallyStaleFrom } from '../../domain/project-health.js';
import type { Flag } from '../../domain/types.js';
import type { ProjectIndex } from '../search/search-index-types.js';

interface Columns {
  staleFrom?: Float64Array;
  enabled: Map<string, Uint8Array>;
}

/**
 * The columns of every index asked about; an index no longer used is forgotten with it.
 *
 * @example columns.enabled(index, 'production')[at] // 1 when the flag at `at` is on in production
 */
export class TableColumns {
  private readonly columns = new WeakMap<ProjectIndex, Columns>();
  /** Parsing creation dates is most of a staleness column's cost; each flag image is parsed once. */
  private readonly moments = new WeakMap<Flag, number>();

  /** {@link potentiallyStaleFrom} of one flag, kept per flag image. */
  readonly staleFromOf = (flag: Flag): number => {
    let from = this.moments.get(flag);
    if (from === undefined) {
      from = potentiallyStaleFrom(flag);
      this.moments.set(flag, from);
    }
    return from;
  };

  /** Each flag's potentially-stale moment (ms; NaN for never), by position in `index.base`. */
  staleFrom(index: ProjectIndex): Float64Array {
    const columns = this.of(index);
    if (!columns.staleFrom) {
      const column = new Float64Array(index.base.length);
      index.base.forEach((entry, at) => { column[at] = this.staleFromOf(entry.flag); });
      columns.staleFrom = column;
    }
    return columns.staleFrom;
  }

  /** 1 where the flag is on in `environment`, by position in `index.base`. */
  enabled(index: ProjectIndex, environment: string): Uint8Array {
    const columns = this.of(index);
    let column = columns.enabled.get(environment);
    if (!column) {
      column = new Uint8Array(index.base.length);
      const filled = column;
      index.base.forEach((entry, at) => { if (entry.flag.environments[environment]?.enabled) filled[at] = 1; });
      columns.enabled.set(environment, column);
    }
    return column;
  }

  private of(index: ProjectIndex): Columns {
    let columns = this.columns.get(index);
    if (!columns) {
      columns = { enabled: new Map() };
      this.columns.set(index, columns);
    }
    return columns;
  }
}
