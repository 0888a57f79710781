import { DUMP_FORMAT } from '../../snapshots/dump-format.js';
import type { ProjectState } from '../domain/project-state.js';
import type { ServiceState, StoredToken } from '../domain/service-state.js';
import { masked } from '../domain/addons/addon.js';
import type { Flag, ProjectMeta } from '../domain/types.js';
import type { Registry } from './registry.js';

/** Dumps are printed with sorted keys, so the HTTP dump and the CLI dump of one state are byte-identical. */
export { DUMP_FORMAT, stableJsonPieces, stableStringify } from '../../snapshots/dump-format.js';

/** One project in a dump: flags stay in stored (creation) order, so a restore rebuilds the same lists. */
export interface ProjectDump {
  id: string;
  /** Sequence number of the last log record applied. */
  seq: number;
  meta: ProjectMeta;
  flags: Flag[];
}

/** A token as dumps show it: what it is and who may use it, never its hash nor any part of its secret. */
export type DumpedToken = Pick<StoredToken, 'id' | 'tokenName' | 'type' | 'projects' | 'environment' | 'createdAt' | 'expiresAt' | 'userId'>;

/** The service state as dumps show it: tokens keyed by their id, without hashes; no password hashes at all. */
export type DumpedServiceState = Omit<ServiceState, 'tokens' | 'passwords' | 'passwordLinks'> & { tokens: Record<string, DumpedToken> };

/** The service part: environments, users and tokens (no hash, no part of a secret). */
export interface ServiceDump {
  seq: number;
  state: DumpedServiceState;
}

/** A dump document; `service` is absent when one project was asked for. */
export interface Dump {
  format: typeof DUMP_FORMAT;
  service?: ServiceDump;
  /** Sorted by id. */
  projects: ProjectDump[];
}

/** A recovered or live scope: its state and the sequence number it is at. */
export interface AtSeq<S> {
  state: S;
  seq: number;
}

/** A project's part of a dump; the runtime-only `version` counter is left out. */
export const projectDump = ({ state, seq }: AtSeq<ProjectState>): ProjectDump => ({
  id: state.meta.id, seq, meta: state.meta, flags: Array.from(state.flags.values()),
});

/**
 * A token's dump record: fields picked, not removed, so a field added to stored tokens later stays out of
 * dumps until someone decides it belongs there. Old records' `prefix` (4 characters of the secret) is left out.
 */
export const dumpedToken = (t: StoredToken): DumpedToken => ({
  id: t.id, tokenName: t.tokenName, type: t.type, projects: t.projects, environment: t.environment, createdAt: t.createdAt, expiresAt: t.expiresAt, userId: t.userId,
});

/**
 * The service part of a dump: the state with its tokens keyed by id and stripped of their hashes, without passwords
 * or password links, and each addon's secrets masked (`*****`; a live backup carries them).
 */
export const serviceDump = ({ state: { passwords: _secret, passwordLinks: _links, ...state }, seq }: AtSeq<ServiceState>): ServiceDump => ({
  seq,
  state: {
    ...state,
    tokens: Object.fromEntries(Object.values(state.tokens).map((t) => [t.id, dumpedToken(t)])),
    ...(state.addons === undefined ? {} : { addons: Object.fromEntries(Object.entries(state.addons).map(([id, addon]) => [id, masked(addon)])) }),
  },
});

/** Builds a dump document from states (live or recovered); projects come out sorted by id. */
export function buildDump(projects: AtSeq<ProjectState>[], service?: AtSeq<ServiceState>): Dump {
  const sorted = projects.map(projectDump).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return service ? { format: DUMP_FORMAT, service: serviceDump(service), projects: sorted } : { format: DUMP_FORMAT, projects: sorted };
}

/**
 * The dump of the running service's committed state, in the same document `npm run dump` prints for a
 * stopped data directory (docs/storage.md "Dumps"). Every scope is read synchronously, so the dump is one
 * consistent moment; the document holds the states' own (immutable) records, so it can be serialized later,
 * a piece at a time, and still be that moment. Undefined when `projectId` names no project.
 *
 * @example stableStringify(dumpRegistry(registry, 'default')!)
 */
export function dumpRegistry(registry: Registry, projectId?: string): Dump | undefined {
  if (projectId !== undefined) {
    const actor = registry.project(projectId);
    return actor ? buildDump([{ state: actor.state, seq: actor.seq }]) : undefined;
  }
  const projects = registry.projectIds().map((id) => {
    const actor = registry.project(id)!;
    return { state: actor.state, seq: actor.seq };
  });
  return buildDump(projects, { state: registry.service.state, seq: registry.service.seq });
}
