import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import * as v from 'valibot';
import { planMigration, type MachineMigration } from '../../machines/versions.js';
import { DUMP_FORMAT } from '../../snapshots/dump-format.js';
import { PROJECT_MACHINES } from '../actors/project-model.js';
import { BACKUP_FORMAT, type BackupHeader } from '../actors/dumps/state-backup.js';
import type { Dump } from '../actors/dumps/state-dump.js';
import { RestoreError, checkDump } from './restore.js';

const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const HeaderSchema = v.object({
  flagpoleBackup: v.literal(BACKUP_FORMAT), dumpFormat: v.literal(DUMP_FORMAT), createdAt: v.string(),
  machines: v.record(v.string(), v.pipe(v.number(), v.safeInteger(), v.minValue(1))), projects: Count, flags: Count,
});
/** A backed-up token keeps its hash (the key of the service's token table): it must look like one. */
const BackedUpTokenSchema = v.looseObject({ id: v.string(), hash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits')) });
const ServiceLineSchema = v.object({ service: v.object({ seq: v.number(), state: v.looseObject({ tokens: v.record(v.string(), BackedUpTokenSchema) }) }) });
const ProjectLineSchema = v.object({ project: v.looseObject({ id: v.string() }), flags: Count });
const FlagLineSchema = v.object({ flag: v.looseObject({ name: v.string() }) });
const TrailerSchema = v.object({ end: v.object({ projects: Count, flags: Count }) });

/** Tells a backup file from a dump by its first line. */
export function isBackupHeader(firstLine: string): boolean {
  try {
    const parsed: unknown = JSON.parse(firstLine);
    return typeof parsed === 'object' && parsed !== null && 'flagpoleBackup' in parsed;
  } catch {
    return false;
  }
}

/** Progress of reading a backup: flags read so far, of `total`. */
export type BackupProgress = (read: number, total: number) => void;

/**
 * Reads a backup file (from `flagpole backup`, docs/operations.md) line by line into a dump document with
 * the service's tokens as stored (hashes included), checked as a dump is plus the backup's own frame: the
 * header first (its machine versions migrated from, or refused, as recovery does), every project's announced flag count, and the trailer last with the header's counts (a file
 * cut short is refused, naming the line).
 *
 * @example const dump = await readBackup(createReadStream('flagpole.backup'));
 */
export async function readBackup(input: Readable, onProgress?: BackupProgress): Promise<{ header: BackupHeader; dump: Dump }> {
  let lineNo = 0;
  let header: BackupHeader | undefined;
  let service: v.InferOutput<typeof ServiceLineSchema>['service'] | undefined;
  const projects: { id: string; seq: number; meta: unknown; flags: unknown[] }[] = [];
  let migrations: MachineMigration[] = [];
  let expected = 0;
  let flags = 0;
  let ended = false;
  const at = <S extends v.GenericSchema>(schema: S, text: string, what: string): v.InferOutput<S> => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new RestoreError(`line ${lineNo} of the backup is not JSON (${(error as Error).message}): the file is damaged`);
    }
    const result = v.safeParse(schema, raw);
    if (!result.success) throw new RestoreError(`line ${lineNo} of the backup is not ${what}: ${v.getDotPath(result.issues[0]) ?? '(root)'}: ${result.issues[0].message}`);
    return result.output;
  };
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNo += 1;
    if (ended) throw new RestoreError(`line ${lineNo} of the backup follows its end line: the file is damaged`);
    if (!header) {
      if (!isBackupHeader(line)) throw new RestoreError('the file does not start with a flagpole backup header');
      header = at(HeaderSchema, line, `a backup header of format ${BACKUP_FORMAT} (dump format ${DUMP_FORMAT})`) as BackupHeader;
      // Flags written under other machine versions are migrated as recovery would, or refused before anything is written.
      const plan = planMigration(header.machines, PROJECT_MACHINES);
      if (!plan.ok) throw new RestoreError(`this version of flagpole cannot restore the backup: ${plan.reason}`);
      migrations = plan.migrations;
    } else if (!service) {
      service = at(ServiceLineSchema, line, 'the service line').service;
    } else if (expected > 0) {
      const { flag } = at(FlagLineSchema, line, 'a flag line');
      projects.at(-1)!.flags.push(migrations.reduce<unknown>((item, migrate) => migrate(item), flag));
      expected -= 1;
      flags += 1;
      if (flags % 1000 === 0) onProgress?.(flags, header.flags);
    } else if (line.startsWith('{"end"')) {
      const { end } = at(TrailerSchema, line, 'the end line');
      if (end.projects !== header.projects || end.flags !== header.flags) throw new RestoreError(`the end line counts ${end.projects} projects and ${end.flags} flags, the header ${header.projects} and ${header.flags}: the file is damaged`);
      ended = true;
    } else {
      const { project, flags: count } = at(ProjectLineSchema, line, 'a project line');
      const { id, seq, ...rest } = project as { id: string; seq: number; meta: unknown };
      projects.push({ id, seq, meta: rest.meta, flags: [] });
      expected = count;
    }
  }
  if (!header) throw new RestoreError('the backup is empty');
  if (!ended) throw new RestoreError(`the backup ends at line ${lineNo} without its end line: it was cut short (was the backup interrupted?)`);
  if (projects.length !== header.projects || flags !== header.flags) throw new RestoreError(`the backup holds ${projects.length} projects and ${flags} flags, its header announces ${header.projects} and ${header.flags}`);
  for (const [key, token] of Object.entries(service!.state.tokens)) {
    if (key !== token.hash) throw new RestoreError(`service.state.tokens: the token "${token.id}" is not stored under its hash`);
  }
  onProgress?.(flags, header.flags);
  return { header, dump: checkDump({ format: DUMP_FORMAT, service, projects }) };
}
