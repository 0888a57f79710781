import type { ProjectState } from '../../domain/project-state.js';
import type { Environment } from '../../domain/service-state.js';
import type { Flag } from '../../domain/types.js';
import { orderedEnvironments } from './views.js';

/**
 * What the summaries need of a project's usage metrics: `lastSeenAt` per flag, and a version that moves
 * whenever one of them does (a flush that changed it), so cached answers are rebuilt then and only then.
 */
export interface SummaryUsage {
  version: number;
  lastSeenAt(flag: string): string | null;
}

/** Encoded JSON, the type Hono sends as is. */
export type Bytes = Uint8Array<ArrayBuffer>;

/**
 * A feature summary: the fields of docs/admin-contract.md §2.2 and the flag's `tags` (`[{value, type}]`, as Unleash
 * 6.10's flag list carries them; `[]` when none). Lists of large projects are mostly these, so nothing else is added.
 */
const summary = (flag: Flag, environments: Environment[], lastSeenAt: string | null) => ({
  name: flag.name,
  type: flag.type,
  stale: flag.stale,
  createdAt: flag.createdAt,
  lastSeenAt,
  environments: environments.map((env) => ({
    name: env.name,
    displayName: env.name,
    enabled: flag.environments[env.name]?.enabled ?? false,
  })),
  tags: (flag.tags ?? []).map((tag) => ({ value: tag.value, type: tag.type })),
});

interface FlagSummary {
  /** The project environments the summary was made for. */
  key: string;
  /** The `lastSeenAt` it shows. */
  lastSeenAt: string | null;
  json: string;
  bytes: number;
}

/**
 * The flag list and overview answers of each project, encoded once per project state version and usage
 * version (and health figure, for the overview; see `queries/health.query.ts`), from summaries cached per
 * flag image and `lastSeenAt`: a change re-serializes only the flags it replaced or saw again, and an answer is assembled by encoding each cached summary straight into one buffer of the
 * exact size (no intermediate string of the whole list), so even a 100k-flag project is rebuilt in tens of
 * milliseconds after a write and served from memory until the next.
 */
export class SummaryCache {
  private readonly perFlag = new WeakMap<Flag, FlagSummary>();
  private readonly lists = new Map<string, { key: string; body: Bytes }>();
  private readonly overviews = new Map<string, { key: string; body: Bytes }>();

  /** The whole answer of the flag list, `{"version":2,"features":[...]}`. */
  list(state: ProjectState, environments: Environment[], environmentsVersion: number, usage: SummaryUsage): Bytes {
    const key = `${state.version}:${environmentsVersion}:${usage.version}`;
    const cached = this.lists.get(state.meta.id);
    if (cached?.key === key) return cached.body;
    const body = this.assemble(state, environments, environmentsVersion, usage, '{"version":2,"features":', '}');
    this.lists.set(state.meta.id, { key, body });
    return body;
  }

  /**
   * The flag list of the flags `keep` selects (a filtered list, `?tag=`): assembled from the cached summaries
   * on every call, not kept, since filters vary.
   */
  filtered(state: ProjectState, environments: Environment[], environmentsVersion: number, usage: SummaryUsage, keep: (flag: Flag) => boolean): Bytes {
    return this.assemble(state, environments, environmentsVersion, usage, '{"version":2,"features":', '}', keep);
  }

  /** The overview answer for a `health` figure: `head(health)` gives the overview without its features. */
  overview(state: ProjectState, environments: Environment[], environmentsVersion: number, usage: SummaryUsage, health: number, head: (health: number) => object): Bytes {
    const key = `${state.version}:${environmentsVersion}:${usage.version}:${health}`;
    const cached = this.overviews.get(state.meta.id);
    if (cached?.key === key) return cached.body;
    const json = JSON.stringify(head(health));
    const body = this.assemble(state, environments, environmentsVersion, usage, `${json.slice(0, -1)},"features":`, '}');
    this.overviews.set(state.meta.id, { key, body });
    return body;
  }

  /** `prefix` + `[` + the summaries of the active flags, comma separated + `]` + `suffix`, encoded. */
  private assemble(state: ProjectState, environments: Environment[], environmentsVersion: number, usage: SummaryUsage, prefix: string, suffix: string, keep?: (flag: Flag) => boolean): Bytes {
    const envs = orderedEnvironments(environments, state.meta.environments);
    const envKey = `${environmentsVersion}:${state.meta.environments.join(',')}`;
    const parts: FlagSummary[] = [];
    let size = Buffer.byteLength(prefix) + Buffer.byteLength(suffix) + 2;
    for (const flag of state.flags.values()) {
      if (flag.archived || (keep && !keep(flag))) continue;
      let part = this.perFlag.get(flag);
      const lastSeenAt = usage.lastSeenAt(flag.name);
      if (part?.key !== envKey || part.lastSeenAt !== lastSeenAt) {
        const json = JSON.stringify(summary(flag, envs, lastSeenAt));
        part = { key: envKey, lastSeenAt, json, bytes: Buffer.byteLength(json) };
        this.perFlag.set(flag, part);
      }
      parts.push(part);
      size += part.bytes + 1;
    }
    if (parts.length > 0) size -= 1;
    // Every byte is written below, so the buffer need not be zeroed first.
    const out = Buffer.allocUnsafeSlow(size);
    let offset = out.write(prefix, 0);
    out[offset++] = 0x5b; // [
    for (let i = 0; i < parts.length; i += 1) {
      if (i > 0) out[offset++] = 0x2c; // ,
      offset += out.write(parts[i]!.json, offset);
    }
    out[offset++] = 0x5d; // ]
    out.write(suffix, offset);
    return new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.byteLength);
  }
}
