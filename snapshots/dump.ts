import { existsSync } from 'node:fs';
import { join } from 'node:path';
// The dump replays with the service's own recovery code and models, so what it prints is exactly what the
// service would load; this is the one place under snapshots/ that looks up into src/ (as main does).
import { projectModel, stateFromSnapshot } from '../src/actors/project-model.js';
import { recoverState, type Recovered } from '../src/actors/recover.js';
import { emptyServiceState, serviceModel } from '../src/actors/service-model.js';
import type { ProjectState } from '../src/domain/project-state.js';
import type { ServiceState } from '../src/domain/service-state.js';
import type { Flag, ProjectMeta } from '../src/domain/types.js';
import { keys, seqPart, type Scope } from './keys.js';
import type { RecoveryNotice } from './recovery.js';
import { Store } from './store.js';

/** Version of the dump document; restore refuses any other. */
export const DUMP_FORMAT = 1;

/** One project in a dump: flags stay in stored (creation) order, so a restore rebuilds the same lists. */
export interface ProjectDump {
  id: string;
  /** Sequence number of the last log record applied. */
  seq: number;
  meta: ProjectMeta;
  flags: Flag[];
}

/** The service part: environments, users and tokens (hashes only, never secrets). */
export interface ServiceDump {
  seq: number;
  state: ServiceState;
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

/** Builds a dump document from states (live or recovered); projects come out sorted by id. */
export function buildDump(projects: AtSeq<ProjectState>[], service?: AtSeq<ServiceState>): Dump {
  const sorted = projects.map(projectDump).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return service ? { format: DUMP_FORMAT, service: { seq: service.seq, state: service.state }, projects: sorted } : { format: DUMP_FORMAT, projects: sorted };
}

/**
 * JSON with every object's keys sorted (arrays keep their order), two-space indented and newline-terminated,
 * so two dumps of the same state are byte-identical and a diff of two dumps shows only what changed.
 *
 * @example stableStringify({ b: 1, a: [2, 1] }) // '{\n  "a": [\n    2,\n    1\n  ],\n  "b": 1\n}\n'
 */
export function stableStringify(value: unknown): string {
  const sortKeys = (_key: string, v: unknown): unknown => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const source = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(source).sort().map((k) => [k, source[k]]));
  };
  return `${JSON.stringify(value, sortKeys, 2)}\n`;
}

/** A failure of the dump tool the operator can act on (message says what to do). */
export class DumpError extends Error {
  override name = 'DumpError';
}

export interface DumpOptions {
  /** Only this project (and no service part). */
  project?: string | undefined;
  /** Replay the project's log only up to this sequence number (needs `project`). */
  at?: number | undefined;
  /** Receives what recovery worked around (a damaged snapshot it fell back from). */
  notices?: RecoveryNotice[];
}

/**
 * Dumps a data directory while the service is stopped (LevelDB's lock refuses a second opener). Every
 * scope is recovered as at start: newest good snapshot plus log; `at` stops a project's replay there.
 *
 * @example stableStringify(await dumpDataDir('./data', { project: 'default', at: 12 }))
 */
export async function dumpDataDir(dataDir: string, options: DumpOptions = {}): Promise<Dump> {
  if (options.at !== undefined && options.project === undefined) throw new DumpError('--at needs --project: every project has its own sequence numbers');
  // Level would create a missing directory; a dump must never write a new one.
  if (!existsSync(join(dataDir, 'CURRENT'))) throw new DumpError(`${dataDir} is not a flagpole data directory (no LevelDB CURRENT file)`);
  let store: Store;
  try {
    store = await Store.open(dataDir);
  } catch (error) {
    const locked = (error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED';
    throw new DumpError(locked
      ? `${dataDir} is in use (is the service running? stop it first, or ask GET /api/admin/state)`
      : `cannot open ${dataDir}: ${(error as Error).message}`);
  }
  const noted = <T extends { notices: RecoveryNotice[] }>(recovered: T): T => {
    options.notices?.push(...recovered.notices);
    return recovered;
  };
  try {
    const ids: string[] = [];
    for await (const key of store.keys(keys.projectsPrefix)) ids.push(key.slice(keys.projectsPrefix.length));
    if (options.project !== undefined) {
      if (!ids.includes(options.project)) throw new DumpError(`no project "${options.project}" in ${dataDir}`);
      if (options.at !== undefined) await checkReachable(store, { project: options.project }, options.at);
      return buildDump([noted(await recoverProject(store, options.project, options.at))]);
    }
    const projects: AtSeq<ProjectState>[] = [];
    for (const id of ids) projects.push(noted(await recoverProject(store, id)));
    const service = noted(await recoverState(store, serviceModel, (meta: ServiceState) => meta, emptyServiceState));
    return buildDump(projects, service);
  } finally {
    await store.close();
  }
}

async function recoverProject(store: Store, id: string, at?: number): Promise<Recovered<ProjectState>> {
  // Before its first record (project.created) a project has no meta of its own; replay replaces this one.
  const empty = (): ProjectState => stateFromSnapshot({ id, name: id, description: '', createdAt: new Date(0).toISOString(), environments: [], defaultStrategies: {}, members: {} }, []);
  return recoverState(store, projectModel(id), (meta: ProjectMeta, flags: Flag[]) => stateFromSnapshot(meta, flags), empty, at);
}

/**
 * Time travel needs a snapshot at or before `at`, or the log from its first record. With the log trimmed
 * (LOG_RETENTION) or the directory restored from a dump, an earlier moment is gone, and saying so beats
 * printing the empty state or the gap error replay would give. Only keys are read: a damaged head is
 * recovery's business.
 */
async function checkReachable(store: Store, scope: Scope, at: number): Promise<void> {
  const seqIn = (key: string, prefix: string) => Number(key.slice(prefix.length, prefix.length + seqPart(0).length));
  let firstLog: number | undefined;
  for await (const key of store.keys(keys.logPrefix(scope), { limit: 1 })) firstLog = seqIn(key, keys.logPrefix(scope));
  if (firstLog === 1) return;
  const heads: number[] = [];
  for await (const key of store.keys(keys.snapshotPrefix(scope))) {
    if (key.endsWith('/head')) heads.push(seqIn(key, keys.snapshotPrefix(scope)));
  }
  if (heads.some((seq) => seq <= at)) return;
  const kept = firstLog === undefined ? 'no log records are kept' : `the log before seq ${firstLog} is not kept`;
  const earliest = heads.length > 0 ? `; the earliest reachable position is seq ${Math.min(...heads)}` : '';
  throw new DumpError(`cannot replay to seq ${at}: ${kept} (trimmed by LOG_RETENTION, or the directory was restored from a dump) and no snapshot at or before seq ${at} is kept${earliest}`);
}
