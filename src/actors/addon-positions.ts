/**
 * Where one addon is in each scope's command log: the last record whose events it has handled (delivered, failed
 * for good or given up). Kept outside every log under `add/<id>/p/<scope>` (docs/storage.md "Integrations") and
 * written with the attempt that moved it, so after a crash the addon resumes at the first record it had not
 * finished: every event is delivered at least once. A scope it has no position in yet starts at the addon's `since`
 * (its creation, or the moment it was last enabled): the last record at or before it.
 */
import { decode, encode } from '../../snapshots/codec.js';
import { keys, scopeOfPart, type Scope } from '../../snapshots/keys.js';
import type { BatchOp, Store } from '../../snapshots/store.js';
import { lastAtOrBefore, logBounds } from './log-positions.js';

const partOf = (scope: Scope): string => (scope === 'service' ? 'svc' : `p/${scope.project}`);

/** One addon's positions. */
export class AddonPositions {
  private constructor(
    private readonly store: Store,
    readonly addonId: number,
    private readonly seqs: Map<string, number>,
    /** ISO time: records committed at or before it are not this addon's. */
    private since: string,
  ) {}

  /** Reads the addon's positions and `since` (its creation time when none was written). */
  static async load(store: Store, addonId: number, createdAt: string): Promise<AddonPositions> {
    const seqs = new Map<string, number>();
    const prefix = keys.addonPositionPrefix(addonId);
    for await (const [key, value] of store.entries(prefix)) {
      try {
        seqs.set(partOf(scopeOfPart(key.slice(prefix.length))), decode<{ seq: number }>(key, value).seq);
      } catch {
        // A damaged position is read as none: the scope restarts at `since`, which may deliver some events again.
      }
    }
    const stored = await store.get(keys.addonSince(addonId));
    let since = createdAt;
    if (stored !== undefined) {
      try {
        since = decode<{ since: string }>(keys.addonSince(addonId), stored).since;
      } catch {
        since = createdAt;
      }
    }
    return new AddonPositions(store, addonId, seqs, since);
  }

  /** The scopes the addon holds a position in. */
  scopes(): Scope[] {
    return [...this.seqs.keys()].map(scopeOfPart);
  }

  /** The last record handled in `scope`; found from `since` the first time (0: from the log's start). */
  async of(scope: Scope): Promise<number> {
    const known = this.seqs.get(partOf(scope));
    if (known !== undefined) return known;
    const bounds = await logBounds(this.store, scope);
    const start = bounds === null ? 0 : (await lastAtOrBefore(this.store, scope, bounds, this.since))?.seq ?? bounds.first.seq - 1;
    this.seqs.set(partOf(scope), start);
    return start;
  }

  /** Moves the position in `scope` to `seq`: the write to make with the attempt that finished it. */
  set(scope: Scope, seq: number): BatchOp {
    this.seqs.set(partOf(scope), seq);
    return { type: 'put', key: keys.addonPosition(this.addonId, scope), value: encode({ seq }) };
  }

  /** Forgets a scope (a deleted project): the write that removes its position. */
  drop(scope: Scope): BatchOp {
    this.seqs.delete(partOf(scope));
    return { type: 'del', key: keys.addonPosition(this.addonId, scope) };
  }

  /** Starts counting afresh from `since` (an addon enabled again): the writes that record it. */
  restart(since: string): BatchOp[] {
    const ops: BatchOp[] = this.scopes().map((scope) => ({ type: 'del', key: keys.addonPosition(this.addonId, scope) }));
    this.seqs.clear();
    this.since = since;
    ops.push({ type: 'put', key: keys.addonSince(this.addonId), value: encode({ since }) });
    return ops;
  }
}

/** The writes that remove everything an addon kept outside the logs but its delivery log (see `DeliveryLog.forget`). */
export async function addonPositionDeletions(store: Store, addonId: number): Promise<BatchOp[]> {
  const ops: BatchOp[] = [{ type: 'del', key: keys.addonSince(addonId) }];
  for await (const key of store.keys(keys.addonPositionPrefix(addonId))) ops.push({ type: 'del', key });
  return ops;
}
