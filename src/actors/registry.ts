import type { RecoveryNotice } from '../../snapshots/recovery.js';
import { openStore } from '../../snapshots/open-store.js';
import type { Store, WriteHealth } from '../../snapshots/store.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { Decision } from '../domain/errors.js';
import type { ProjectEvent } from '../domain/events.js';
import { failed, ok, type Result } from '../domain/result.js';
import type { ProjectMeta } from '../domain/types.js';
import type { ProjectActor, ServiceActor } from './actor-types.js';
import { DEFAULT_WRITE_TIMEOUT_MS, type ActorOptions } from './actor-options.js';
import { CommittedFeed } from './committed-feed.js';
import { DEFAULT_HISTORY_BOUNDS } from './feed-history.js';
import { firstStart } from './first-start.js';
import { readHistory, type HistoryPage, type HistoryQuery } from './past/history.js';
import { settlePendingImports } from './import-settle.js';
import { recoverActors } from './recovery/actors-recovery.js';
import type { UnavailableError } from './recovery/service-recovery.js';
import { settlePendingSegments } from './change-request-settle.js';
import { ProjectActors } from './project-actors.js';
import { pastOf, type ProjectPast } from './past/project-past.js';
import { PastCheckpoints } from './past/past-checkpoints.js';
import { DEFAULT_CONTACT_TIMEOUT_MS, actorOptionsOf, type RegistryObservers, type RegistryOptions } from './registry-options.js';
import { SegmentFences } from './segment-fences.js';
import { ProjectLifecycle } from './project-lifecycle.js';
import { servingState, type ServingState } from './serving-state.js';
import { UsageActor } from './usage-actor.js';
import { windowBudget, type BudgetBounds, type WindowBudget } from './window-budget.js';
import { SessionStore } from './session-store.js';
import { checkTokenKey } from './token-key-check.js';
import { ClusterNode } from './cluster/cluster-node.js';
import type { ClusterQueue } from './cluster/cluster-queue.js';
import { foreignTargetsOf } from './cluster/foreign-targets.js';
import type { ServiceModel } from './service-model.js';
import { AddonDeliveries } from './addons/addon-deliveries.js';
import { DEFAULT_DELIVERY_SETTINGS } from './registry-options.js';

/** The lock across nodes that a segment's delete or move holds alone and strategy writes naming segments share. */
const SEGMENT_REFERENCES = 'segment-references';

/**
 * Owns the store and every actor: the service actor and one actor per project, recovered from disk at
 * open. Use cases find a project's actor here and send it commands; nothing else writes, and nothing outside
 * the actors touches the store.
 *
 * @example const registry = await Registry.open({ dataDir, initEnvironments: ['development', 'production'] });
 */
export class Registry {
  private readonly projects = new ProjectActors();
  /** What recovery worked around, for the operator's log. */
  readonly notices: RecoveryNotice[] = [];
  /** Projects whose log could not be recovered, with the error naming the key (see `ProjectActors`). */
  readonly unavailable = this.projects.unavailable;
  /** Why the service log could not be fully recovered (it is then served read-only, its writes answer 503 naming this); null: it was. */
  serviceUnavailable: UnavailableError | null = null;
  /** Hooks the metrics set; the actors and the store call them after each batch and snapshot. */
  readonly observers: RegistryObservers = {};
  /**
   * This node's part among several on one store: the global order, other nodes' commits, the snapshot lease,
   * waits for a revision or a catch-up (`reached`, `freshen`), where singleton work runs (`singletonWork`).
   */
  readonly node: ClusterNode;
  /** The mailbox of rules that span the service and projects: user deletion, membership, project creation (one at a time across nodes). */
  readonly access: ClusterQueue;
  /** Every committed batch, after it is on disk, and the service's revision (see `CommittedFeed`). */
  readonly feed: CommittedFeed;
  /** The mailbox of tag writes: a tag needs its type, a type in use stays (src/use-cases/tags.use-cases.ts). */
  readonly tagWrites: ClusterQueue;
  /** The mailbox of segment writes: one create, update or delete at a time (src/use-cases/segments.use-cases.ts). */
  readonly segmentWrites: ClusterQueue;
  private readonly fences = new SegmentFences();
  /** How projects come to be served and stop being served. */
  private readonly lifecycle: ProjectLifecycle;
  // Assigned in open(), before any use; the service model looks projects up through this registry.
  service!: ServiceActor;
  private serviceModel!: ServiceModel;
  /** SDK usage metrics: counts, last seen, applications; kept outside every log (docs/storage.md "Usage metrics"). */
  usage!: UsageActor;
  /** The console's sessions, outside every log (docs/storage.md "Sessions"). */
  sessions!: SessionStore;
  /** The addons' delivery loops (started by `start`, not by opening) and their delivery log (docs/storage.md "Integrations"). */
  deliveries!: AddonDeliveries;
  /** Every project's past-view checkpoints, in one byte budget (`PAST_VIEW_CHECKPOINT_BYTES`, docs/limits.md). */
  pastCheckpoints!: PastCheckpoints;
  /** The actors' options, with the hooks that report their commits to the feed and the observers. */
  private readonly options: ActorOptions;
  /** The scrypt work of password hashes, when a test chose less than the default (`RegistryOptions.passwordWork`). */
  passwordWork: RegistryOptions['passwordWork'];

  private constructor(
    /** The store (LevelDB or PostgreSQL): the actors write it, through this registry; nothing else touches it. */
    private readonly store: Store,
    options: ActorOptions,
    readonly limits: Limits,
    feed: CommittedFeed,
  ) {
    this.feed = feed;
    this.node = new ClusterNode(store.shared, options.log, foreignTargetsOf({
      store, projects: this.projects, service: () => this.service, serviceModel: () => this.serviceModel,
      projectModel: (id) => this.lifecycle.modelOf(id), serve: (id, model, recovered) => this.lifecycle.serve(id, model, recovered),
    }), feed);
    this.lifecycle = new ProjectLifecycle({
      store, projects: this.projects, limits, fences: this.fences, sequencer: this.node.sequencer, options: () => this.options,
      service: () => this.service, serviceWritable: () => !this.serviceUnavailable,
    });
    this.access = this.node.queue('access');
    this.tagWrites = this.node.queue('tags');
    this.segmentWrites = this.node.queue('segments');
    this.options = {
      ...options,
      snapshotLease: this.node.snapshotLease,
      onCommit: (scope, records, revision) => this.feed.publish(scope, records, revision),
      onCommitted: (types) => this.observers.committed?.(types),
      onSnapshot: (ms, bytes) => this.observers.snapshot?.(ms, bytes),
    };
    store.observers.committed = (ms, ops) => this.observers.written?.(ms, ops);
  }

  /**
   * Opens the store under `options.dataDir` and recovers the service and every project from it; a new data
   * directory gets its first state (`first-start.ts`). What could not be recovered is not served, or the
   * service is served read-only (see {@link unavailable}, {@link serviceUnavailable}).
   */
  static async open(options: RegistryOptions): Promise<Registry> {
    const base = actorOptionsOf(options);
    const store = await openStore({ dataDir: options.dataDir, database: options.database }, { gate: options.writeGate });
    try {
      if (options.tokenKeyFingerprint !== undefined) await checkTokenKey(store, options.tokenKeyFingerprint);
      const registry = new Registry(store, base, options.limits ?? DEFAULT_LIMITS, new CommittedFeed(0, options.feedHistory ?? DEFAULT_HISTORY_BOUNDS));
      registry.node.contactTimeoutMs = options.contactTimeoutMs ?? DEFAULT_CONTACT_TIMEOUT_MS;
      registry.passwordWork = options.passwordWork;
      await registry.recover(options.initEnvironments);
      registry.usage = await UsageActor.open(store, registry.feed, {
        flushMs: options.usageFlushMs ?? 10_000,
        log: base.log,
        exists: (project, flag) => registry.projects.get(project)?.state.flags.has(flag) ?? false,
      });
      registry.sessions = await SessionStore.open(store, options.sessions ?? { idleMs: 720 * 60_000, maxMs: 168 * 3_600_000 }, base.log, () => registry.node.snapshotLease?.held ?? true);
      registry.pastCheckpoints = new PastCheckpoints(options.pastViewCheckpointBytes);
      registry.deliveries = await AddonDeliveries.open({
        store, feed: registry.feed, logger: base.log, service: () => registry.service, project: (id) => registry.projects.get(id), projectIds: () => registry.projectIds(),
        checkStaleness: () => registry.service.send({ type: 'flags.potential-staleness.check' }, 'system'),
      }, options.addons ?? DEFAULT_DELIVERY_SETTINGS);
      return registry;
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  /** The service, then every project; a new data directory's first state; deletions and imports a stop interrupted. */
  private async recover(initEnvironments: string[]): Promise<void> {
    const { notices, deleted } = await recoverActors({
      store: this.store, limits: this.limits, options: this.options, projects: this.projects, lifecycle: this.lifecycle, feed: this.feed, node: this.node,
      adoptService: (service, model, unavailable) => {
        this.service = service;
        this.serviceModel = model;
        this.serviceUnavailable = unavailable;
      },
    });
    this.notices.push(...notices);
    const unavailable = this.serviceUnavailable;
    if (this.service.seq === 0 && !unavailable) {
      // Once for the installation: nodes starting together on a new database take turns, and one finds it done.
      await this.access.run(async () => {
        if (this.service.seq > 0) return;
        const first = firstStart(initEnvironments, new Date().toISOString());
        await this.service.send({ type: 'service.init', state: first.service }, 'system');
        await this.createProject(first.project, 'system');
      });
    }
    // A project deleted just before the process stopped: finish removing it.
    for (const id of deleted) {
      this.projects.deletingStarted(id);
      try {
        await this.lifecycle.purge(id, 'system');
        this.projects.deletingDone(id);
      } catch (error) {
        this.options.log.error({ project: id, err: error }, `removing the data of deleted project "${id}" failed; the next start tries again`);
      }
    }
    // What a stop left half done: an import's definitions, an applied change request's segment changes.
    if (!unavailable) for (const settle of [settlePendingImports, settlePendingSegments]) await settle(this, this.options.log);
  }

  /** The actor of project `id`, or undefined when none is served. */
  project(id: string): ProjectActor | undefined {
    return this.projects.get(id);
  }

  /** The ids of the projects served. */
  projectIds(): string[] {
    return this.projects.ids();
  }

  /** The actor of a project a request names: one 404 for every unknown id, a 503 naming the key for one not recovered. */
  find(id: string): Result<ProjectActor> {
    return this.projects.find(id);
  }

  /** Creates a project, its id reserved at once (`ProjectLifecycle.create`). */
  createProject(meta: ProjectMeta, by: string): Promise<Decision<ProjectEvent, ProjectMeta>> {
    return this.lifecycle.create(meta, by);
  }

  /** Deletes a project and removes its data (`ProjectLifecycle.delete`). Run it in {@link access}. */
  deleteProject(id: string, by: string): Promise<Decision<ProjectEvent, string[]>> {
    return this.lifecycle.delete(id, by);
  }

  /** A budget of cost per key over windows of time, one count for every node on the store (`window-budget.ts`). */
  budget(name: string, bounds: BudgetBounds): WindowBudget {
    return windowBudget(this.store.shared, name, bounds);
  }

  /** Whether other nodes write to this store too (PostgreSQL): revisions clients show may be ahead of this node's. */
  get shared(): boolean {
    return this.store.shared !== null;
  }

  /** Where the data lives, safe to print: `leveldb <directory>` or `postgres <host:port/database>` (no credentials). */
  get storeLabel(): string {
    return `${this.store.kind} ${this.store.label}`;
  }

  /** How the store's writes fare: failing since when, the last error, how long the write in progress has waited. */
  writeHealth(now = Date.now()): WriteHealth {
    return this.store.writeHealth(now);
  }

  /** Whether everything is served (`serving-state.ts`), and if not, what and why. */
  serving(now = Date.now()): ServingState {
    return servingState({
      writes: this.store.writeHealth(now),
      writeTimeoutMs: this.options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS,
      writesTo: this.store.writesTo,
      serviceReadOnly: this.service.readOnlyReason,
      unavailable: this.unavailable,
      contact: this.store.shared ? { contact: this.store.shared.contact(now), timeoutMs: this.node.contactTimeoutMs, now } : undefined,
    });
  }

  /**
   * Runs `task` with segment `id` fenced (`segment-fences.ts`): commands that arrive at a project from now on
   * cannot newly reference it, except at project `allow` (none when null); `task` settles the projects (so the
   * commands that arrived before are committed) and then has the change decided. Used inside
   * {@link segmentWrites}, so one fence per segment at a time.
   *
   * @example await registry.withSegmentFenced(7, null, async () => { await registry.settleProjects(); return registry.service.send(...); })
   */
  withSegmentFenced<T>(id: number, allow: string | null, task: () => Promise<T>): Promise<T> {
    // Across nodes: no strategy write naming segments is being decided on any node meanwhile (`referencingSegments`).
    return this.fences.around(id, allow, this.projects.arrivals(), () => this.node.withLock(SEGMENT_REFERENCES, 'exclusive', task));
  }

  /**
   * Runs `task`, a write of project `projectId` that may newly reference segments `ids` (any, when absent;
   * none when empty), once the fences around those segments are lifted (a delete or move being decided, here
   * or on another node: it is then decided before or after the write, never between its check and the write).
   *
   * @example return registry.referencingSegments('web', [7], () => sendToFlag(...));
   */
  async referencingSegments<T>(projectId: string, ids: readonly number[] | undefined, task: () => Promise<T>): Promise<T> {
    if (ids !== undefined && ids.length === 0) return task();
    await this.fences.lifted(projectId, ids);
    return this.node.withLock(SEGMENT_REFERENCES, 'shared', task);
  }

  /** Resolves once every project has answered every command it was sent before the call: their effects are committed. */
  settleProjects(): Promise<void> {
    return this.projects.settled();
  }

  /** A page of a project's history from its command log (docs/storage.md "History", `history.ts`). */
  async history(project: string, query: HistoryQuery): Promise<Result<HistoryPage>> {
    const found = this.find(project);
    return found.ok ? readHistory(this.store, project, query) : failed(found.error);
  }

  /** A project's past from its log and snapshots: filtered history pages, its state at a moment (`project-past.ts`). */
  past(project: string): Result<ProjectPast> {
    const found = this.find(project);
    return found.ok ? ok(pastOf(found.value, this.store, this.pastCheckpoints)) : failed(found.error);
  }

  /** Writes the last interval of usage, finishes queued commands, writes a snapshot of every actor, and closes the store. */
  async close(): Promise<void> {
    // Streams end first (cleanly, so SDKs reconnect), before the actors stop answering; deliveries stop with them.
    this.feed.close();
    await this.deliveries.close();
    this.node.stop();
    // Usage is not worth the final snapshots: whatever its last flush meets, the stop goes on to them.
    await this.usage.close().catch((error: unknown) => this.options.log.error({ err: error }, 'usage metrics: the last flush failed; its interval is lost'));
    for (const actor of this.projects.actors()) await actor.close();
    await this.service.close();
    this.sessions.close();
    await this.store.close();
  }
}
