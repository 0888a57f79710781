import { existsSync, readdirSync } from 'node:fs';
import * as v from 'valibot';
// Snapshot heads record the machine versions the service itself records (see dump.ts on importing src/).
import { PROJECT_MACHINES } from '../src/actors/project-model.js';
import { serviceModel } from '../src/actors/service-model.js';
import type { ServiceState } from '../src/domain/service-state.js';
import type { Flag, ProjectMeta } from '../src/domain/types.js';
import { encode } from './codec.js';
import { DUMP_FORMAT, type Dump } from './dump.js';
import { keys } from './keys.js';
import { writeSnapshot } from './snapshot-writer.js';
import { Store } from './store.js';

const Seq = v.pipe(v.number(), v.safeInteger(), v.minValue(1));
const AnyObject = v.record(v.string(), v.unknown());

/**
 * The envelope of a full dump. The states inside are checked for shape only where restore relies on them
 * (ids, names, sequence numbers); their content was produced by the service and is restored as it is.
 */
const DumpSchema = v.object({
  format: v.literal(DUMP_FORMAT),
  service: v.object({
    seq: Seq,
    state: v.object({ environments: v.array(AnyObject), users: AnyObject, nextUserId: v.number(), tokens: AnyObject }),
  }),
  projects: v.array(v.object({
    id: v.string(),
    seq: Seq,
    meta: v.looseObject({ id: v.string(), createdAt: v.string() }),
    flags: v.array(v.looseObject({ name: v.string() })),
  })),
});

/** A dump that cannot be restored; the message says why. */
export class RestoreError extends Error {
  override name = 'RestoreError';
}

/**
 * Parses and checks a dump document: a full dump (with the service part), projects unique, each project's
 * meta naming it, flag names unique within a project.
 */
export function parseDump(text: string): Dump {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RestoreError(`the dump is not JSON: ${(error as Error).message}`);
  }
  if (typeof raw === 'object' && raw !== null && !('service' in raw)) {
    throw new RestoreError('the dump has no service part: restore needs a full dump (made without --project or --at)');
  }
  const result = v.safeParse(DumpSchema, raw);
  if (!result.success) {
    const issue = result.issues[0];
    throw new RestoreError(`the dump is not a flagpole dump of format ${DUMP_FORMAT}: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  const ids = new Set<string>();
  for (const project of result.output.projects) {
    if (ids.has(project.id)) throw new RestoreError(`project "${project.id}" appears twice`);
    ids.add(project.id);
    if (project.meta.id !== project.id) throw new RestoreError(`project "${project.id}" has meta.id "${project.meta.id}"`);
    const names = new Set<string>();
    for (const flag of project.flags) {
      if (names.has(flag.name)) throw new RestoreError(`project "${project.id}" has flag "${flag.name}" twice`);
      names.add(flag.name);
    }
  }
  return raw as Dump;
}

/** What a restore wrote. */
export interface RestoreSummary {
  projects: number;
  flags: number;
}

/**
 * Loads a full dump into an empty (or missing) data directory: one snapshot per scope at the dumped
 * sequence number, plus each project's registration key. Starting the service on it recovers exactly the
 * dumped state, and new commands continue the sequence (so flag versions and ETags stay monotonic).
 * A restore cut short leaves a non-empty directory, which a second restore refuses: empty it and rerun.
 */
export async function restoreDump(dataDir: string, dump: Dump): Promise<RestoreSummary> {
  if (!dump.service) throw new RestoreError('the dump has no service part: restore needs a full dump');
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) throw new RestoreError(`${dataDir} is not empty: restore only writes into an empty data directory`);
  const store = await Store.open(dataDir);
  try {
    const at = new Date().toISOString();
    const service: ServiceState = dump.service.state;
    await writeSnapshot(store, serviceModel.scope, { seq: dump.service.seq, at, machines: serviceModel.machines, meta: service }, []);
    let flags = 0;
    for (const project of dump.projects) {
      const meta: ProjectMeta = project.meta;
      const items: Flag[] = project.flags;
      await writeSnapshot(store, { project: project.id }, { seq: project.seq, at, machines: PROJECT_MACHINES, meta }, items);
      flags += items.length;
    }
    // Registrations last: a project is only listed once its snapshot is there.
    await store.commit(dump.projects.map((p) => ({ type: 'put', key: keys.project(p.id), value: encode({ id: p.id, createdAt: p.meta.createdAt }) })));
    return { projects: dump.projects.length, flags };
  } finally {
    await store.close();
  }
}
