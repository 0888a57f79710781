import { LRUCache } from 'lru-cache';
import type { ChangeRequestBook } from '../../domain/change-request-book.js';
import type { Flag, ProjectMeta } from '../../domain/types.js';
import { PAST_VIEW_CHECKPOINT_BYTES } from '../../limits.js';

/** A project's state kept after a past log record: the flag map is a copy, the flags and meta are the (immutable) records. */
export interface Checkpoint {
  seq: number;
  meta: ProjectMeta;
  flags: Map<string, Flag>;
  /** The change requests then (an immutable book: kept by reference). */
  changeRequests: ChangeRequestBook;
}

/** Estimated bytes of one entry of a checkpoint's flag map (the map's slot, its key is the flag's own name). */
const MAP_ENTRY_BYTES = 40;

/**
 * The past-view checkpoints of every project (`past-states.ts`), in one byte budget: least recently used first
 * out. A checkpoint's size is estimated when it is kept: its map, plus the flag images set since the checkpoint
 * before it in the same replay (`estimatedBytes`), since consecutive checkpoints share every flag that did not change.
 *
 * @example const checkpoints = new PastCheckpoints(64 * 2 ** 20); const owner = checkpoints.owner();
 */
export class PastCheckpoints {
  private readonly cache: LRUCache<string, Checkpoint>;
  private owners = 0;

  constructor(readonly maxBytes: number = PAST_VIEW_CHECKPOINT_BYTES) {
    this.cache = new LRUCache<string, Checkpoint>({ maxSize: maxBytes });
  }

  /** A key prefix of one project's past (a project deleted and made again gets another). */
  owner(): string {
    this.owners += 1;
    return `${this.owners}/`;
  }

  /** `owner`'s checkpoint after record `seq`, if it is still kept (and now the most recently used). */
  get(owner: string, seq: number): Checkpoint | undefined {
    return this.cache.get(`${owner}${seq}`);
  }

  /** Whether `owner`'s checkpoint after `seq` is kept, without using it. */
  has(owner: string, seq: number): boolean {
    return this.cache.has(`${owner}${seq}`);
  }

  /**
   * Keeps `checkpoint` for `owner`, sized by its map and `own`, the flag images no earlier checkpoint of the
   * replay holds (those set since it); the least recently used ones go while the budget is exceeded.
   */
  set(owner: string, checkpoint: Checkpoint, own: Iterable<Flag>): void {
    let bytes = checkpoint.flags.size * MAP_ENTRY_BYTES + estimatedBytes(checkpoint.meta);
    for (const flag of own) bytes += estimatedBytes(flag);
    this.cache.set(`${owner}${checkpoint.seq}`, checkpoint, { size: Math.max(1, Math.ceil(bytes)) });
  }

  delete(owner: string, seq: number): void {
    this.cache.delete(`${owner}${seq}`);
  }

  /** Estimated bytes of every checkpoint kept. */
  get bytes(): number {
    return this.cache.calculatedSize;
  }

  /** Whether `count` checkpoints of `flags` flags each fit what is left of the budget, counting their maps alone. */
  fit(count: number, flags: number): boolean {
    return count * flags * MAP_ENTRY_BYTES <= this.maxBytes - this.cache.calculatedSize;
  }

  /** Whether the budget is nine-tenths used: a start stops building checkpoints ahead there. */
  get full(): boolean {
    return this.cache.calculatedSize >= 0.9 * this.maxBytes;
  }
}

/**
 * Heap bytes of a JSON-shaped value, estimated from V8's layout on 64 bits: an object 24 bytes plus 8 per
 * property, an array 16 plus 8 per element, a string 16 plus its length (one byte per character), a number
 * 8; `true`, `false` and `null` are shared. Shared substructure is counted once per reference.
 *
 * @example estimatedBytes({ name: 'checkout', enabled: true }) // 24 + 16 + 24 = 64
 */
export function estimatedBytes(value: unknown): number {
  switch (typeof value) {
    case 'string': return 16 + value.length;
    case 'number': return 8;
    case 'object': {
      if (value === null) return 0;
      if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + estimatedBytes(item), 16 + 8 * value.length);
      let bytes = 24;
      for (const key in value) bytes += 8 + estimatedBytes((value as Record<string, unknown>)[key]);
      return bytes;
    }
    default: return 0;
  }
}
