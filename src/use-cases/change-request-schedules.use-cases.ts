/**
 * Schedules whose author is gone: Unleash suspends the pending schedules a deleted user set. `deleteUser` calls
 * this once the user is deleted, and the scheduler again at a schedule's time (a stop between the two, or a
 * project that refused the first time, is caught there), so such a schedule is never applied.
 */
import type { Registry } from '../actors/registry.js';

/** Whether a project holds a pending schedule set by `by` (`user:<id>`). */
function holdsScheduleOf(registry: Registry, projectId: string, by: string): boolean {
  for (const request of registry.project(projectId)?.state.changeRequests.requests.values() ?? []) {
    if (request.state === 'Scheduled' && request.schedule?.status === 'pending' && request.schedule.by === by) return true;
  }
  return false;
}

/**
 * Suspends, in every project, the pending schedules set by user `userId` (each project decides it in its
 * mailbox); `by` is who is recorded for it. Answers how many were suspended.
 */
export async function suspendSchedulesOf(registry: Registry, userId: number, by: string): Promise<number> {
  let suspended = 0;
  for (const projectId of registry.projectIds()) {
    if (!holdsScheduleOf(registry, projectId, `user:${userId}`)) continue;
    const decided = await registry.project(projectId)!.send({ type: 'change-request.scheduler-deleted', userId }, by);
    if (decided.ok) suspended += decided.reply.length;
  }
  return suspended;
}

/** The user id of a schedule's author when that author is a user who no longer exists; else null. */
export function deletedScheduler(registry: Registry, scheduledBy: string): number | null {
  const match = /^user:(\d+)$/.exec(scheduledBy);
  if (!match) return null;
  return registry.service.state.users[match[1]!] === undefined ? Number(match[1]) : null;
}
