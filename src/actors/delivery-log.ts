/**
 * The delivery log of every addon (`GET /api/admin/addons/:id/events`): one entry per attempt, in Unleash's
 * integration event shape plus the attempt's number and when the next one is due. Kept outside every command log
 * under `add/<id>/l/` (docs/storage.md "Integrations"), at most `ADDON_DELIVERY_BOUNDS.logEntriesPerAddon` per addon:
 * an entry's write deletes the oldest past the bound in the same batch. Entries never hold a secret: the worker
 * masks the addon's sensitive values before it writes one.
 */
import { decode, encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import type { BatchOp, Store } from '../../snapshots/store.js';
import type { DeliveryState } from '../addons/delivery-outcome.js';
import type { UnleashEvent } from '../addons/unleash-event.js';

/** One attempt, as the API answers it (Unleash's `IntegrationEvent`, with `attempt` and `retryAt`). */
export interface DeliveryLogEntry {
  /** A number as text (Unleash's ids are bigints); grows with every entry of every addon. */
  id: string;
  integrationId: number;
  createdAt: string;
  state: DeliveryState;
  stateDetails: string;
  event: UnleashEvent;
  details: Record<string, unknown>;
  /** 1 for the first attempt at this event since the process started, then 2, 3, ... */
  attempt: number;
  /** When the next attempt is due; null once the event is done (delivered, failed for good, or given up). */
  retryAt: string | null;
}

/** Every addon's entries: their ids in memory (a few hundred numbers each), their bodies on disk. */
export class DeliveryLog {
  private readonly ids = new Map<number, number[]>();
  private nextId = 1;

  private constructor(private readonly store: Store, private readonly bound: number) {}

  /** Reads the ids of every entry on disk (keys only). */
  static async open(store: Store, bound: number): Promise<DeliveryLog> {
    const log = new DeliveryLog(store, bound);
    for await (const key of store.keys(keys.addonsPrefix)) {
      const match = /^add\/(\d+)\/l\/(\d+)$/.exec(key);
      if (!match) continue;
      const addon = Number(match[1]);
      const id = Number(match[2]);
      const list = log.ids.get(addon) ?? [];
      list.push(id);
      log.ids.set(addon, list);
      log.nextId = Math.max(log.nextId, id + 1);
    }
    return log;
  }

  /** The writes that add `entry` (given its id here) and drop the oldest entries past the bound. */
  append(entry: Omit<DeliveryLogEntry, 'id'>): BatchOp[] {
    const id = this.nextId;
    this.nextId += 1;
    const list = this.ids.get(entry.integrationId) ?? [];
    list.push(id);
    this.ids.set(entry.integrationId, list);
    const ops: BatchOp[] = [{ type: 'put', key: keys.addonLog(entry.integrationId, id), value: encode({ id: String(id), ...entry }) }];
    while (list.length > this.bound) ops.push({ type: 'del', key: keys.addonLog(entry.integrationId, list.shift()!) });
    return ops;
  }

  /**
   * A page of an addon's entries, newest first; `[]` for an unknown addon (as Unleash). A damaged entry is skipped.
   *
   * @example await log.page(3, 50, 0)
   */
  async page(addonId: number, limit: number, offset: number): Promise<DeliveryLogEntry[]> {
    const out: DeliveryLogEntry[] = [];
    let skipped = 0;
    for await (const [key, value] of this.store.entries(keys.addonLogPrefix(addonId), { reverse: true })) {
      if (skipped < offset) {
        skipped += 1;
        continue;
      }
      try {
        out.push(decode<DeliveryLogEntry>(key, value));
      } catch {
        continue;
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  /** The writes that remove every entry of a deleted addon. */
  forget(addonId: number): BatchOp[] {
    const list = this.ids.get(addonId) ?? [];
    this.ids.delete(addonId);
    return list.map((id) => ({ type: 'del', key: keys.addonLog(addonId, id) }));
  }
}
