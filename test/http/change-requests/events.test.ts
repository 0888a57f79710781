/**
 * The events of Unleash Enterprise's change requests (reference §1.9) are recorded: every one of them comes out
 * of the committed-event feed, each naming its request and environment, and an addon receives them as Unleash's.
 */
import { describe, expect, test } from 'vitest';
import { isChangeRequestEvent, unleashEventTypes, type ChangeRequestEvent } from '../../../src/domain/change-request-events.js';
import { ManualClock } from '../../helpers/clock.js';
import { harness } from '../../helpers/harness.js';
import { receiver } from '../../helpers/receiver.js';
import { CR, P, draft, envOf, moveOk, people, protect, requestOf } from './cr-fixtures.js';

/** Unleash's change-request event types (src/lib/events/index.ts). */
const UNLEASH = [
  'change-request-created', 'change-request-discarded', 'change-added', 'change-discarded', 'change-edited', 'change-request-approved',
  'change-request-approval-added', 'change-request-rejected', 'change-request-cancelled', 'change-request-sent-to-review',
  'change-request-applied', 'change-request-scheduled', 'change-request-scheduled-application-success',
  'change-request-scheduled-application-failure', 'change-request-schedule-suspended', 'change-request-configuration-updated',
  'change-request-requested-approvers-updated',
];

describe('change-request events', () => {
  test('every one of Unleash\'s is recorded on the committed-event feed', async () => {
    const clock = new ManualClock(Date.parse('2026-05-05T05:00:00.000Z'));
    const h = await harness({ LIMIT_STRATEGIES_PER_ENVIRONMENT: '2' }, undefined, { clock });
    const seen: ChangeRequestEvent[] = [];
    const stop = h.registry.feed.subscribe(({ scope, records }) => {
      if (scope === 'service') return;
      for (const record of records) for (const event of record.events) if (isChangeRequestEvent(event as { type: string })) seen.push(event as ChangeRequestEvent);
    });
    try {
      const { member, owner } = await people(h);
      await h.json('POST', `${P}/features`, { name: 'f' });
      const s = (await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' })).body;
      await protect(h);
      // Drafted, edited, discarded, reviewed, approved, scheduled and applied by its schedule.
      await draft(h, [{ feature: 'f', action: 'updateEnabled', payload: { enabled: true } }, { feature: 'f', action: 'archiveFeature' }], member.token);
      expect((await h.json('PUT', `${CR}/1/changes/1`, { feature: 'f', action: 'updateEnabled', payload: { enabled: true, shouldActivateDisabledStrategies: true } }, { token: member.token })).status).toBe(200);
      expect((await h.json('DELETE', `${CR}/1/changes/2`, undefined, { token: member.token })).status).toBe(200);
      expect((await h.json('PUT', `${CR}/1/approvers`, { reviewers: [owner.id] }, { token: member.token })).status).toBe(204);
      await moveOk(h, 1, { state: 'In review' }, member.token);
      await moveOk(h, 1, { state: 'Approved' }, owner.token);
      await moveOk(h, 1, { state: 'Scheduled', scheduledAt: clock.iso(60_000) }, owner.token);
      clock.advance(60_000);
      await expect.poll(async () => (await requestOf(h, 1)).state).toBe('Applied');
      expect((await envOf(h, 'f')).enabled).toBe(true);
      // A schedule suspended by a conflict, then rejected; one failed; a draft cancelled, one discarded.
      await draft(h, { feature: 'f', action: 'updateStrategy', payload: { id: s.id, title: 'mine' } }, member.token);
      await moveOk(h, 2, { state: 'In review' }, member.token);
      await moveOk(h, 2, { state: 'Approved' }, owner.token);
      await moveOk(h, 2, { state: 'Scheduled', scheduledAt: clock.iso(60_000) }, owner.token);
      await h.json('PUT', `${P}/features/f/environments/production/strategies/${s.id}`, { name: 'default', title: 'theirs' });
      await draft(h, { feature: 'f', action: 'addStrategy', payload: { name: 'default' } }, owner.token);
      await moveOk(h, 3, { state: 'In review' }, owner.token);
      await moveOk(h, 3, { state: 'Approved' }, await people2(h));
      await moveOk(h, 3, { state: 'Scheduled', scheduledAt: clock.iso(60_000) }, owner.token);
      await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' });
      clock.advance(60_000);
      await expect.poll(async () => [(await requestOf(h, 2)).schedule.status, (await requestOf(h, 3)).schedule.status]).toEqual(['suspended', 'failed']);
      await moveOk(h, 2, { state: 'Rejected' }, owner.token);
      await draft(h, { feature: 'f', action: 'archiveFeature' }, member.token);
      await moveOk(h, 4, { state: 'Cancelled' }, member.token);
      await draft(h, { feature: 'f', action: 'archiveFeature' }, member.token);
      expect((await h.json('DELETE', `${CR}/5`, undefined, { token: member.token })).status).toBe(200);
      const types = new Set(seen.flatMap(unleashEventTypes));
      expect([...types].sort()).toEqual([...UNLEASH].sort());
      for (const event of seen) expect(event.environment).toBe('production');
      expect(seen.filter((e) => e.type !== 'change-request.configured').every((e) => typeof (e as { id: number }).id === 'number')).toBe(true);
    } finally {
      stop();
      await h.close();
    }
  });
});

describe('an addon', () => {
  test('receives a request\'s events as Unleash\'s, with the flag events of its apply', async () => {
    const hook = await receiver();
    const h = await harness({ UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1' }, undefined, { deliver: true });
    try {
      const events = ['change-request-created', 'change-added', 'change-request-sent-to-review', 'change-request-approved', 'change-request-applied', 'feature-environment-enabled'];
      expect((await h.json('POST', '/api/admin/addons', { provider: 'webhook', enabled: true, events, parameters: { url: `${hook.url}/hook` } })).status).toBe(201);
      const { member, owner } = await people(h);
      await h.json('POST', `${P}/features`, { name: 'f' });
      await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' });
      await protect(h);
      await draft(h, { feature: 'f', action: 'updateEnabled', payload: { enabled: true } }, member.token);
      await moveOk(h, 1, { state: 'In review' }, member.token);
      await moveOk(h, 1, { state: 'Approved' }, owner.token);
      await moveOk(h, 1, { state: 'Applied' }, owner.token);
      await expect.poll(() => hook.received.length).toBe(6);
      const got = hook.received.map((r) => r.json as { type: string; data: { changeRequestId?: number } | null; environment: string; project: string; featureName: string | null; createdBy: string });
      expect(got.map((e) => e.type)).toEqual(['change-request-created', 'change-added', 'change-request-sent-to-review', 'change-request-approved', 'feature-environment-enabled', 'change-request-applied']);
      expect(got.filter((e) => e.type !== 'feature-environment-enabled').every((e) => e.data?.changeRequestId === 1 && e.environment === 'production' && e.project === 'default')).toBe(true);
      expect(got[1]).toMatchObject({ featureName: 'f', createdBy: 'mia' });
      expect(got[4]).toMatchObject({ featureName: 'f', createdBy: 'olga' });
    } finally {
      await h.close();
      await hook.close();
    }
  });
});

/** Another Owner's token, to approve an Owner's own request. */
async function people2(h: Parameters<typeof people>[0]): Promise<string> {
  const user = await h.json('POST', '/api/admin/user-admin', { username: 'third-owner', rootRole: 3 });
  await h.json('POST', `/api/admin/projects/default/users/${user.body.id}/roles/4`);
  return (await h.json('POST', `/api/admin/user-admin/${user.body.id}/tokens`, { description: 't' })).body.secret;
}
