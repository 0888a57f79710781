/**
 * A change request's state (`PUT .../change-requests/:id/state`) and its apply, by a person or by the scheduler.
 *
 * Applying is one project command (`decide/change-request-apply.ts`). A request that also changes segments
 * (the service's) is applied as an import is (docs/architecture.md "Change requests"): inside the segment
 * mailbox, with the segments it deletes fenced, the service first decides its segment changes without
 * recording them; the project's record is the commit point (its flag changes, and the request applied with
 * its segments pending); then the service makes them and the mark is cleared. A stop in between is finished
 * at the next start (`settlePendingSegments`, src/actors/change-request-settle.ts).
 */
import type { Registry } from '../actors/registry.js';
import { settleRequestSegments } from '../actors/change-request-settle.js';
import { principalLabel, type Principal } from '../auth/permissions.js';
import { isSegmentChange, type ChangeRequest, type SegmentChange, type TargetState } from '../domain/change-request.js';
import type { ApplyOutcome, SegmentCheck } from '../domain/change-request-commands.js';
import type { CallerRights } from '../domain/context.js';
import { fail } from '../domain/errors.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';
import type { SegmentOp } from '../domain/service-commands.js';
import type { RequestRef } from './change-requests.use-cases.js';
import { rightsIn, sendToProject } from './send-command.js';

/** The service's operation of one segment change. */
const opOf = (change: SegmentChange): SegmentOp => change.action === 'deleteSegment'
  ? { id: change.payload.id, delete: true }
  : { id: change.payload.id, segment: { name: change.payload.name, description: change.payload.description, project: change.payload.project, constraints: change.payload.constraints } };

/** Runs `task` with every segment in `ids` fenced (no project may newly reference them meanwhile). */
function fenced<T>(registry: Registry, ids: readonly number[], task: () => Promise<T>): Promise<T> {
  if (ids.length === 0) return task();
  return registry.withSegmentFenced(ids[0]!, null, () => fenced(registry, ids.slice(1), task));
}

/**
 * Applies request `id` of `projectId` on behalf of `by` (with `rights`; none for the scheduler, which names
 * the schedule it found due in `scheduledAt`, and may add a `note`). Answers what the apply did.
 */
export async function applyRequest(registry: Registry, input: RequestRef & { scheduledAt?: string | undefined; note?: string | undefined }, by: string, rights?: CallerRights): Promise<Result<ApplyOutcome>> {
  const found = registry.find(input.projectId);
  if (!found.ok) return failed(found.error);
  const actor = found.value;
  const changes = (actor.state.changeRequests.requests.get(input.id)?.changes ?? []).filter(isSegmentChange);
  const ops = changes.map(opOf);
  const apply = (segments: SegmentCheck) =>
    actor.send({ type: 'change-request.apply', id: input.id, scheduledAt: input.scheduledAt, segments, note: input.note }, by, rights);
  if (ops.length === 0) return fromDecision(await apply({ checked: [] }));
  return registry.segmentWrites.run(() => fenced(registry, ops.filter((op) => 'delete' in op).map((op) => op.id), async () => {
    await registry.settleProjects();
    const check = await registry.service.send({ type: 'segments.change', changes: ops, dryRun: true }, by);
    // The project's mailbox checks these are still the request's segment changes when it decides the apply.
    const decided = await apply(check.ok ? { checked: changes.map((c) => c.id) } : { refused: `Change request ${input.id} was not applied, none of its changes: ${check.error.message}` });
    if (!decided.ok) return failed(decided.error);
    if (decided.reply.outcome === 'applied') {
      const settled = await settleRequestSegments(registry, input.projectId, decided.reply.request, by);
      if (settled) return failed(settled);
    }
    return ok(decided.reply);
  }));
}

/**
 * `PUT .../change-requests/:id/state`: `Applied` applies it (a `comment` with it is not kept: the request is
 * closed by then); the others are steps of its machine. Answers the request after it, and for an apply the
 * conflicts it overwrote.
 */
export async function changeState(
  registry: Registry,
  input: RequestRef & { state: TargetState; comment?: string | undefined; scheduledAt?: string | undefined },
  principal: Principal,
): Promise<Result<{ request: ChangeRequest; overwritten?: string[] }>> {
  if (input.state !== 'Applied') {
    const moved = await sendToProject(registry, input.projectId, { type: 'change-request.transition', id: input.id, state: input.state, comment: input.comment, scheduledAt: input.scheduledAt }, principal);
    return moved.ok ? ok({ request: moved.value }) : moved;
  }
  const found = registry.find(input.projectId);
  if (!found.ok) return failed(found.error);
  const applied = await applyRequest(registry, { projectId: input.projectId, id: input.id }, principalLabel(principal), rightsIn(found.value, principal));
  if (!applied.ok) return applied;
  const outcome = applied.value;
  // A person's apply is refused rather than recorded as failed: only the scheduler's is.
  if (outcome.outcome !== 'applied') return failed(fail('InvalidOperationError', outcome.reason));
  return ok({ request: outcome.request, overwritten: outcome.conflicts });
}
