/**
 * The event a test send delivers (`POST /api/admin/addons/:id/test`, flagpole's addition: Unleash has no test send). It
 * is a `feature-updated` event: every provider offers that type and Unleash 6.10 never emits it, so a receiver
 * written for Unleash takes it as a flag event without acting on a real change. It names the flag
 * `flagpole-test-event` (which need not exist; nothing is changed), the addon's first project (else `default`) and
 * first environment (else none), the caller as its author and the moment of the send.
 */
import { randomInt } from 'node:crypto';
import type { Addon } from '../domain/addons/addon.js';
import { flagData, type EventActor, type UnleashEvent } from './unleash-event.js';

/** The flag a test event names. */
export const TEST_EVENT_FLAG = 'flagpole-test-event';

/** The first name of a filter list that is not `*`. */
const first = (names: readonly string[]): string | undefined => names.find((n) => n !== '*');

/**
 * The test event for `addon`, sent by `actor` at `at`; its `id` is random (a test is never a redelivery).
 *
 * @example testEvent(addon, { createdBy: 'admin', createdByUserId: -42 }, new Date().toISOString()).type // 'feature-updated'
 */
export function testEvent(addon: Addon, actor: EventActor, at: string): UnleashEvent {
  const project = first(addon.projects) ?? 'default';
  const flag = {
    name: TEST_EVENT_FLAG, description: 'A test event sent by flagpole: no flag was changed.', type: 'release' as const, stale: false,
    createdAt: at, lastSeenAt: null, impressionData: false, archived: false,
  };
  return {
    id: randomInt(2 ** 47), type: 'feature-updated', createdBy: actor.createdBy, createdAt: at, createdByUserId: actor.createdByUserId,
    data: flagData(flag, project), preData: null, tags: [], featureName: TEST_EVENT_FLAG, project, environment: first(addon.environments) ?? null,
  };
}
