/**
 * Scheduled change requests, on a clock the test moves (`ManualClock`: the actors stamp records with it and
 * the scheduler's timer fires when it passes): applied when due, exactly once; only under the scheduler's lease
 * (`SingletonWork`); after a restart; at the next start when the moment fell while the service was stopped (and
 * said so); a conflict suspends the schedule, a refused apply fails it (both stay Scheduled, with the reason);
 * reschedule, apply now, reject.
 */
import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../helpers/clock.js';
import { expectError } from '../../helpers/expect.js';
import { harness, type Harness } from '../../helpers/harness.js';
import { LeaseWork } from '../../helpers/lease-work.js';
import { LocalSingletonWork } from '../../../src/actors/addons/singleton-work.js';
import { silentLogger } from '../../../src/log.js';
import { ChangeRequestScheduler, SCHEDULER_LEASE } from '../../../src/scheduling/change-request-scheduler.js';
import { CR, P, draft, envOf, move, moveOk, people, protect, requestOf, type People } from './cr-fixtures.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-05-05T05:00:00.000Z');

/** A harness on a manual clock, with flag `f` (a strategy in production), production protected, and the people. */
async function scheduled(env: Record<string, string> = {}, work?: LeaseWork): Promise<{ h: Harness; clock: ManualClock; who: People }> {
  const clock = new ManualClock(START);
  const h = await harness(env, undefined, { clock, work });
  await h.json('POST', `${P}/features`, { name: 'f' });
  await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'flexibleRollout', parameters: { rollout: 10 } });
  await protect(h);
  return { h, clock, who: await people(h) };
}

/** Drafts `changes` as the member, has an Owner approve and schedule it at `at`; answers the request. */
async function approvedAndScheduled(h: Harness, who: People, changes: unknown, at: string): Promise<any> {
  const request = await draft(h, changes, who.member.token);
  await moveOk(h, request.id, { state: 'In review' }, who.member.token);
  await moveOk(h, request.id, { state: 'Approved' }, who.owner.token);
  return moveOk(h, request.id, { state: 'Scheduled', scheduledAt: at }, who.owner.token);
}

const enable = { feature: 'f', action: 'updateEnabled', payload: { enabled: true } };
const applies = async (h: Harness) => (await h.json('GET', '/api/admin/events?project=default&limit=1000')).body.events.filter((e: { type: string }) => e.type === 'change-request.applied');

describe('scheduled change requests', () => {
  test('are applied when they fall due, exactly once, by the scheduler', async () => {
    const { h, clock, who } = await scheduled();
    try {
      const request = await approvedAndScheduled(h, who, enable, clock.iso(HOUR));
      expect(request).toMatchObject({ state: 'Scheduled', schedule: { scheduledAt: '2026-05-05T06:00:00.000Z', status: 'pending' } });
      expect((await h.json('GET', `${CR}/scheduled?feature=f`)).body).toEqual([{ id: 1, environment: 'production', title: 'Change Request #1' }]);
      expect((await h.json('GET', `${CR}/scheduled`)).body).toEqual([]);
      // A second scheduler over the same projects (another node that also holds the lease) races the first.
      const other = new ChangeRequestScheduler({ registry: h.registry, log: silentLogger(), clock });
      other.start(new LocalSingletonWork());
      await other.idle();
      clock.advance(HOUR - 1);
      expect((await requestOf(h, 1)).state).toBe('Scheduled');
      clock.advance(1);
      await expect.poll(async () => (await requestOf(h, 1)).state).toBe('Applied');
      expect((await envOf(h, 'f')).enabled).toBe(true);
      clock.advance(HOUR);
      await Promise.all([h.scheduler.idle(), other.idle()]);
      expect(await applies(h)).toMatchObject([{ by: 'system', at: '2026-05-05T06:00:00.000Z', after: { scheduled: true }, changeRequest: { id: 1 } }]);
      // A scheduled request does not keep its author from a new draft.
      expect((await draft(h, { feature: 'f', action: 'updateEnabled', payload: { enabled: false } }, who.member.token)).id).toBe(2);
    } finally {
      await h.close();
    }
  });

  test('are applied only on the node that holds the scheduler\'s lease', async () => {
    const lease = new LeaseWork();
    const { h, clock, who } = await scheduled({}, lease);
    try {
      expect(lease.asked).toEqual([SCHEDULER_LEASE]);
      await approvedAndScheduled(h, who, enable, clock.iso(HOUR));
      clock.advance(HOUR + 60_000);
      await h.scheduler.idle();
      expect((await requestOf(h, 1)).state).toBe('Scheduled');
      // This node wins the lease (the holder stopped): the schedule that fell meanwhile is applied at once, and says so.
      lease.grant();
      await h.scheduler.idle();
      expect(await requestOf(h, 1)).toMatchObject({ state: 'Applied', comments: [{ text: expect.stringContaining('when the scheduler started: it was due at 2026-05-05T06:00:00.000Z') }] });
      // It loses the lease: no timer runs here any more.
      await approvedAndScheduled(h, who, { feature: 'f', action: 'updateEnabled', payload: { enabled: false } }, clock.iso(HOUR));
      await lease.revoke();
      clock.advance(2 * HOUR);
      await h.scheduler.idle();
      expect((await requestOf(h, 2)).state).toBe('Scheduled');
      expect((await envOf(h, 'f')).enabled).toBe(true);
    } finally {
      await h.close();
    }
  });

  test('survive a restart, and fall at their time after it', async () => {
    const { h, clock, who } = await scheduled();
    try {
      await approvedAndScheduled(h, who, enable, clock.iso(HOUR));
      await h.restart();
      await h.scheduler.idle();
      expect((await requestOf(h, 1)).schedule).toEqual({ scheduledAt: '2026-05-05T06:00:00.000Z', status: 'pending' });
      clock.advance(HOUR);
      await expect.poll(async () => (await requestOf(h, 1)).state).toBe('Applied');
      expect(await applies(h)).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  test('one that fell due while the service was stopped is applied at the next start, and says so', async () => {
    const { h, clock, who } = await scheduled();
    try {
      await approvedAndScheduled(h, who, enable, clock.iso(HOUR));
      await h.restart(async () => { clock.advance(3 * HOUR); });
      await h.scheduler.idle();
      const request = await requestOf(h, 1);
      expect(request.state).toBe('Applied');
      const note = 'Applied at 2026-05-05T08:00:00.000Z, when the scheduler started: it was due at 2026-05-05T06:00:00.000Z, while no scheduler ran (the service was stopped).';
      expect(request.comments.at(-1)).toMatchObject({ text: note, createdBy: { username: 'system' } });
      expect(await applies(h)).toMatchObject([{ after: { scheduled: true, note } }]);
      expect(h.logs().some((line) => line['changeRequest'] === 1 && String(line['msg']).includes('while no scheduler ran: applied when the scheduler started'))).toBe(true);
      expect((await envOf(h, 'f')).enabled).toBe(true);
    } finally {
      await h.close();
    }
  });

  test('a conflict suspends the schedule with its reason; rescheduled, the conflict suspends it again; applied now, it goes through', async () => {
    const { h, clock, who } = await scheduled();
    try {
      const s = (await envOf(h, 'f')).strategies[0];
      await approvedAndScheduled(h, who, { feature: 'f', action: 'updateStrategy', payload: { id: s.id, parameters: { rollout: 50 } } }, clock.iso(HOUR));
      expect((await h.json('PUT', `${P}/features/f/environments/production/strategies/${s.id}`, { name: 'flexibleRollout', parameters: { rollout: 30 } })).status).toBe(200);
      clock.advance(HOUR);
      await expect.poll(async () => (await requestOf(h, 1)).schedule.status).toBe('suspended');
      const request = await requestOf(h, 1);
      expect(request).toMatchObject({ state: 'Scheduled', schedule: { status: 'suspended', reason: 'change 1 (f): Strategy has been updated since this change was added' } });
      expect((await envOf(h, 'f')).strategies[0].parameters.rollout).toBe('30');
      const again = await moveOk(h, 1, { state: 'Scheduled', scheduledAt: clock.iso(HOUR) }, who.owner.token);
      expect(again.schedule).toEqual({ scheduledAt: '2026-05-05T07:00:00.000Z', status: 'pending' });
      clock.advance(HOUR);
      await expect.poll(async () => (await requestOf(h, 1)).schedule.status).toBe('suspended');
      const now = await moveOk(h, 1, { state: 'Applied' }, who.owner.token);
      expect(now.overwrittenConflicts).toEqual(['change 1 (f): Strategy has been updated since this change was added']);
      expect((await envOf(h, 'f')).strategies[0].parameters.rollout).toBe('50');
    } finally {
      await h.close();
    }
  });

  test('a refused apply leaves it Scheduled, failed, with the reason; then it can be rejected', async () => {
    const { h, clock, who } = await scheduled({ LIMIT_STRATEGIES_PER_ENVIRONMENT: '2' });
    try {
      await approvedAndScheduled(h, who, { feature: 'f', action: 'addStrategy', payload: { name: 'default' } }, clock.iso(HOUR));
      expect((await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' })).status).toBe(200);
      clock.advance(HOUR);
      await expect.poll(async () => (await requestOf(h, 1)).schedule.status).toBe('failed');
      const request = await requestOf(h, 1);
      expect(request.state).toBe('Scheduled');
      expect(request.schedule.reason).toMatch(/^change 1 \(addStrategy of "f"\): The number of strategies/);
      expect(request.schedule.failureReason).toBe(request.schedule.reason);
      expect((await envOf(h, 'f')).strategies).toHaveLength(2);
      // A failed schedule waits for a person; the timer passing again changes nothing.
      clock.advance(HOUR);
      await h.scheduler.idle();
      expect((await requestOf(h, 1)).schedule.status).toBe('failed');
      expectError(await move(h, 1, { state: 'Cancelled' }, who.member.token), 409, 'InvalidOperationError', /a Scheduled one is rejected/);
      expect((await moveOk(h, 1, { state: 'Rejected', comment: 'too late' }, who.owner.token)).state).toBe('Rejected');
    } finally {
      await h.close();
    }
  });

  test('rescheduled later, it waits for the new time; applied now, the old time passes unnoticed', async () => {
    const { h, clock, who } = await scheduled();
    try {
      await approvedAndScheduled(h, who, enable, clock.iso(HOUR));
      await moveOk(h, 1, { state: 'Scheduled', scheduledAt: clock.iso(3 * HOUR) }, who.owner.token);
      clock.advance(2 * HOUR);
      await h.scheduler.idle();
      expect((await requestOf(h, 1)).state).toBe('Scheduled');
      clock.advance(HOUR);
      await expect.poll(async () => (await requestOf(h, 1)).state).toBe('Applied');
      // Another, applied now while scheduled.
      await approvedAndScheduled(h, who, { feature: 'f', action: 'updateEnabled', payload: { enabled: false } }, clock.iso(HOUR));
      expect((await moveOk(h, 2, { state: 'Applied' }, who.owner.token)).state).toBe('Applied');
      clock.advance(HOUR);
      await h.scheduler.idle();
      expect((await applies(h)).map((e: { after: { scheduled: boolean } }) => e.after.scheduled)).toEqual([false, true]);
    } finally {
      await h.close();
    }
  });
});
