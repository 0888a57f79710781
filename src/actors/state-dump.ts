import { buildDump, type Dump } from '../../snapshots/dump.js';
import type { Registry } from './registry.js';

/** Dumps are printed with sorted keys, so the HTTP dump and the CLI dump of one state are byte-identical. */
export { stableStringify } from '../../snapshots/dump.js';

/**
 * The dump of the running service's committed state, in the same document `npm run dump` prints for a
 * stopped data directory (docs/storage.md "Dumps"). Every scope is read synchronously, so the dump is one
 * consistent moment. Undefined when `projectId` names no project.
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
