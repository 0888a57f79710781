/**
 * Segments (docs/client-contract.md "Segments"). Every write runs in the registry's segment mailbox
 * (`segmentWrites`), one at a time, and is decided in the service mailbox (names, limits, usage). A segment's
 * permission depends on its project, which only the body or the stored segment names, so it is checked here:
 * `UPDATE_SEGMENT` for a global segment, `UPDATE_PROJECT` in a project segment's project (both the old and the new on
 * a move).
 *
 * Deleting a segment, or narrowing it to one project, must not miss a strategy that a project mailbox is
 * adding at the same moment. So the segment is first fenced (projects see it as unknown, or all but the
 * target project), then every project settles what it was sent before, and only then does the service
 * mailbox read the committed project states and decide. A refused delete lifts the fence and changes nothing.
 */
import type { Registry } from '../actors/registry.js';
import { isAllowed, principalLabel, projectRoleOf, roleIn, segmentWriteRefusal, type Principal } from '../auth/permissions.js';
import { protectedEnvironments, skipRefusal } from '../domain/decide/change-request-guard.js';
import { fail, type DomainError } from '../domain/errors.js';
import { segmentWithId, type Segment, type SegmentInput } from '../domain/segment.js';
import { failed, fromDecision, ok, type Result } from '../domain/result.js';

/** The 404, 503 or 403 of a write to a segment of `project` (null: global) by `principal`, or null. */
function refusal(registry: Registry, principal: Principal, project: string | null): DomainError | null {
  let role: number | undefined;
  if (project !== null) {
    const found = registry.find(project);
    if (!found.ok) return found.error;
    role = roleIn(principal, found.value.state.meta.members);
  }
  const message = segmentWriteRefusal(principal, project, role);
  return message ? fail('NoAccessError', message) : null;
}

/**
 * A direct write to a segment of a project that takes changes through requests in some environment needs
 * `SKIP_CHANGE_REQUEST` (Unleash's `canBypassChangeRequestForProject`): the 403 `PermissionError`, or null.
 * Read here, in the segment mailbox, where the settings' writes run too (`configureChangeRequests`), so they
 * cannot change between this check and the write.
 */
function requestRefusal(registry: Registry, principal: Principal, project: string | null): DomainError | null {
  const actor = project === null ? undefined : registry.project(project);
  if (!actor) return null;
  const environments = protectedEnvironments(actor.state.meta);
  if (environments.length === 0 || isAllowed(principal, 'SKIP_CHANGE_REQUEST', projectRoleOf(principal, actor.state.meta.members))) return null;
  return skipRefusal(actor.state.meta.id, environments);
}

/** Who created a segment, as a person reads it: a user's username, email or name; a token's name. */
function creatorOf(principal: Principal): string | null {
  return principal.kind === 'user' ? principal.user.username ?? principal.user.email ?? principal.user.name : principal.name;
}

/**
 * Creates a segment (201): the next id, unique name, within `LIMIT_SEGMENTS` and `LIMIT_SEGMENT_VALUES`.
 *
 * @example await createSegment(registry, { name: 'beta', description: null, project: null, constraints: [] }, principal)
 */
export function createSegment(registry: Registry, input: SegmentInput, principal: Principal): Promise<Result<Segment>> {
  return registry.segmentWrites.run(async () => {
    const denied = refusal(registry, principal, input.project);
    if (denied) return failed(denied);
    return fromDecision(await registry.service.send({ type: 'segment.create', segment: input, createdBy: creatorOf(principal) }, principalLabel(principal)));
  });
}

/**
 * Replaces a segment's name, description, project and constraints. Moving it to a project is decided with
 * the segment fenced off from every other project, so no strategy of theirs can start using it meanwhile.
 */
export function updateSegment(registry: Registry, input: { id: number } & SegmentInput, principal: Principal): Promise<Result<Segment>> {
  const { id, ...segment } = input;
  return registry.segmentWrites.run(async () => {
    const current = segmentWithId(registry.service.state.segments, id);
    if (!current.ok) return current;
    const denied = refusal(registry, principal, current.value.project) ?? (segment.project === current.value.project ? null : refusal(registry, principal, segment.project))
      ?? requestRefusal(registry, principal, current.value.project) ?? requestRefusal(registry, principal, segment.project);
    if (denied) return failed(denied);
    const send = async () => fromDecision(await registry.service.send({ type: 'segment.update', id, segment }, principalLabel(principal)));
    if (segment.project === null) return send();
    return registry.withSegmentFenced(id, segment.project, async () => {
      await registry.settleProjects();
      return send();
    });
  });
}

/** Deletes a segment no strategy references; one in use is a 409 naming where (see the module comment). */
export function deleteSegment(registry: Registry, input: { id: number }, principal: Principal): Promise<Result<null>> {
  const { id } = input;
  return registry.segmentWrites.run(async () => {
    const current = segmentWithId(registry.service.state.segments, id);
    if (!current.ok) return current;
    const denied = refusal(registry, principal, current.value.project) ?? requestRefusal(registry, principal, current.value.project);
    if (denied) return failed(denied);
    return registry.withSegmentFenced(id, null, async () => {
      await registry.settleProjects();
      const decision = await registry.service.send({ type: 'segment.delete', id }, principalLabel(principal));
      return decision.ok ? ok(null) : failed(decision.error);
    });
  });
}
