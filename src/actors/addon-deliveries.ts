/**
 * The addons' deliveries (docs/api-decisions.md "Integrations", docs/storage.md "Integrations"): one
 * {@link AddonWorker} per enabled addon, told of every committed batch by the feed, started and stopped as addons are
 * created, changed, enabled, disabled and deleted. Delivery runs only where `start` was called, through a
 * {@link SingletonWork} (one node of a deployment); offline tools and `migrate` open the registry without it.
 */
import type { Scope } from '../../snapshots/keys.js';
import type { Store } from '../../snapshots/store.js';
import type { Addon } from '../domain/addons/addon.js';
import type { ServiceEvent } from '../domain/service-events.js';
import type { ServiceState } from '../domain/service-state.js';
import type { EventLookups } from '../addons/unleash-events.js';
import type { ProjectState } from '../domain/project-state.js';
import type { Logger } from '../log.js';
import { AddonPositions, addonPositionDeletions } from './addon-positions.js';
import { AddonWorker, type DeliverySettings } from './addon-worker.js';
import type { CommittedBatch, CommittedFeed } from './committed-feed.js';
import { DeliveryLog, type DeliveryLogEntry } from './delivery-log.js';
import { SerialQueue } from './serial-queue.js';
import type { RunningWork, SingletonWork } from './singleton-work.js';

/** A scope's committed state and position, as its actor holds them. */
interface Committed<S> {
  readonly state: S;
  readonly seq: number;
}

/** What the deliveries read of the registry. */
export interface DeliveriesDeps {
  store: Store;
  feed: CommittedFeed;
  logger: Logger;
  service(): Committed<ServiceState>;
  project(id: string): Committed<ProjectState> | undefined;
  projectIds(): string[];
}

/** The name of the lease delivery runs under (`SingletonWork`). */
export const DELIVERY_LEASE = 'addon-deliveries';

/** Every addon's delivery loop and delivery log. */
export class AddonDeliveries {
  private readonly workers = new Map<number, AddonWorker>();
  /** Starts and stops of workers, one at a time, in the order the feed told of them. */
  private readonly changes = new SerialQueue();
  private unsubscribe: (() => void) | null = null;
  private held: RunningWork | null = null;

  private readonly lookups: EventLookups;

  private constructor(private readonly deps: DeliveriesDeps, readonly log: DeliveryLog, readonly settings: DeliverySettings) {
    this.lookups = {
      user: (id) => deps.service().state.users[String(id)],
      flag: (project, name) => deps.project(project)?.state.flags.get(name),
    };
  }

  /** Reads the delivery log's index; nothing is delivered until {@link start}. */
  static async open(deps: DeliveriesDeps, settings: DeliverySettings): Promise<AddonDeliveries> {
    return new AddonDeliveries(deps, await DeliveryLog.open(deps.store, settings.logEntries), settings);
  }

  /** The last committed sequence number of a scope; undefined for a project no longer served. */
  private head(scope: Scope): number | undefined {
    return scope === 'service' ? this.deps.service().seq : this.deps.project(scope.project)?.seq;
  }

  /** Delivers from now on, on the node that holds the lease {@link DELIVERY_LEASE}. */
  start(work: SingletonWork): void {
    this.held ??= work.run(DELIVERY_LEASE, () => this.begin());
  }

  /** A page of an addon's delivery log, newest first. */
  page(addonId: number, limit: number, offset: number): Promise<DeliveryLogEntry[]> {
    return this.log.page(addonId, limit, offset);
  }

  /** Whether a worker delivers for this addon now (tests and `/health` read it). */
  delivering(addonId: number): boolean {
    return this.workers.has(addonId);
  }

  /** Stops delivering (requests in flight are dropped: their events go again at the next start). */
  async close(): Promise<void> {
    const held = this.held;
    this.held = null;
    await held?.stop();
  }

  private begin(): RunningWork {
    this.unsubscribe = this.deps.feed.subscribe((batch) => this.committed(batch));
    void this.changes.run(() => this.sync()).catch((error: unknown) => this.deps.logger.error({ err: error }, 'addon deliveries: could not start every addon\'s deliveries'));
    return { stop: () => this.end() };
  }

  private async end(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.changes.run(async () => {
      const stopping = [...this.workers.values()].map((w) => w.stop());
      this.workers.clear();
      await Promise.all(stopping);
    });
  }

  /** A listener of the feed: only takes note (workers wake up; addon changes are queued). */
  private committed(batch: CommittedBatch): void {
    for (const worker of this.workers.values()) worker.notify(batch.scope);
    if (batch.scope !== 'service') return;
    for (const record of batch.records) {
      for (const event of record.events as ServiceEvent[]) {
        if (event.type === 'addon.created' || event.type === 'addon.updated' || event.type === 'addon.deleted') {
          void this.changes.run(() => this.changed(event, record.at)).catch((error: unknown) => this.deps.logger.error({ err: error }, 'addon deliveries: could not apply an addon change'));
        }
      }
    }
  }

  /** Starts a worker for each enabled addon, and clears what deleted addons left on disk. */
  private async sync(): Promise<void> {
    const addons = Object.values(this.deps.service().state.addons ?? {});
    for (const addon of addons) if (addon.enabled && !this.workers.has(addon.id)) await this.startWorker(addon);
    const known = new Set(addons.map((a) => a.id));
    const leftovers = new Set<number>();
    for await (const key of this.deps.store.keys('add/')) {
      const id = Number(/^add\/(\d+)\//.exec(key)?.[1]);
      if (Number.isInteger(id) && !known.has(id)) leftovers.add(id);
    }
    for (const id of leftovers) await this.forget(id);
  }

  private async changed(event: Extract<ServiceEvent, { type: 'addon.created' | 'addon.updated' | 'addon.deleted' }>, at: string): Promise<void> {
    if (this.unsubscribe === null) return;
    const { addon } = event;
    const worker = this.workers.get(addon.id);
    if (event.type === 'addon.deleted') {
      await worker?.stop();
      this.workers.delete(addon.id);
      await this.forget(addon.id);
      return;
    }
    if (!addon.enabled) {
      await worker?.stop();
      this.workers.delete(addon.id);
      return;
    }
    if (worker) {
      worker.update(addon);
      return;
    }
    // Enabled again: it counts events from this moment, not from the ones it missed while disabled.
    const restart = event.type === 'addon.updated' ? at : null;
    await this.startWorker(addon, restart);
  }

  private async startWorker(addon: Addon, since: string | null = null): Promise<void> {
    const positions = await AddonPositions.load(this.deps.store, addon.id, addon.createdAt);
    if (since !== null) await this.deps.store.writeUnsynced(positions.restart(since));
    const scopes: Scope[] = ['service', ...this.deps.projectIds().map((project) => ({ project }))];
    const { store, logger } = this.deps;
    const head = (scope: Scope) => this.head(scope);
    this.workers.set(addon.id, new AddonWorker(addon, positions, { store, log: this.log, lookups: this.lookups, head, settings: this.settings, logger }, scopes));
  }

  /** Removes a deleted addon's positions and delivery log. */
  private async forget(addonId: number): Promise<void> {
    await this.deps.store.writeUnsynced([...(await addonPositionDeletions(this.deps.store, addonId)), ...this.log.forget(addonId)]);
  }
}
