import { DUMP_FORMAT } from '../../../snapshots/dump-format.js';
import { fail } from '../../domain/errors.js';
import type { ProjectState } from '../../domain/project-state.js';
import { failed, ok, type Result } from '../../domain/result.js';
import type { ServiceState, StoredToken } from '../../domain/service-state.js';
import type { Flag, ProjectMeta } from '../../domain/types.js';
import { PROJECT_MACHINES, snapshotMeta } from '../project-model.js';
import type { Registry } from '../registry.js';

/** Version of the backup file (docs/operations.md "Back up and restore"); restore refuses any other. */
export const BACKUP_FORMAT = 1;

/** The first line of a backup: what it is and how much follows, so a reader can show progress and check the end. */
export interface BackupHeader {
  flagpoleBackup: typeof BACKUP_FORMAT;
  dumpFormat: typeof DUMP_FORMAT;
  createdAt: string;
  /** The machine versions the flags were written under (as in every snapshot head): restore migrates or refuses. */
  machines: Readonly<Record<string, number>>;
  projects: number;
  flags: number;
}

/** The last line: the same counts again; a file without it was cut short. */
export interface BackupTrailer {
  end: { projects: number; flags: number };
}

/** A consistent capture of the running service: committed states, each with its log position. */
export interface Backup {
  header: BackupHeader;
  service: { seq: number; state: ServiceState };
  projects: { id: string; seq: number; meta: ProjectMeta; flags: Flag[] }[];
}

/**
 * A stored token as a backup keeps it: everything the service needs to authenticate it again, hash included
 * (keyed by the token key outside the data directory, so it is of no use without that key). The `prefix` of
 * old records (four characters of the secret) is left out; nothing needs it.
 */
const backedUpToken = ({ prefix: _prefix, ...token }: StoredToken & { prefix?: unknown }): StoredToken => token;

/**
 * Captures the committed state of every scope in one synchronous step: no write waits for it, and every
 * project is at one log position (the last batch it made durable), the service with them. The capture
 * holds the states' own immutable records, so it can be written out later, a line at a time, and still be
 * that moment. A 503 naming the projects that could not be recovered instead: a backup without them would
 * silently lose them.
 *
 * @example const captured = captureBackup(registry); if (captured.ok) for (const line of backupLines(captured.value)) out.write(line);
 */
export function captureBackup(registry: Registry, now = new Date()): Result<Backup> {
  if (registry.unavailable.size > 0) {
    const ids = [...registry.unavailable.keys()].sort();
    const one = ids.length === 1;
    return failed(fail('Unavailable', `Cannot back up: project${one ? '' : 's'} ${ids.map((id) => `"${id}"`).join(', ')} could not be recovered at start (see the start log); repair or remove ${one ? 'it' : 'them'} first`));
  }
  const projects = registry.projectIds().sort().map((id) => {
    const actor = registry.project(id)!;
    const state: ProjectState = actor.state;
    // The meta a snapshot holds: its change requests come back with it.
    return { id, seq: actor.seq, meta: snapshotMeta(state), flags: Array.from(state.flags.values()) };
  });
  const service = registry.service;
  const state: ServiceState = { ...service.state, tokens: Object.fromEntries(Object.entries(service.state.tokens).map(([hash, t]) => [hash, backedUpToken(t)])) };
  const header: BackupHeader = {
    flagpoleBackup: BACKUP_FORMAT, dumpFormat: DUMP_FORMAT, createdAt: now.toISOString(), machines: PROJECT_MACHINES,
    projects: projects.length, flags: projects.reduce((n, p) => n + p.flags.length, 0),
  };
  return ok({ header, service: { seq: service.seq, state }, projects });
}

/**
 * The backup file, one JSON document per line (newline-delimited JSON): the header, the service, then
 * each project (`{"project": {id, seq, meta}, "flags": n}`) followed by its `n` flags (`{"flag": ...}`, in
 * stored order), and the trailer. Lines are yielded one at a time, so a stream can pause between any two.
 */
export function* backupLines(backup: Backup): Generator<string, void, undefined> {
  yield `${JSON.stringify(backup.header)}\n`;
  yield `${JSON.stringify({ service: backup.service })}\n`;
  for (const { flags, ...project } of backup.projects) {
    yield `${JSON.stringify({ project, flags: flags.length })}\n`;
    for (const flag of flags) yield `${JSON.stringify({ flag })}\n`;
  }
  const trailer: BackupTrailer = { end: { projects: backup.header.projects, flags: backup.header.flags } };
  yield `${JSON.stringify(trailer)}\n`;
}
