/**
 * Applying a change request is one command: all of its changes decided and committed together, or none. A
 * change whose target moved since it was added is a conflict, shown per flag and per change with the three
 * values, and answered by the apply. The history shows an applied request as one entry naming it with the
 * before and after of every change; the project as it was (time travel) has all of it or none. Segment changes
 * go to the service with the request.
 */
import { describe, expect } from 'vitest';
import { harnessTest, test } from '../../helpers/fixtures.js';
import { expectError, positions } from '../../helpers/expect.js';
import type { Harness } from '../../helpers/harness.js';
import { ManualClock } from '../../helpers/clock.js';
import { ADMIN_TOKEN, harness } from '../../helpers/harness.js';
import { checkToken, startSession } from '../../../src/use-cases/sessions.use-cases.js';
import { changeRequestById } from '../../../src/queries/change-requests.query.js';
import { projectHistory } from '../../../src/queries/history/history.query.js';
import { projectAt } from '../../../src/queries/history/past-project.query.js';
import { CR, P, draft, envOf, move, moveOk, people, protect, requestOf } from './cr-fixtures.js';

/** Approves request `id` (drafted by someone else) as `approver` and applies it; answers the apply's status and body. */
async function approveAndApply(h: Harness, id: number, author: string, approver: string) {
  await moveOk(h, id, { state: 'In review' }, author);
  await moveOk(h, id, { state: 'Approved' }, approver);
  return move(h, id, { state: 'Applied' }, approver);
}

const twoStrategies = harnessTest({ env: { LIMIT_STRATEGIES_PER_ENVIRONMENT: '2' } });

describe('applying a change request', () => {
  twoStrategies('is one command: when its third change is refused, the first two are not applied either', async ({ h }) => {
    const { member, owner } = await people(h);
    for (const name of ['f', 'g']) await h.json('POST', `${P}/features`, { name });
    await h.json('POST', `${P}/features/g/environments/production/strategies`, { name: 'default' });
    await protect(h);
    await draft(h, [
      { feature: 'f', action: 'addStrategy', payload: { name: 'default' } },
      { feature: 'f', action: 'updateEnabled', payload: { enabled: true } },
      { feature: 'g', action: 'addStrategy', payload: { name: 'default', title: 'third' } },
    ], member.token);
    await moveOk(h, 1, { state: 'In review' }, member.token);
    await moveOk(h, 1, { state: 'Approved' }, owner.token);
    // Meanwhile g reaches its limit of two strategies: the third change cannot go through.
    expect((await h.json('POST', `${P}/features/g/environments/production/strategies`, { name: 'default' })).status).toBe(200);
    const before = positions(h);
    const applied = await move(h, 1, { state: 'Applied' }, owner.token);
    expectError(applied, 400, 'ExceedsLimitError', /Change request 1 was not applied, none of its changes: change 3 \(addStrategy of "g"\): The number of strategies/);
    expect(positions(h)).toBe(before);
    expect(await envOf(h, 'f')).toMatchObject({ enabled: false, strategies: [] });
    expect((await envOf(h, 'g')).strategies).toHaveLength(2);
    expect((await requestOf(h, 1)).state).toBe('Approved');
    // With room again, the whole request goes through in one record.
    const strategies = (await envOf(h, 'g')).strategies;
    expect((await h.json('DELETE', `${P}/features/g/environments/production/strategies/${strategies[1].id}`)).status).toBe(200);
    const seq = h.registry.project('default')!.seq;
    expect((await move(h, 1, { state: 'Applied' }, owner.token)).status).toBe(200);
    expect(h.registry.project('default')!.seq).toBe(seq + 1);
    expect(await envOf(h, 'f')).toMatchObject({ enabled: true, strategies: [{ name: 'default' }] });
    expect((await envOf(h, 'g')).strategies.map((s: { title: string | null }) => s.title)).toEqual([null, 'third']);
  });

  test('conflicts are shown per flag and per change with the three values, and the apply answers them', async ({ h }) => {
    const { member, owner } = await people(h);
    for (const name of ['f', 'gone']) await h.json('POST', `${P}/features`, { name });
    const s = (await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'flexibleRollout', parameters: { rollout: 10 } })).body;
    await protect(h);
    await draft(h, [
      { feature: 'f', action: 'updateStrategy', payload: { id: s.id, name: 'flexibleRollout', parameters: { rollout: 50 } } },
      { feature: 'f', action: 'patchVariant', payload: { variants: [{ name: 'blue', weightType: 'variable', weight: 1000 }] } },
      { feature: 'gone', action: 'archiveFeature' },
    ], member.token);
    expect((await requestOf(h, 1)).features.every((f: { conflict?: string; changes: { conflict?: string }[] }) => !f.conflict && f.changes.every((c) => !c.conflict))).toBe(true);
    // Someone who may skip the request moves the targets meanwhile.
    const moved = await h.json('PUT', `${P}/features/f/environments/production/strategies/${s.id}`, { name: 'flexibleRollout', parameters: { rollout: 30 } });
    expect(moved.status).toBe(200);
    await h.json('DELETE', `${P}/features/gone`);
    const request = await requestOf(h, 1);
    const update = request.features[0].changes[0];
    expect(update.conflict).toBe('Strategy has been updated since this change was added');
    expect(update.conflictValues.whenAdded.parameters.rollout).toBe('10');
    expect(update.conflictValues.now.parameters.rollout).toBe('30');
    expect(update.conflictValues.proposed.parameters.rollout).toBe('50');
    expect(request.features[0].changes[1].conflict).toBeUndefined();
    expect(request.features[1]).toMatchObject({ name: 'gone', conflict: 'Feature has been archived' });
    // Archiving an archived flag is nothing the request can be refused for: the apply goes through and says what it overwrote.
    const applied = await approveAndApply(h, 1, member.token, owner.token);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.overwrittenConflicts).toEqual(['gone: Feature has been archived', 'change 1 (f): Strategy has been updated since this change was added']);
    expect((await envOf(h, 'f')).strategies[0].parameters.rollout).toBe('50');
  });

  test('a change whose strategy is gone refuses the apply with a 409 naming it; nothing is applied', async ({ h }) => {
    const { member, owner } = await people(h);
    await h.json('POST', `${P}/features`, { name: 'f' });
    const s = (await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' })).body;
    await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default', title: 'keep' });
    await protect(h);
    await draft(h, [{ feature: 'f', action: 'updateEnabled', payload: { enabled: true } }, { feature: 'f', action: 'deleteStrategy', payload: { id: s.id } }], member.token);
    await h.json('DELETE', `${P}/features/f/environments/production/strategies/${s.id}`);
    expect((await requestOf(h, 1)).features[0].changes[1].conflict).toBe('Strategy has been deleted');
    await moveOk(h, 1, { state: 'In review' }, member.token);
    await moveOk(h, 1, { state: 'Approved' }, owner.token);
    const before = positions(h);
    expectError(await move(h, 1, { state: 'Applied' }, owner.token), 409, 'InvalidOperationError', /change 2 \(deleteStrategy of "f"\): No strategy/);
    expect(positions(h)).toBe(before);
    expect((await envOf(h, 'f')).enabled).toBe(false);
  });

  test('the history shows an applied request as one entry naming it, with the before and after of every change; time travel sees all or none', async () => {
    const clock = new ManualClock(Date.parse('2026-05-05T05:00:00.000Z'));
    const h = await harness({}, undefined, { clock });
    try {
      const { member, owner } = await people(h);
      await h.json('POST', `${P}/features`, { name: 'f' });
      await protect(h);
      await draft(h, [{ feature: 'f', action: 'addStrategy', payload: { name: 'default' } }, { feature: 'f', action: 'updateEnabled', payload: { enabled: true } }], member.token);
      await moveOk(h, 1, { state: 'In review', comment: 'go' }, member.token);
      await moveOk(h, 1, { state: 'Approved' }, owner.token);
      clock.advance(60_000);
      expect((await move(h, 1, { state: 'Applied' }, owner.token)).status).toBe(200);
      const events = (await h.json('GET', '/api/admin/events?project=default&limit=3')).body.events;
      expect(events[0]).toMatchObject({
        type: 'change-request.applied', feature: 'f', environment: 'production', by: `user:${owner.id}`, at: '2026-05-05T05:01:00.000Z',
        after: { state: 'Applied', scheduled: false, conflicts: [] },
        changeRequest: {
          id: 1, title: 'Change Request #1',
          changes: [
            { type: 'strategy.added', feature: 'f', environment: 'production', before: null, after: { name: 'default' }, environmentEnabled: false },
            { type: 'flag.enabled', feature: 'f', environment: 'production', before: { enabled: false }, after: { enabled: true }, environmentEnabled: true },
          ],
        },
      });
      expect(events[1]).toMatchObject({ type: 'change-request.approved', changeRequest: { id: 1 } });
      // Filtered by the flag, or by a kind of change one of its changes is: the entry is there, once.
      expect((await h.json('GET', '/api/admin/events?project=default&feature=f')).body.events.filter((e: { type: string }) => e.type === 'change-request.applied')).toHaveLength(1);
      const switches = await projectHistory(h.registry, 'default', { kinds: ['switch'] });
      expect(switches.ok && switches.value.entries.map((e) => [e.type, e.changes.map((c) => c.text)])).toEqual([
        ['change-request.applied', ['f › production › strategy: added default', 'f › production: off → on']],
      ]);
      const before = await projectAt(h.registry, 'default', '2026-05-05T05:00:30.000Z');
      const after = await projectAt(h.registry, 'default', '2026-05-05T05:01:00.000Z');
      const prod = (r: typeof before) => (r.ok ? r.value.flags[0]!.environments['production'] : undefined);
      expect(prod(before)).toMatchObject({ enabled: false, strategies: [] });
      expect(prod(after)).toMatchObject({ enabled: true, strategies: [{ name: 'default' }] });
      // The console's history page shows the entry (signed in with the admin token).
      const signedIn = await checkToken(h.registry, h.tokenHasher, ADMIN_TOKEN);
      const session = await startSession(h.registry, h.tokenHasher, signedIn.ok ? signedIn.value : (undefined as never));
      const page = await h.req('GET', '/projects/default/history', undefined, { token: null, headers: { cookie: `flagpole-session=${session}`, accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Change request applied');
    } finally {
      await h.close();
    }
  });

  test('segment changes go to the service with the request: all of them with its flag changes, or none', async ({ h }) => {
    const { owner, owner2 } = await people(h);
    await h.json('POST', `${P}/features`, { name: 'f' });
    const beta = (await h.json('POST', '/api/admin/segments', { name: 'beta', project: 'default', constraints: [] })).body;
    const old = (await h.json('POST', '/api/admin/segments', { name: 'old', project: 'default', constraints: [] })).body;
    const used = (await h.json('POST', '/api/admin/segments', { name: 'used', project: 'default', constraints: [] })).body;
    await h.json('POST', `${P}/features/f/environments/development/strategies`, { name: 'default', segments: [used.id] });
    await protect(h);
    const rule = [{ contextName: 'userId', operator: 'IN', values: ['7'] }];
    const request = await draft(h, [
      { feature: null, action: 'updateSegment', payload: { id: beta.id, name: 'beta', project: 'default', constraints: rule } },
      { action: 'deleteSegment', payload: { id: old.id } },
      { feature: 'f', action: 'addStrategy', payload: { name: 'default', segments: [beta.id] } },
    ], owner.token);
    expect(request.segments.map((s: { action: string; name: string }) => [s.action, s.name])).toEqual([['updateSegment', 'beta'], ['deleteSegment', 'old']]);
    expect(request.segments[0].payload.snapshot).toMatchObject({ id: beta.id, constraints: [] });
    const applied = await approveAndApply(h, 1, owner.token, owner2.token);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect((await h.json('GET', `/api/admin/segments/${beta.id}`)).body.constraints).toMatchObject(rule);
    expectError(await h.json('GET', `/api/admin/segments/${old.id}`), 404, 'NotFoundError');
    expect((await envOf(h, 'f')).strategies[0].segments).toEqual([beta.id]);
    expect(h.registry.project('default')!.state.changeRequests.requests.get(1)!.segmentsPending).toBeUndefined();
    // A segment the service refuses to delete (a strategy uses it) refuses the whole request.
    await draft(h, [{ action: 'deleteSegment', payload: { id: used.id } }, { feature: 'f', action: 'updateEnabled', payload: { enabled: true } }], owner.token);
    const before = positions(h);
    expectError(await approveAndApply(h, 2, owner.token, owner2.token), 409, 'InvalidOperationError', new RegExp(`not applied, none of its changes: segment ${used.id}: .*used by 1 strategy`));
    expect(JSON.parse(positions(h))[0]).toBe(JSON.parse(before)[0]);
    expect((await envOf(h, 'f')).enabled).toBe(false);
    expect((await h.json('GET', `/api/admin/segments/${used.id}`)).status).toBe(200);
  });

  test('a stop between the project\'s record and the service\'s segment changes is finished at the next start', async ({ h }) => {
    const { owner, owner2 } = await people(h);
    const beta = (await h.json('POST', '/api/admin/segments', { name: 'beta', project: 'default', constraints: [] })).body;
    await protect(h);
    await draft(h, { action: 'updateSegment', payload: { id: beta.id, name: 'beta-2', project: 'default', constraints: [] } }, owner.token);
    await moveOk(h, 1, { state: 'In review' }, owner.token);
    await moveOk(h, 1, { state: 'Approved' }, owner2.token);
    // The project's record alone, as a crash right after it would leave it.
    const decided = await h.registry.project('default')!.send({ type: 'change-request.apply', id: 1, segments: { checked: [1] } }, 'system');
    expect(decided.ok).toBe(true);
    expect((await h.json('GET', `/api/admin/segments/${beta.id}`)).body.name).toBe('beta');
    await h.restart();
    expect((await h.json('GET', `/api/admin/segments/${beta.id}`)).body.name).toBe('beta-2');
    expect(h.registry.project('default')!.state.changeRequests.requests.get(1)!.segmentsPending).toBeUndefined();
    expect(h.logs().some((line) => String(line['msg']).includes('which a stop had interrupted'))).toBe(true);
  });

  test('the request a project answers carries the conflicts only while it is open', async ({ h }) => {
    const { member, owner } = await people(h);
    await h.json('POST', `${P}/features`, { name: 'f' });
    await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' });
    await protect(h);
    await draft(h, { feature: 'f', action: 'updateEnabled', payload: { enabled: true } }, member.token);
    expect(changeRequestById(h.registry, 'default', 1)).toMatchObject({ ok: true, value: { conflicts: { changes: [] } } });
    await approveAndApply(h, 1, member.token, owner.token);
    expect(changeRequestById(h.registry, 'default', 1)).toMatchObject({ ok: true, value: { conflicts: null } });
    expect((await h.json('GET', CR)).body[0].state).toBe('Applied');
  });
});
