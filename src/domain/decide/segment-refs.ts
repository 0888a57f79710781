import type { ProjectContext } from '../context.js';
import { failAt, type DomainError } from '../errors.js';
import type { ProjectDraft } from '../project-state.js';

/**
 * Refuses (400) a strategy that newly references a segment that does not exist, or one of another project.
 * Ids the strategy already referenced (`kept`) are not looked up again: they exist while referenced, and a
 * segment being deleted or moved at this moment must not make an unrelated edit of the strategy fail.
 *
 * @example checkSegmentRefs(draft, strategy.segments ?? [], current.segments, context) // null or a ValidationError
 */
export function checkSegmentRefs(draft: ProjectDraft, ids: readonly number[] | undefined, kept: readonly number[] | undefined, context: ProjectContext): DomainError | null {
  for (const id of ids ?? []) {
    if (kept?.includes(id)) continue;
    const segment = context.lookups?.segment(id, context.arrival);
    if (!segment) return failAt('ValidationError', 'segments', `segment ${id} does not exist`);
    if (segment === 'changing') return failAt('ValidationError', 'segments', `segment ${id} is being deleted or moved to another project; try again`);
    if (segment.project !== null && segment.project !== draft.meta.id) {
      return failAt('ValidationError', 'segments', `segment ${id} ("${segment.name}") belongs to project "${segment.project}"; only that project's strategies can use it`);
    }
  }
  return null;
}
