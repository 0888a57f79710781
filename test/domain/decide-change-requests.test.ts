/**
 * The project's decisions on change requests, given / when / then over pure data: a direct write to a protected
 * environment is refused unless its sender may skip requests; an apply decides every change against the draft as
 * the changes before it leave it, and records all of them in one decision or none.
 */
import { describe, expect, test } from 'vitest';
import type { ChangeRequest } from '../../src/domain/change-request.js';
import type { ProjectCommand } from '../../src/domain/commands.js';
import type { CallerRights } from '../../src/domain/context.js';
import { decide } from '../../src/domain/decide.js';
import type { ProjectEvent } from '../../src/domain/events.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { AT, given } from '../helpers/decider.js';
import { flagCreated, strategy, strategyAdded } from '../helpers/project-events.js';

const protectedProduction: ProjectEvent = { type: 'change-request.configured', environment: 'production', requiredApprovals: 1, before: null };
const member: CallerRights = { skipChangeRequests: false, approveChangeRequests: false, applyChangeRequests: false, admin: false };
const owner: CallerRights = { ...member, approveChangeRequests: true, applyChangeRequests: true };

/** An approved request of `changes` (as it would be once drafted and approved). */
function approved(changes: ChangeRequest['changes']): ProjectEvent {
  const request: ChangeRequest = {
    id: 1, title: 'Change Request #1', environment: 'production', state: 'Approved', minApprovals: 1, createdAt: AT, createdBy: 'user:5',
    changes, approvals: [{ by: 'user:4', at: AT }], rejections: [], comments: [], reviewers: [], stateTimestamps: { Approved: AT },
  };
  return { type: 'change-request.created', id: 1, environment: 'production', at: AT, request };
}

const change = (id: number, body: Record<string, unknown>) => ({ id, createdAt: AT, createdBy: 'user:5', ...body }) as ChangeRequest['changes'][number];

/** Decides `command` against the facts' state as a sender with `rights` would have it decided. */
function decideAs(facts: ReturnType<typeof given>, command: ProjectCommand, rights?: CallerRights) {
  return decide(facts.draft(), command, { at: AT, by: 'user:4', seq: facts.seq, limits: DEFAULT_LIMITS, rights });
}

describe('protected environments', () => {
  const facts = given([flagCreated('f'), strategyAdded('f', 'production', strategy('s1')), strategyAdded('f', 'development', strategy('s2')), protectedProduction]);

  test('a direct write there is refused with PermissionError unless its sender may skip requests', () => {
    const on: ProjectCommand = { type: 'flag.enable', feature: 'f', environment: 'production' };
    expect(decideAs(facts, on, member)).toMatchObject({ ok: false, error: { kind: 'PermissionError', permissions: ['SKIP_CHANGE_REQUEST'] } });
    expect(decideAs(facts, on, owner)).toMatchObject({ ok: false, error: { kind: 'PermissionError' } });
    expect(decideAs(facts, on, { ...member, skipChangeRequests: true }).ok).toBe(true);
    // The service's own commands carry no rights: never refused.
    expect(decideAs(facts, on).ok).toBe(true);
    expect(decideAs(facts, { type: 'flag.enable', feature: 'f', environment: 'development' }, member).ok).toBe(true);
  });

  test('writes to the whole flag wait while any environment is protected', () => {
    for (const command of [
      { type: 'flag.archive', feature: 'f' }, { type: 'variants.set', feature: 'f', variants: [] },
      { type: 'dependency.remove', feature: 'f' }, { type: 'flags.archive', features: ['f'] },
    ] as ProjectCommand[]) {
      expect(decideAs(facts, command, member), command.type).toMatchObject({ ok: false, error: { kind: 'PermissionError' } });
    }
    expect(decideAs(facts, { type: 'flag.update', feature: 'f', description: 'd', flagType: 'release', stale: false, impressionData: false }, member).ok).toBe(true);
  });
});

describe('applying a change request', () => {
  const base = [flagCreated('f'), flagCreated('g'), strategyAdded('g', 'production', strategy('s1')), protectedProduction];
  const add = change(1, { feature: 'f', action: 'addStrategy', payload: { name: 'default' } });
  const enable = change(2, { feature: 'f', action: 'updateEnabled', payload: { enabled: true } });

  test('records every change and the request applied in one decision; each change sees the ones before it', () => {
    const facts = given([...base, approved([add, enable, change(3, { feature: 'g', action: 'deleteStrategy', payload: { id: 's1' }, snapshot: strategy('s1') })])]);
    const decision = decideAs(facts, { type: 'change-request.apply', id: 1, segments: { checked: [] } }, owner);
    expect(decision.ok).toBe(true);
    if (decision.ok) {
      // The enable goes through because the strategy the first change adds is there.
      expect(decision.events.map((e) => `${e.type}${'name' in e ? ` ${e.name}` : ''}`)).toEqual(['strategy.added f', 'flag.enabled f', 'strategy.deleted g', 'change-request.applied']);
      expect(decision.reply).toMatchObject({ outcome: 'applied', request: { state: 'Applied' }, conflicts: [] });
    }
  });

  test('one change refused: nothing is recorded, and the answer names the change', () => {
    const facts = given([...base, approved([add, enable, change(3, { feature: 'g', action: 'deleteStrategy', payload: { id: 'gone' } })])]);
    const decision = decideAs(facts, { type: 'change-request.apply', id: 1, segments: { checked: [] } }, owner);
    expect(decision).toMatchObject({ ok: false, error: { kind: 'InvalidOperationError', message: expect.stringMatching(/^Change request 1 was not applied, none of its changes: change 3 \(deleteStrategy of "g"\)/) } });
  });

  test('the segment changes checked by the service must still be the request\'s when it is decided', () => {
    const segment = change(3, { feature: null, action: 'updateSegment', payload: { id: 7, name: 's', description: null, project: 'p', constraints: [] } });
    const facts = given([...base, approved([add, segment])]);
    expect(decideAs(facts, { type: 'change-request.apply', id: 1, segments: { checked: [] } }, owner))
      .toMatchObject({ ok: false, error: { kind: 'InvalidOperationError', message: 'Change request 1 changed while it was being applied; apply it again' } });
    expect(decideAs(facts, { type: 'change-request.apply', id: 1, segments: { checked: [3] } }, owner)).toMatchObject({ ok: true, reply: { request: { segmentsPending: true } } });
  });

  test('by the scheduler, a refused change records the failed schedule instead; a conflict, the suspended one', () => {
    const scheduled: ProjectEvent = { type: 'change-request.scheduled', id: 1, environment: 'production', at: AT, schedule: { scheduledAt: AT, status: 'pending', by: 'user:4' }, before: null };
    const orphan = change(3, { feature: 'g', action: 'addDependency', payload: { feature: 'nope', enabled: true }, snapshot: null });
    const facts = given([...base, approved([add, enable, orphan]), scheduled]);
    const decision = decideAs(facts, { type: 'change-request.apply', id: 1, scheduledAt: AT, segments: { checked: [] } });
    expect(decision).toMatchObject({ ok: true, events: [{ type: 'change-request.schedule-failed', reason: expect.stringMatching(/^change 3/) }], reply: { outcome: 'failed', request: { state: 'Scheduled', schedule: { status: 'failed' } } } });
    // Another schedule than the one found due: left alone.
    expect(decideAs(facts, { type: 'change-request.apply', id: 1, scheduledAt: '2024-01-01T00:00:00.000Z', segments: { checked: [] } }).ok).toBe(false);
    const gone = given([...base, approved([add, change(3, { feature: 'g', action: 'deleteStrategy', payload: { id: 's9' }, snapshot: strategy('s9') })]), scheduled]);
    expect(decideAs(gone, { type: 'change-request.apply', id: 1, scheduledAt: AT, segments: { checked: [] } })).toMatchObject({
      ok: true, events: [{ type: 'change-request.schedule-suspended', reason: 'change 3 (g): Strategy has been deleted' }], reply: { outcome: 'suspended' },
    });
  });
});

describe('a write that makes a scheduled request conflict', () => {
  const scheduled: ProjectEvent = { type: 'change-request.scheduled', id: 1, environment: 'production', at: AT, schedule: { scheduledAt: '2030-01-01T00:00:00.000Z', status: 'pending', by: 'user:4' }, before: null };
  const update = change(1, { feature: 'g', action: 'updateStrategy', payload: { id: 's1', name: 'default', parameters: { rollout: '50' } }, snapshot: strategy('s1') });
  const facts = given([flagCreated('f'), flagCreated('g'), strategyAdded('g', 'production', strategy('s1')), strategyAdded('f', 'production', strategy('s2')), protectedProduction, approved([update]), scheduled]);
  const admin: CallerRights = { ...owner, skipChangeRequests: true, admin: true };

  test('suspends its schedule in the same decision, with the reason', () => {
    expect(decideAs(facts, { type: 'strategy.delete', feature: 'g', environment: 'production', strategyId: 's1' }, admin)).toMatchObject({
      ok: true, events: [{ type: 'strategy.deleted' }, { type: 'change-request.schedule-suspended', id: 1, reason: 'change 1 (g): Strategy has been deleted' }],
    });
    expect(decideAs(facts, { type: 'flag.archive', feature: 'g' }, admin)).toMatchObject({
      ok: true, events: [{ type: 'flag.archived' }, { type: 'change-request.schedule-suspended', reason: 'g: Feature has been archived' }],
    });
  });

  test('a write to something the request does not change suspends nothing', () => {
    const decision = decideAs(facts, { type: 'strategy.delete', feature: 'f', environment: 'production', strategyId: 's2' }, admin);
    expect(decision.ok && decision.events.map((e) => e.type)).toEqual(['strategy.deleted']);
  });

  test('the deletion of the user who scheduled it suspends it with Unleash\'s reason; another user\'s, nothing', () => {
    expect(decideAs(facts, { type: 'change-request.scheduler-deleted', userId: 4 })).toMatchObject({
      ok: true, reply: [1], events: [{ type: 'change-request.schedule-suspended', reason: 'The user who scheduled this change request (user id: 4) has been deleted from this flagpole instance.' }],
    });
    expect(decideAs(facts, { type: 'change-request.scheduler-deleted', userId: 5 })).toMatchObject({ ok: true, reply: [], events: [] });
  });
});
