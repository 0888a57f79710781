import { CorruptRecordError, encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import type { WriteGate } from '../../snapshots/disk-faults.js';
import type { RecoveryNotice } from '../../snapshots/recovery.js';
import { Store, type WriteHealth } from '../../snapshots/store.js';
import { DEFAULT_LIMITS, LIMIT_VARIABLES, overLimit, type Limits } from '../limits.js';
import { silentLogger } from '../log.js';
import type { ProjectLookups } from '../domain/context.js';
import { BUILT_IN_CONTEXT_FIELDS, BUILT_IN_STRATEGIES } from '../domain/definitions.js';
import type { SegmentUsage } from '../domain/decide-service.js';
import { fail, type Decision, type DomainError } from '../domain/errors.js';
import type { ProjectEvent } from '../domain/events.js';
import { PROJECT_OWNER, ROOT_ADMIN } from '../domain/roles.js';
import { segmentUsesIn } from '../domain/segment.js';
import type { ServiceState } from '../domain/service-state.js';
import { SIMPLE_TAG_TYPE } from '../domain/service-state.js';
import type { Flag, ProjectMeta } from '../domain/types.js';
import { CommandActor, DEFAULT_WRITE_TIMEOUT_MS, StorageError, type ActorOptions } from './command-actor.js';
import { CommittedFeed } from './committed-feed.js';
import { DEFAULT_HISTORY_BOUNDS, type HistoryBounds } from './feed-history.js';
import { readHistory, type HistoryPage, type HistoryQuery } from './history.js';
import { emptyProject, projectModel, stateFromSnapshot } from './project-model.js';
import { settlePendingImports } from './import-settle.js';
import { IncompatibleSnapshotError, recoverState } from './recover.js';
import { SerialQueue } from './serial-queue.js';
import { emptyServiceState, serviceModel } from './service-model.js';
import { UsageActor } from './usage-actor.js';

import type { ProjectActor, ServiceActor } from './actor-types.js';

export type { ProjectActor, ServiceActor } from './actor-types.js';

export interface RegistryOptions extends Partial<ActorOptions> {
  dataDir: string;
  /** Environments of a new data directory. */
  initEnvironments: string[];
  /** What may accumulate (docs/limits.md); the defaults when absent. */
  limits?: Limits | undefined;
  /** Milliseconds between two writes of the usage metrics (`METRICS_FLUSH_SECONDS`); 10 s when absent. */
  usageFlushMs?: number | undefined;
  /** How much committed history the feed keeps for deltas (`CLIENT_DELTA_HISTORY_*`); the defaults when absent. */
  feedHistory?: HistoryBounds | undefined;
  /** Test seam: consulted before every write of the store (`snapshots/disk-faults.ts`); absent in production. */
  writeGate?: WriteGate | undefined;
}

/** What the metrics are told as it happens (set by whoever reads them; nothing when unset). */
export interface RegistryObservers {
  /** Commands committed in one batch, by type. */
  committed?: ((types: readonly string[]) => void) | undefined;
  /** A snapshot written: how long it took (ms) and its stored bytes. */
  snapshot?: ((ms: number, bytes: number) => void) | undefined;
}

/** Whether the registry serves everything, and if not, what and why (for `/health` and the start's log). */
export interface ServingState {
  /** `serving`: reads and writes work. `degraded`: reads work, some or all writes do not. */
  status: 'serving' | 'degraded';
  /** One sentence per cause, for an operator. */
  problems: string[];
  /** The last write failed, or one has waited for the disk past the write timeout. */
  writesFailing: boolean;
  writes: WriteHealth;
}

const DEFAULTS: Omit<ActorOptions, 'log'> = { snapshotEvery: 1000, logRetention: 'all', maxBatch: 256 };

/** Why a stored project is not served: a damaged record, or a snapshot of machine versions this code cannot read. */
export type UnavailableError = CorruptRecordError | IncompatibleSnapshotError;

/**
 * Owns the store and every actor: the service actor and one actor per project, recovered from disk at
 * open. Use cases find a project's actor here and send it commands; nothing else writes, and nothing outside
 * the actors touches the store.
 */
export class Registry {
  private readonly projects = new Map<string, ProjectActor>();
  /** What recovery worked around, for the operator's log. */
  readonly notices: RecoveryNotice[] = [];
  /**
   * Projects whose log could not be recovered (a damaged record after the snapshot in use, or a snapshot this
   * code cannot read), with the error naming the key. They are not served, not silently started without
   * acknowledged data; the others are.
   */
  readonly unavailable = new Map<string, UnavailableError>();
  /**
   * Why the service log (users, tokens, environments, segments) could not be fully recovered: the service is
   * then served read-only as of the last good record, and its writes answer 503 naming this. Null: recovered.
   */
  serviceUnavailable: UnavailableError | null = null;
  /** Hooks the metrics set; the actors call them after each batch and snapshot. */
  readonly observers: RegistryObservers = {};
  /**
   * Project ids whose creation outlasted the write timeout: reserved until the disk tells whether the
   * project was written (then it is served) or not (then the id is free again).
   */
  private readonly creating = new Set<string>();
  /** Projects whose log ends with their deletion: their keys are removed once the service is recovered. */
  private readonly deletedAtRecovery: string[] = [];
  /** Project ids being deleted: reserved until their keys are gone, so a new project of that id starts clean. */
  private readonly deleting = new Set<string>();
  /** The mailbox of rules that span the service and projects: user deletion, membership, project creation. */
  readonly access = new SerialQueue();
  /** Every committed batch, after it is on disk, and the service's revision (see `CommittedFeed`). */
  readonly feed: CommittedFeed;
  /**
   * The mailbox of tag writes (tags on flags, tag types): a tag is added only while its type exists, and a
   * type is deleted only while no flag carries it (src/use-cases/tags.use-cases.ts).
   */
  readonly tagWrites = new SerialQueue();
  /** The mailbox of segment writes: one create, update or delete at a time (src/use-cases/segments.use-cases.ts). */
  readonly segmentWrites = new SerialQueue();
  /**
   * Segments being deleted (`allow` null) or moved to a project (`allow`: that project). A command that
   * arrives at another project after the fence went up (its arrival past `arrivals` of that project then)
   * cannot newly reference the segment; those that arrived before are waited for and seen by the decision.
   */
  private readonly fencedSegments = new Map<number, { allow: string | null; arrivals: Map<string, number>; lifted: Promise<void> }>();
  // Assigned in open(), before any use; the service model looks projects up through this registry.
  service!: ServiceActor;
  /** SDK usage metrics: counts, last seen, applications; kept outside every log (docs/storage.md "Usage metrics"). */
  usage!: UsageActor;

  private constructor(
    /** The LevelDB store. Actors write it; entry points and tests may inspect it; nothing else touches it. */
    readonly store: Store,
    private readonly options: ActorOptions,
    readonly limits: Limits,
    feedHistory: HistoryBounds,
  ) {
    this.feed = new CommittedFeed(0, feedHistory);
  }

  static async open(options: RegistryOptions): Promise<Registry> {
    const base = { ...DEFAULTS, log: silentLogger(), ...withoutUndefined(options) } as ActorOptions;
    const store = await Store.open(options.dataDir, { gate: options.writeGate });
    try {
      // The feed and the observers are the registry's; every actor reports its commits to them.
      let registry: Registry | undefined;
      const actorOptions: ActorOptions = {
        ...base,
        onCommit: (scope, records) => registry?.feed.publish(scope, records),
        onCommitted: (types) => registry?.observers.committed?.(types),
        onSnapshot: (ms, bytes) => registry?.observers.snapshot?.(ms, bytes),
      };
      registry = new Registry(store, actorOptions, options.limits ?? DEFAULT_LIMITS, options.feedHistory ?? DEFAULT_HISTORY_BOUNDS);
      const opened = registry;
      const model = serviceModel({
        projectExists: (id) => opened.projects.has(id),
        segmentUses: (id) => opened.segmentUsage(id),
        environmentProjects: (name) => [...opened.projects].filter(([, actor]) => actor.state.meta.environments.includes(name)).map(([id]) => id),
      }, registry.limits);
      const recoveredService = await registry.recoverService(model);
      registry.service = new CommandActor(store, model, recoveredService.state, recoveredService.seq, actorOptions, [], recoveredService.snapshotBytes);
      if (registry.serviceUnavailable) {
        const reason = serviceReadOnlyMessage(registry.serviceUnavailable, recoveredService.seq);
        registry.service.refuseWrites(reason);
        base.log.error({ key: registry.serviceUnavailable instanceof CorruptRecordError ? registry.serviceUnavailable.key : undefined }, `service NOT fully recovered, served READ-ONLY: ${reason}`);
      }
      registry.feed.recovered(recoveredService.seq);
      registry.notices.push(...recoveredService.notices);
      for await (const key of store.keys(keys.projectsPrefix)) {
        await registry.recoverProject(key.slice(keys.projectsPrefix.length));
      }
      if (recoveredService.seq === 0 && !registry.serviceUnavailable) await registry.bootstrap(options.initEnvironments);
      // A project deleted just before the process stopped: finish removing it.
      for (const id of registry.deletedAtRecovery) {
        registry.deleting.add(id);
        try {
          await registry.purgeProject(id, 'system');
          registry.deleting.delete(id);
        } catch (error) {
          base.log.error({ project: id, err: error }, `removing the data of deleted project "${id}" failed; the next start tries again`);
        }
      }
      registry.deletedAtRecovery.length = 0;
      if (!registry.serviceUnavailable) await settlePendingImports(registry, base.log);
      registry.usage = await UsageActor.open(store, registry.feed, {
        flushMs: options.usageFlushMs ?? 10_000,
        log: base.log,
        exists: (project, flag) => opened.projects.get(project)?.state.flags.has(flag) ?? false,
      });
      return registry;
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  /**
   * The service state from its snapshot and log. A damaged record, or a snapshot this code cannot read, does
   * not stop the start: the state is recovered up to the record before the damage (empty when that cannot
   * be read either), and {@link serviceUnavailable} names why, so the service is served read-only.
   */
  private async recoverService(model: ReturnType<typeof serviceModel>) {
    const recover = (atMost?: number) => recoverState(this.store, model, (meta: ServiceState) => meta, emptyServiceState, atMost);
    try {
      return await recover();
    } catch (error) {
      if (!(error instanceof CorruptRecordError) && !(error instanceof IncompatibleSnapshotError)) throw error;
      this.serviceUnavailable = error;
      const damagedSeq = error instanceof CorruptRecordError ? logSeqOf(error.key) : null;
      if (damagedSeq !== null) {
        try {
          return await recover(damagedSeq - 1);
        } catch (again) {
          if (!(again instanceof CorruptRecordError) && !(again instanceof IncompatibleSnapshotError)) throw again;
        }
      }
      return { state: emptyServiceState(), seq: 0, snapshotSeq: 0, snapshotBytes: 0, replayed: 0, notices: [] };
    }
  }

  private async recoverProject(id: string): Promise<void> {
    try {
      const model = projectModel(id, this.limits, this.projectLookups(id));
      const recovered = await recoverState(this.store, model, (meta: ProjectMeta, flags: Flag[]) => stateFromSnapshot(meta, flags), () => emptyProject(id));
      this.notices.push(...recovered.notices);
      if (recovered.state.meta.deleted) {
        this.deletedAtRecovery.push(id);
        return;
      }
      this.projects.set(id, new CommandActor(this.store, model, recovered.state, recovered.seq, this.options, [], recovered.snapshotBytes));
      this.feed.recovered(recovered.seq);
    } catch (error) {
      if (!(error instanceof CorruptRecordError) && !(error instanceof IncompatibleSnapshotError)) throw error;
      this.unavailable.set(id, error);
    }
  }

  /** A new data directory: its environments, user 1 (root Admin) and project `default` owned by that user. */
  private async bootstrap(environments: string[]): Promise<void> {
    const at = new Date().toISOString();
    const state: ServiceState = {
      environments: environments.map((name, i) => ({ name, type: name === 'production' ? 'production' : 'development', sortOrder: i + 1, enabled: true, protected: false })),
      users: { '1': { id: 1, name: 'admin', email: null, username: 'admin', rootRole: ROOT_ADMIN, createdAt: at } },
      nextUserId: 2,
      tokens: {},
      segments: {},
      nextSegmentId: 1,
      tagTypes: [SIMPLE_TAG_TYPE],
      contextFields: [...BUILT_IN_CONTEXT_FIELDS],
      strategyDefinitions: [...BUILT_IN_STRATEGIES],
    };
    await this.service.send({ type: 'service.init', state }, 'system');
    await this.createProject({
      id: 'default', name: 'Default', description: 'Default project', createdAt: at,
      environments, defaultStrategies: {}, members: { '1': PROJECT_OWNER },
    }, 'system');
  }

  project(id: string): ProjectActor | undefined {
    return this.projects.get(id);
  }

  projectIds(): string[] {
    return [...this.projects.keys()];
  }

  /**
   * The actor of a project a request names: the same 404 for every unknown id, and a 503 naming the key for a
   * project that could not be recovered.
   */
  find(id: string): { ok: true; actor: ProjectActor } | { ok: false; error: DomainError } {
    const damaged = this.unavailable.get(id);
    if (damaged) return { ok: false, error: fail('Unavailable', `Project "${id}" could not be recovered (${damaged.message}); it is not served until the data is repaired`) };
    const actor = this.projects.get(id);
    return actor ? { ok: true, actor } : { ok: false, error: fail('NotFoundError', `Could not find project "${id}"`) };
  }

  /**
   * Creates a project: the id is reserved at once (so concurrent creates of one id get one winner), and the
   * registration key is written in the same batch as the project's first log record.
   */
  async createProject(meta: ProjectMeta, by: string): Promise<Decision<ProjectEvent, ProjectMeta>> {
    if (this.projects.has(meta.id) || this.unavailable.has(meta.id) || this.creating.has(meta.id) || this.deleting.has(meta.id)) return { ok: false, error: fail('NameExistsError', `A project with id "${meta.id}" already exists`) };
    if (this.projects.size + this.unavailable.size >= this.limits.projects) {
      return { ok: false, error: fail('ExceedsLimitError', overLimit('The number of projects', this.limits.projects, LIMIT_VARIABLES.projects)) };
    }
    const model = projectModel(meta.id, this.limits, this.projectLookups(meta.id));
    const registration = { type: 'put' as const, key: keys.project(meta.id), value: encode({ id: meta.id, createdAt: meta.createdAt }) };
    const actor: ProjectActor = new CommandActor(this.store, model, emptyProject(meta.id), 0, this.options, [registration]);
    this.projects.set(meta.id, actor);
    try {
      return await actor.send({ type: 'project.create', meta }, by);
    } catch (error) {
      this.projects.delete(meta.id);
      // The disk may still write it: keep the id reserved until it tells, then serve the project if it did.
      if (error instanceof StorageError && error.outcome) {
        this.creating.add(meta.id);
        void error.outcome.then((written) => {
          this.creating.delete(meta.id);
          if (written) this.projects.set(meta.id, actor);
        });
      }
      throw error;
    }
  }

  /**
   * Deletes a project (docs/api-decisions.md "Projects and environments"): its mailbox decides it (refused
   * while it has active flags) and records the deletion; then the project stops being served, its keys are
   * removed and the service forgets it (tokens scoped to it alone, its segments). Run it in {@link access}.
   * A stop between the record and the removal is finished at the next start.
   */
  async deleteProject(id: string, by: string): Promise<Decision<ProjectEvent, string[]>> {
    const found = this.find(id);
    if (!found.ok) return found;
    const decision = await found.actor.send({ type: 'project.delete' }, by);
    if (!decision.ok) return decision;
    // The deletion is on disk: from here the project is not served, whatever happens to the clean-up.
    this.projects.delete(id);
    this.deleting.add(id);
    try {
      // Commands queued behind the delete are refused (the project is deleted); a running snapshot must end before its keys go.
      await found.actor.retire();
      await this.purgeProject(id, by);
      this.deleting.delete(id);
    } catch (error) {
      // The id stays reserved (its old keys are still there) until the next start finishes the clean-up.
      this.options.log.error({ project: id, err: error }, `project "${id}" is deleted, but removing its data failed; the next start finishes it`);
    }
    return decision;
  }

  /**
   * The clean-up of a deleted project: the service forgets it (tokens scoped to it alone, its segments), then
   * every key of the project goes, registration first (without it the rest is never read). Both steps may be
   * repeated: a start after a stop in between runs them again.
   */
  async purgeProject(id: string, by: string): Promise<void> {
    if (!this.serviceUnavailable) await this.service.send({ type: 'project.forget', project: id }, by);
    const ops: { type: 'del'; key: string }[] = [{ type: 'del', key: keys.project(id) }];
    for (const prefix of [keys.logPrefix({ project: id }), keys.snapshotPrefix({ project: id })]) {
      for await (const key of this.store.keys(prefix)) ops.push({ type: 'del', key });
    }
    await this.store.writeInSlices(ops, { sync: true });
  }

  /**
   * Serving, or serving reads while writes fail: the store's last write failed or one is stuck past the
   * write timeout, the service log is read-only, or projects could not be recovered.
   */
  serving(now = Date.now()): ServingState {
    const writes = this.store.writeHealth(now);
    const problems: string[] = [];
    if (writes.failingSince !== null) problems.push(`writes are failing since ${new Date(writes.failingSince).toISOString()}: ${writes.lastError ?? 'unknown error'}`);
    const timeout = this.options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
    const stuck = writes.writingForMs > timeout;
    if (stuck) problems.push(`a write has been waiting for the disk for ${writes.writingForMs} ms (timeout ${timeout} ms)`);
    if (this.service.readOnlyReason !== null) problems.push(this.service.readOnlyReason);
    for (const [id, error] of this.unavailable) problems.push(`project "${id}" is not served: ${error.message}`);
    return { status: problems.length === 0 ? 'serving' : 'degraded', problems, writesFailing: writes.failingSince !== null || stuck, writes };
  }

  /** What project `projectId` looks up while deciding: committed segments, minus those fenced off from it. */
  private projectLookups(projectId: string): ProjectLookups {
    return {
      segment: (id, arrival) => {
        const fence = this.fencedSegments.get(id);
        const before = arrival !== undefined && arrival <= (fence?.arrivals.get(projectId) ?? 0);
        if (fence !== undefined && fence.allow !== projectId && !before) return 'changing';
        const segments = this.service.state.segments;
        return Object.hasOwn(segments, String(id)) ? segments[String(id)] : undefined;
      },
      strategyDefinition: (name) => this.service.state.strategyDefinitions.find((d) => d.name === name),
      contextField: (name) => this.service.state.contextFields.find((f) => f.name === name),
    };
  }

  /** Where segment `id` is referenced in the committed project states (the service's lookup). */
  private segmentUsage(id: number): SegmentUsage {
    const uses = [...this.projects.values()].flatMap((actor) => segmentUsesIn(actor.state, id));
    return { uses, unreadable: [...this.unavailable.keys()] };
  }

  /**
   * Runs `task` with segment `id` fenced: commands that arrive at a project from now on cannot newly
   * reference it, except at project `allow` (none when null); `task` settles the projects (so the commands
   * that arrived before are committed) and then has the change decided. Used inside {@link segmentWrites},
   * so one fence per segment at a time.
   *
   * @example await registry.withSegmentFenced(7, null, async () => { await registry.settleProjects(); return registry.service.send(...); })
   */
  async withSegmentFenced<T>(id: number, allow: string | null, task: () => Promise<T>): Promise<T> {
    if (this.fencedSegments.has(id)) throw new Error(`segment ${id} is fenced already; segment writes must run in registry.segmentWrites`);
    let lift = () => {};
    const arrivals = new Map([...this.projects].map(([project, actor]) => [project, actor.arrivals]));
    this.fencedSegments.set(id, { allow, arrivals, lifted: new Promise<void>((resolve) => { lift = resolve; }) });
    try {
      return await task();
    } finally {
      this.fencedSegments.delete(id);
      lift();
    }
  }

  /**
   * Resolves once the fences now around segments `ids` (around any segment when absent) that keep project
   * `projectId` out are lifted. A strategy write naming segments waits here before it is sent, so one sent
   * while a segment's delete is being decided is decided after it (and accepted when the delete was
   * refused); its mailbox still decides against the fences of that moment.
   */
  async segmentFencesLifted(projectId: string, ids?: readonly number[]): Promise<void> {
    if (this.fencedSegments.size === 0) return;
    const fences = [...this.fencedSegments].filter(([id, fence]) => fence.allow !== projectId && (ids === undefined || ids.includes(id)));
    await Promise.all(fences.map(([, fence]) => fence.lifted));
  }

  /** Resolves once every project has answered every command it was sent before the call: their effects are committed. */
  async settleProjects(): Promise<void> {
    await Promise.all([...this.projects.values()].map((actor) => actor.settled()));
  }

  /**
   * A page of a project's history from its command log (docs/storage.md "History"). A damaged record met on
   * the way is a 503 naming its key.
   */
  async history(project: string, query: HistoryQuery): Promise<{ ok: true; value: HistoryPage } | { ok: false; error: DomainError }> {
    const found = this.find(project);
    if (!found.ok) return found;
    try {
      return { ok: true, value: await readHistory(this.store, project, query) };
    } catch (error) {
      if (error instanceof CorruptRecordError) return { ok: false, error: fail('Unavailable', error.message) };
      throw error;
    }
  }

  /** Writes the last interval of usage, finishes queued commands, writes a snapshot of every actor, and closes the store. */
  async close(): Promise<void> {
    // Streams end first (cleanly, so SDKs reconnect), before the actors stop answering.
    this.feed.close();
    await this.usage.close();
    for (const actor of this.projects.values()) await actor.close();
    await this.service.close();
    await this.store.close();
  }
}

/** The sequence number of a log key (`.../log/<seq>`), or null for any other key. */
function logSeqOf(key: string): number | null {
  const match = /\/log\/(\d+)$/.exec(key);
  return match ? Number(match[1]) : null;
}

function serviceReadOnlyMessage(error: UnavailableError, servedSeq: number): string {
  return `The service log (users, tokens, environments, segments) could not be recovered (${error.message}); it is served read-only as of log position ${servedSeq} until the data is repaired`;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
