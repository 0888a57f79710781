/**
 * The second step of an import (docs/architecture.md "Export and import"): the project's record is the
 * commit point and names, in `meta.pendingImport`, the tag types and context fields the service must still
 * create. This creates the missing ones (one present already is left as it is) and then clears the mark. The
 * import runs it at once; `Registry.open` runs it for every project still marked, so a crash between the two
 * steps is finished at the next start, never left half.
 */
import type { DomainError } from '../domain/errors.js';
import type { ProjectActor, ServiceActor } from './actor-types.js';

/** What settling reads of the registry (its shape only: `Registry.open` calls this at start). */
export interface SettleTarget {
  project(id: string): ProjectActor | undefined;
  projectIds(): string[];
  readonly service: ServiceActor;
}

/** Finishes the import pending in `projectId`, if any; answers the service's refusal when one stops it. */
export async function settlePendingImport(registry: SettleTarget, projectId: string, by: string): Promise<DomainError | null> {
  const actor = registry.project(projectId);
  const pending = actor?.state.meta.pendingImport;
  if (!actor || !pending) return null;
  for (const tagType of pending.tagTypes) {
    if (registry.service.state.tagTypes.some((t) => t.name === tagType.name)) continue;
    const created = await registry.service.send({ type: 'tag-type.create', tagType }, by);
    if (!created.ok && created.error.kind !== 'NameExistsError') return created.error;
  }
  for (const field of pending.contextFields) {
    if (registry.service.state.contextFields.some((f) => f.name === field.name)) continue;
    const created = await registry.service.send({ type: 'context-field.create', field }, by);
    if (!created.ok && created.error.kind !== 'NameExistsError') return created.error;
  }
  const settled = await actor.send({ type: 'import.settle' }, by);
  return settled.ok ? null : settled.error;
}

/** Settles every project an interrupted import left marked (at start, before anything is served). */
export async function settlePendingImports(registry: SettleTarget, log: { error(obj: object, msg: string): void }): Promise<void> {
  for (const id of registry.projectIds()) {
    if (!registry.project(id)?.state.meta.pendingImport) continue;
    try {
      const error = await settlePendingImport(registry, id, 'system');
      if (error) log.error({ project: id, kind: error.kind }, `an interrupted import of project "${id}" could not be finished: ${error.message}`);
    } catch (error) {
      log.error({ project: id, err: error }, `an interrupted import of project "${id}" could not be finished`);
    }
  }
}
