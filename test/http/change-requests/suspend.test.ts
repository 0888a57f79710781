/**
 * Suspended schedules, as Unleash suspends them: at once, when a write makes a scheduled request conflict (an
 * admin's direct write, another request's apply), not at its time; and when the user who scheduled it is deleted
 * (Unleash's reason), also when that suspension was not recorded before the request's time.
 */
import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../helpers/clock.js';
import { harness, type Harness } from '../../helpers/harness.js';
import { CR, P, draft, envOf, moveOk, people, protect, requestOf, type People } from './cr-fixtures.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-05-05T05:00:00.000Z');

/** A harness on a manual clock with flags `f` and `g` (a strategy each in production; `strategy`: f's), production protected. */
async function arranged(): Promise<{ h: Harness; clock: ManualClock; who: People; strategy: string }> {
  const clock = new ManualClock(START);
  const h = await harness({}, undefined, { clock });
  const ids: string[] = [];
  for (const name of ['f', 'g']) {
    await h.json('POST', `${P}/features`, { name });
    ids.push((await h.json('POST', `${P}/features/${name}/environments/production/strategies`, { name: 'flexibleRollout', parameters: { rollout: 10 } })).body.id);
  }
  await protect(h);
  return { h, clock, who: await people(h), strategy: ids[0]! };
}

/** Drafts `changes` as `author`, has an Owner approve it and `scheduler` schedule it an hour from now. */
async function scheduledBy(h: Harness, who: People, clock: ManualClock, changes: unknown, author: string, scheduler: string): Promise<any> {
  const request = await draft(h, changes, author);
  await moveOk(h, request.id, { state: 'In review' }, author);
  await moveOk(h, request.id, { state: 'Approved' }, author === who.owner.token ? who.owner2.token : who.owner.token);
  return moveOk(h, request.id, { state: 'Scheduled', scheduledAt: clock.iso(HOUR) }, scheduler);
}

const suspendedEvents = async (h: Harness) => (await h.json('GET', '/api/admin/events?project=default&limit=1000')).body.events
  .filter((e: { type: string }) => e.type === 'change-request.schedule-suspended');

describe('a scheduled change request is suspended', () => {
  test('at once when an admin\'s direct write makes it conflict; a write elsewhere leaves it pending', async () => {
    const { h, clock, who, strategy } = await arranged();
    try {
      await scheduledBy(h, who, clock, { feature: 'f', action: 'updateStrategy', payload: { id: strategy, parameters: { rollout: 50 } } }, who.member.token, who.owner.token);
      // Another flag's strategy: nothing it changes moved.
      const other = (await envOf(h, 'g')).strategies[0].id;
      expect((await h.json('PUT', `${P}/features/g/environments/production/strategies/${other}`, { name: 'flexibleRollout', parameters: { rollout: 20 } })).status).toBe(200);
      expect((await requestOf(h, 1)).schedule.status).toBe('pending');
      expect((await h.json('DELETE', `${P}/features/f/environments/production/strategies/${strategy}`)).status).toBe(200);
      // Before its time: the answer to the next read shows it.
      expect((await requestOf(h, 1)).schedule).toEqual({ scheduledAt: '2026-05-05T06:00:00.000Z', status: 'suspended', reason: 'change 1 (f): Strategy has been deleted' });
      expect(await suspendedEvents(h)).toHaveLength(1);
      expect((await h.json('GET', `${CR}/scheduled?strategyId=${strategy}`)).body).toEqual([{ id: 1, environment: 'production', title: 'Change Request #1' }]);
      clock.advance(HOUR);
      await h.scheduler.idle();
      expect((await requestOf(h, 1)).state).toBe('Scheduled');
      expect(await suspendedEvents(h)).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  test('at once when another request\'s apply makes it conflict, in the same record', async () => {
    const { h, clock, who, strategy } = await arranged();
    try {
      await scheduledBy(h, who, clock, { feature: 'f', action: 'updateStrategy', payload: { id: strategy, parameters: { rollout: 50 } } }, who.member.token, who.owner.token);
      const second = await draft(h, { feature: 'f', action: 'updateStrategy', payload: { id: strategy, parameters: { rollout: 70 } } }, who.owner.token);
      await moveOk(h, second.id, { state: 'In review' }, who.owner.token);
      await moveOk(h, second.id, { state: 'Approved' }, who.owner2.token);
      const before = h.registry.project('default')!.seq;
      await moveOk(h, second.id, { state: 'Applied' }, who.owner2.token);
      expect(h.registry.project('default')!.seq).toBe(before + 1);
      expect((await requestOf(h, 1)).schedule).toMatchObject({ status: 'suspended', reason: 'change 1 (f): Strategy has been updated since this change was added' });
      expect((await envOf(h, 'f')).strategies[0].parameters.rollout).toBe('70');
    } finally {
      await h.close();
    }
  });

  test('when the user who scheduled it is deleted, with Unleash\'s reason; the other schedules stay', async () => {
    const { h, clock, who } = await arranged();
    try {
      await scheduledBy(h, who, clock, { feature: 'f', action: 'updateEnabled', payload: { enabled: true } }, who.member.token, who.owner.token);
      await scheduledBy(h, who, clock, { feature: 'g', action: 'updateEnabled', payload: { enabled: true } }, who.owner.token, who.owner2.token);
      // Olga (an Owner, with Oskar still Owner) is deleted.
      expect((await h.json('DELETE', `/api/admin/user-admin/${who.owner.id}`)).status).toBe(200);
      expect((await requestOf(h, 1)).schedule).toMatchObject({ status: 'suspended', reason: `The user who scheduled this change request (user id: ${who.owner.id}) has been deleted from this flagpole instance.` });
      expect((await requestOf(h, 2)).schedule.status).toBe('pending');
      clock.advance(HOUR);
      await expect.poll(async () => (await requestOf(h, 2)).state).toBe('Applied');
      expect((await requestOf(h, 1)).state).toBe('Scheduled');
      expect((await envOf(h, 'f')).enabled).toBe(false);
    } finally {
      await h.close();
    }
  });

  test('by the scheduler at its time, when its author was deleted without the suspension being recorded', async () => {
    const { h, clock, who } = await arranged();
    try {
      await scheduledBy(h, who, clock, { feature: 'f', action: 'updateEnabled', payload: { enabled: true } }, who.member.token, who.admin.token);
      // The service's record alone, as a stop right after it would leave it.
      expect((await h.registry.service.send({ type: 'user.delete', userId: who.admin.id }, 'system')).ok).toBe(true);
      expect((await requestOf(h, 1)).schedule.status).toBe('pending');
      clock.advance(HOUR);
      await h.scheduler.idle();
      expect(await requestOf(h, 1)).toMatchObject({ state: 'Scheduled', schedule: { status: 'suspended', reason: `The user who scheduled this change request (user id: ${who.admin.id}) has been deleted from this flagpole instance.` } });
      expect((await envOf(h, 'f')).enabled).toBe(false);
    } finally {
      await h.close();
    }
  });
});
