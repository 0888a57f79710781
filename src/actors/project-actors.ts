import type { FlagsByProject, SegmentUsage, ServiceLookups } from '../domain/context.js';
import { fail } from '../domain/errors.js';
import { failed, ok, type Result } from '../domain/result.js';
import { segmentUsesIn } from '../domain/segment.js';
import type { ProjectActor } from './actor-types.js';
import type { UnavailableError } from './recovery/service-recovery.js';

/**
 * The projects a registry serves, those it could not recover, and the ids held while a creation or a
 * deletion is in doubt: a project id is one of these at most, and a new project takes none of them.
 *
 * @example if (actors.taken('p')) refuse(...); else actors.serve('p', actor);
 */
export class ProjectActors {
  private readonly served = new Map<string, ProjectActor>();
  /**
   * Projects whose log could not be recovered (a damaged record after the snapshot in use, or a snapshot this
   * code cannot read), with the error naming the key. They are not served, not silently started without
   * acknowledged data; the others are.
   */
  readonly unavailable = new Map<string, UnavailableError>();
  /**
   * Project ids whose creation outlasted the write timeout: held until the disk tells whether the project was
   * written (then it is served) or not (then the id is free again).
   */
  private readonly creating = new Set<string>();
  /** Project ids being deleted: held until their keys are gone, so a new project of that id starts clean. */
  private readonly deleting = new Set<string>();

  /** The actor of project `id`, or undefined when it is not served. */
  get(id: string): ProjectActor | undefined {
    return this.served.get(id);
  }

  /** Whether project `id` is served. */
  has(id: string): boolean {
    return this.served.has(id);
  }

  /** The ids of the projects served. */
  ids(): string[] {
    return [...this.served.keys()];
  }

  /** The actors of the projects served. */
  actors(): IterableIterator<ProjectActor> {
    return this.served.values();
  }

  /** The projects stored: served or not recoverable (what the projects limit counts). */
  get stored(): number {
    return this.served.size + this.unavailable.size;
  }

  /** The same 404 for every unknown id, and a 503 naming the key for a project that could not be recovered. */
  find(id: string): Result<ProjectActor> {
    const damaged = this.unavailable.get(id);
    if (damaged) return failed(fail('Unavailable', `Project "${id}" could not be recovered (${damaged.message}); it is not served until the data is repaired`));
    const actor = this.served.get(id);
    return actor ? ok(actor) : failed(fail('NotFoundError', `Could not find project "${id}"`));
  }

  /** Whether a new project may not take `id`: served, unrecoverable, or held by a creation or a deletion. */
  taken(id: string): boolean {
    return this.served.has(id) || this.unavailable.has(id) || this.creating.has(id) || this.deleting.has(id);
  }

  /** Serves `actor` as project `id`. */
  serve(id: string, actor: ProjectActor): void {
    this.served.set(id, actor);
  }

  /** Stops serving project `id`. */
  forget(id: string): void {
    this.served.delete(id);
  }

  /** Holds `id` until `written` settles, then serves `actor` if the project was written after all. */
  holdUntil(id: string, actor: ProjectActor, written: Promise<boolean>): void {
    this.creating.add(id);
    void written.then((landed) => {
      this.creating.delete(id);
      if (landed) this.served.set(id, actor);
    });
  }

  /** Holds `id` while its keys are removed. */
  deletingStarted(id: string): void {
    this.deleting.add(id);
  }

  /** Frees `id` once its keys are gone. */
  deletingDone(id: string): void {
    this.deleting.delete(id);
  }

  /** Each served project's arrivals now (`CommandActor.arrivals`). */
  arrivals(): Map<string, number> {
    return new Map([...this.served].map(([project, actor]) => [project, actor.arrivals]));
  }

  /** The projects served whose environments include `environment`. */
  inEnvironment(environment: string): string[] {
    return [...this.served].filter(([, actor]) => actor.state.meta.environments.includes(environment)).map(([id]) => id);
  }

  /** Where segment `id` is referenced in the committed project states, and which projects could not be read. */
  segmentUsage(id: number): SegmentUsage {
    const uses = [...this.served.values()].flatMap((actor) => segmentUsesIn(actor.state, id));
    return { uses, unreadable: [...this.unavailable.keys()] };
  }

  /** What the service's decisions read of the projects (`ServiceLookups`): always their committed states. */
  serviceLookups(): ServiceLookups {
    return {
      projectExists: (id) => this.has(id),
      segmentUses: (id) => this.segmentUsage(id),
      environmentProjects: (name) => this.inEnvironment(name),
      flagsByProject: () => this.flagsByProject(),
    };
  }

  /** Every served project's committed flags, and which projects could not be read. */
  flagsByProject(): FlagsByProject {
    return { served: [...this.served].map(([id, actor]) => [id, actor.state.flags]), unreadable: [...this.unavailable.keys()] };
  }

  /** Resolves once every project has answered every command it was sent before the call. */
  async settled(): Promise<void> {
    await Promise.all([...this.served.values()].map((actor) => actor.settled()));
  }
}
