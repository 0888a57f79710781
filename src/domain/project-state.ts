import { ChangeRequestDraft, emptyBook, evolveRequests, type ChangeRequestBook } from './change-request-book.js';
import { isChangeRequestEvent } from './change-request-events.js';
import { withKey, withoutKey } from './dict.js';
import type { FlagEvent, ProjectEvent } from './events.js';
import { applyFlagEvent, metaWithDicts } from './flag-events.js';
import type { Flag, ProjectMeta } from './types.js';

/** The committed state of one project: its meta, its flags in creation order, its change requests. */
export interface ProjectState {
  meta: ProjectMeta;
  flags: Map<string, Flag>;
  /** Its change requests (docs/api-decisions.md "Change requests"); they move no flag view's `version`. */
  changeRequests: ChangeRequestBook;
  /**
   * Changed on every publish; caches of derived views key on it (with the project id). Taken from one counter
   * of the process, so a project deleted and created again under its id never meets a version its
   * predecessor had (a cache would answer the old project's view).
   */
  version: number;
}

let lastStateVersion = 0;

/** The next state version of any project (see {@link ProjectState.version}); never stored. */
const nextStateVersion = (): number => (lastStateVersion += 1);

/** What a draft reads its flags from: the committed map, or another draft (see {@link ProjectDraft.trial}). */
interface FlagSource {
  get(name: string): Flag | undefined;
  has(name: string): boolean;
  values(): Iterable<Flag>;
  readonly size: number;
}

/** What a draft works on: a committed state, or (for a trial) the state another draft has; no book: no requests. */
type DraftBase = { meta: ProjectMeta; flags: FlagSource; changeRequests?: ChangeRequestBook; version?: number };

/**
 * A working copy of a project for one batch of commands: changes go to an overlay, the committed state is
 * untouched until {@link ProjectDraft.publishTo} runs after the batch is on disk.
 */
export class ProjectDraft {
  meta: ProjectMeta;
  /** The change requests as this draft has them. */
  readonly requests: ChangeRequestDraft;
  private readonly changed = new Map<string, Flag | null>();
  /** Names deleted in this draft: a flag created again under one of them goes to the end of the order. */
  private readonly deleted = new Set<string>();
  /** Flags the batch's decisions built for their events, for `evolve` to take rather than build again. */
  private readonly built = new Map<FlagEvent, Flag>();

  constructor(private readonly base: DraftBase) {
    this.meta = base.meta;
    this.requests = new ChangeRequestDraft(base.changeRequests ?? emptyBook());
  }

  /**
   * A draft over this one, to try several commands in turn (each seeing the ones before) and drop them if one
   * is refused: applying a change request decides its changes there, and only an accepted whole is evolved
   * into this draft. Nothing done to the trial reaches this draft.
   */
  trial(): ProjectDraft {
    const parent = this;
    const source: FlagSource = {
      get: (name) => parent.getFlag(name),
      has: (name) => parent.getFlag(name) !== undefined,
      values: () => parent.allFlags(),
      get size() { return parent.flagCount(); },
    };
    return new ProjectDraft({ meta: this.meta, flags: source, changeRequests: this.requests.publish() });
  }

  /** Every flag as the draft has it (archived ones included), in no promised order. */
  *allFlags(): Generator<Flag> {
    for (const flag of this.base.flags.values()) {
      if (!this.changed.has(flag.name)) yield flag;
    }
    for (const flag of this.changed.values()) if (flag) yield flag;
  }

  /** Flags of the project as the draft has them, archived ones included. */
  flagCount(): number {
    let count = this.base.flags.size;
    for (const [name, flag] of this.changed) {
      const inBase = this.base.flags.has(name);
      if (flag && !inBase) count += 1;
      else if (!flag && inBase) count -= 1;
    }
    return count;
  }

  getFlag(name: string): Flag | undefined {
    const changed = this.changed.get(name);
    if (changed !== undefined) return changed ?? undefined;
    return this.base.flags.get(name);
  }

  /**
   * Names of the flags, as the draft has them (archived ones included), that pass `test`, in no promised
   * order. A plain loop over the committed map (a 100k-flag project is scanned in about a millisecond).
   */
  flagsWhere(test: (flag: Flag) => boolean): string[] {
    return this.scan(this.base.flags.values(), test);
  }

  /**
   * Whether some flag of the draft has a parent. The committed flags are scanned once per draft (one batch),
   * so the archive of many flags in a project without dependencies does not scan it for each.
   */
  hasDependencies(): boolean {
    this.baseHasDependencies ??= this.scan(this.base.flags.values(), (f) => (f.dependencies?.length ?? 0) > 0, 1).length > 0;
    if (this.baseHasDependencies) return true;
    for (const flag of this.changed.values()) if (flag && (flag.dependencies?.length ?? 0) > 0) return true;
    return false;
  }

  private baseHasDependencies: boolean | undefined;

  /** `flagsWhere` over `base` and the overlay; stops at `max` names. */
  private scan(base: Iterable<Flag>, test: (flag: Flag) => boolean, max = Infinity): string[] {
    const found: string[] = [];
    const overlay = this.changed.size > 0;
    for (const flag of base) {
      if (found.length >= max) return found;
      if (overlay && this.changed.has(flag.name)) continue;
      if (test(flag)) found.push(flag.name);
    }
    if (overlay) for (const flag of this.changed.values()) if (found.length < max && flag && test(flag)) found.push(flag.name);
    return found;
  }

  /**
   * Notes the flag a decision built by applying `event` to this draft's flag: the actor evolves the draft
   * with that event right after the decision, and {@link evolve} takes the flag instead of building it again.
   */
  noteBuilt(event: FlagEvent, flag: Flag): void {
    this.built.set(event, flag);
  }

  /** The flag noted for `event`, once; undefined when none was. */
  takeBuilt(event: FlagEvent): Flag | undefined {
    const flag = this.built.get(event);
    if (flag) this.built.delete(event);
    return flag;
  }

  setFlag(flag: Flag): void {
    this.changed.set(flag.name, flag);
  }

  /** The flags this draft set (not those it deleted): what publishing it adds to the committed state. */
  *setFlags(): Iterable<Flag> {
    for (const flag of this.changed.values()) if (flag) yield flag;
  }

  deleteFlag(name: string): void {
    this.changed.set(name, null);
    this.deleted.add(name);
  }

  /** Applies the overlay to `state` in place (one synchronous step, so no read sees half of it). */
  publishTo(state: ProjectState): ProjectState {
    for (const [name, flag] of this.changed) {
      // Delete first so a re-created flag takes its place at the end, as it does when replayed one by one.
      if (!flag || this.deleted.has(name)) state.flags.delete(name);
      if (flag) state.flags.set(name, flag);
    }
    if (this.changed.size > 0 || state.meta !== this.meta) state.version = nextStateVersion();
    state.meta = this.meta;
    state.changeRequests = this.requests.publish();
    return state;
  }
}

/** Applies one event to a draft; flag events through {@link applyFlagEvent}, or the flag its decision built. */
export function evolve(draft: ProjectDraft, event: ProjectEvent): void {
  switch (event.type) {
    case 'project.created':
    case 'project.updated':
      draft.meta = metaWithDicts(event.meta);
      return;
    case 'change-request.configured': {
      const settings = draft.meta.changeRequestSettings ?? {};
      draft.meta = metaWithDicts({
        ...draft.meta,
        changeRequestSettings: event.requiredApprovals === null ? withoutKey(settings, event.environment) : withKey(settings, event.environment, { requiredApprovals: event.requiredApprovals }),
      });
      return;
    }
    case 'environment.disconnected': {
      draft.meta = metaWithDicts(event.meta);
      for (const name of draft.flagsWhere((flag) => Object.hasOwn(flag.environments, event.environment))) {
        const flag = draft.getFlag(name)!;
        draft.setFlag({ ...flag, environments: withoutKey(flag.environments, event.environment), version: event.version });
      }
      return;
    }
    default: {
      if (isChangeRequestEvent(event)) return evolveRequests(draft.requests, event);
      const name = event.type === 'flag.created' ? event.flag.name : event.name;
      const next = draft.takeBuilt(event) ?? applyFlagEvent(draft.getFlag(name), event);
      if (next) draft.setFlag(next);
      else draft.deleteFlag(name);
    }
  }
}
