/**
 * The second step of applying a change request that changes segments (docs/architecture.md "Change
 * requests"): the project's record applied it and marks it `segmentsPending`; this has the service make its
 * segment changes, then clears the mark. The apply runs it at once (inside the segment mailbox); `Registry.open`
 * runs it for every request still marked, so a stop between the two steps is finished at the next start.
 */
import { isSegmentChange, type ChangeRequest } from '../domain/change-request.js';
import type { DomainError } from '../domain/errors.js';
import type { SegmentOp } from '../domain/service-commands.js';
import type { SettleTarget } from './import-settle.js';

/** The service's operations of a request's segment changes; a delete already made (a second run) is left out. */
function opsOf(registry: SettleTarget, request: ChangeRequest): SegmentOp[] {
  const segments = registry.service.state.segments;
  return request.changes.filter(isSegmentChange).flatMap((change): SegmentOp[] => {
    const { id } = change.payload;
    if (change.action === 'deleteSegment') return Object.hasOwn(segments, String(id)) ? [{ id, delete: true }] : [];
    const { name, description, project, constraints } = change.payload;
    return [{ id, segment: { name, description, project, constraints } }];
  });
}

/** Makes the segment changes of `request` (applied in `projectId`) and clears its mark; the service's refusal, if any. */
export async function settleRequestSegments(registry: SettleTarget, projectId: string, request: ChangeRequest, by: string): Promise<DomainError | null> {
  const actor = registry.project(projectId);
  if (!actor || !request.segmentsPending) return null;
  const ops = opsOf(registry, request);
  if (ops.length > 0) {
    const made = await registry.service.send({ type: 'segments.change', changes: ops, dryRun: false }, by);
    if (!made.ok) return made.error;
  }
  const settled = await actor.send({ type: 'change-request.settle-segments', id: request.id }, by);
  return settled.ok ? null : settled.error;
}

/** Finishes every applied request whose segment changes a stop interrupted (at start, before anything is served). */
export async function settlePendingSegments(registry: SettleTarget, log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void }): Promise<void> {
  for (const id of registry.projectIds()) {
    for (const request of registry.project(id)?.state.changeRequests.requests.values() ?? []) {
      if (!request.segmentsPending) continue;
      try {
        const error = await settleRequestSegments(registry, id, request, 'system');
        if (error) log.error({ project: id, changeRequest: request.id, kind: error.kind }, `the segment changes of applied change request ${request.id} of project "${id}" could not be made: ${error.message}`);
        else log.warn({ project: id, changeRequest: request.id }, `made the segment changes of change request ${request.id} of project "${id}", which a stop had interrupted`);
      } catch (error) {
        log.error({ project: id, changeRequest: request.id, err: error }, `the segment changes of applied change request ${request.id} of project "${id}" could not be made`);
      }
    }
  }
}
