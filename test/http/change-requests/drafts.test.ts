/**
 * Change-request settings and drafts, through HTTP: settings per environment with both spellings of Unleash's
 * enabled key; changes appended to the sender's one open request per environment, each with a snapshot of what
 * it changes; edits (a new change id), discards, title, comments, reviewers; the lists and the search; and the
 * 4xx of bad input, which changes nothing.
 */
import { describe, expect } from 'vitest';
import { test } from '../../helpers/fixtures.js';
import { expectError, positions } from '../../helpers/expect.js';
import { CR, P, draft, moveOk, people, protect, requestOf } from './cr-fixtures.js';

const on = (feature: string) => ({ feature, action: 'updateEnabled', payload: { enabled: true } });

describe('change-request settings', () => {
  test('per environment: both spellings of the enabled key, approvals clamped to 1..10, Owners only', async ({ h }) => {
    const { member } = await people(h);
    expect((await h.json('GET', `${CR}/config`)).body).toEqual([
      { environment: 'development', type: 'development', changeRequestEnabled: false, requiredApprovals: null },
      { environment: 'production', type: 'production', changeRequestEnabled: false, requiredApprovals: null },
    ]);
    expect((await h.json('PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 42 })).status).toBe(200);
    expect((await h.json('PUT', `${P}/environments/development/change-requests/config`, { changeRequestEnabled: true })).status).toBe(200);
    expect((await h.json('GET', `${CR}/config`)).body.map((r: { requiredApprovals: number }) => r.requiredApprovals)).toEqual([1, 10]);
    const before = positions(h);
    expectError(await h.json('PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: false }, { token: member.token }), 403, 'NoAccessError', /UPDATE_PROJECT/);
    expectError(await h.json('PUT', `${P}/environments/nowhere/change-requests/config`, { changeRequestsEnabled: true }), 404, 'NotFoundError', /nowhere/);
    expectError(await h.json('PUT', `${P}/environments/production/change-requests/config`, { requiredApprovals: 2 }), 400, 'ValidationError', /changeRequestsEnabled/);
    expectError(await h.json('PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, changeRequestEnabled: false }), 400, 'ValidationError', /disagree/);
    expect(positions(h)).toBe(before);
    expect((await h.json('PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: false })).status).toBe(200);
    expect((await h.json('GET', `${CR}/config`)).body[1]).toEqual({ environment: 'production', type: 'production', changeRequestEnabled: false, requiredApprovals: null });
  });
});

describe('drafts', () => {
  test('changes go to the sender\'s one open request per environment, each with a snapshot of what it changes', async ({ h }) => {
    const { member, owner } = await people(h);
    await h.json('POST', `${P}/features`, { name: 'f' });
    const strategy = (await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'flexibleRollout', parameters: { rollout: 10 } })).body;
    await h.json('POST', `${P}/features/f/environments/development/strategies`, { name: 'default' });
    await protect(h);
    const first = await draft(h, on('f'), member.token);
    expect(first).toMatchObject({ id: 1, title: 'Change Request #1', project: 'default', environment: 'production', state: 'Draft', minApprovals: 1, createdBy: { id: member.id, username: 'mia' } });
    const second = await draft(h, [{ feature: 'f', action: 'updateStrategy', payload: { id: strategy.id, parameters: { rollout: 50 } } }], member.token);
    expect(second.id).toBe(1);
    const changes = second.features[0].changes;
    expect(changes.map((c: { id: number; action: string }) => [c.id, c.action])).toEqual([[1, 'updateEnabled'], [2, 'updateStrategy']]);
    expect(changes[0].payload).toEqual({ enabled: true, snapshot: { enabled: false } });
    // The strategy's own name is filled in; the snapshot is the strategy when the change was added.
    expect(changes[1].payload).toMatchObject({ id: strategy.id, name: 'flexibleRollout', parameters: { rollout: '50' }, snapshot: strategy });
    // Someone else, or another environment: another request.
    expect((await draft(h, on('f'), owner.token)).id).toBe(2);
    await protect(h, 'development');
    expect((await draft(h, on('f'), member.token, 'development')).id).toBe(3);
    // The list, the caller's pending ones, the ones touching a flag, the counts.
    expect((await h.json('GET', CR)).body.map((r: { id: number }) => r.id)).toEqual([3, 2, 1]);
    expect((await h.json('GET', `${CR}/pending`, undefined, { token: member.token })).body.map((r: { id: number }) => r.id)).toEqual([3, 1]);
    expect((await h.json('GET', `${CR}/open`, undefined, { token: owner.token })).body.map((r: { id: number }) => r.id)).toEqual([2]);
    expect((await h.json('GET', `${CR}/pending/f`)).body.map((r: { id: number }) => r.id)).toEqual([3, 2, 1]);
    expect((await h.json('GET', `${CR}/pending/other`)).body).toEqual([]);
    expect((await h.json('GET', `${CR}/count`)).body).toEqual({ total: 3, approved: 0, applied: 0, rejected: 0, reviewRequired: 0, scheduled: 0 });
  });

  test('edit a change (a new id), discard a change, discard a draft, title, comments, reviewers', async ({ h }) => {
    const { member, owner, owner2, reader } = await people(h);
    await h.json('POST', `${P}/features`, { name: 'f' });
    await protect(h);
    await draft(h, [{ feature: 'f', action: 'addStrategy', payload: { name: 'default' } }, on('f')], member.token);
    const edited = await h.json('PUT', `${CR}/1/changes/1`, { feature: 'f', action: 'updateEnabled', payload: { enabled: false } }, { token: member.token });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // The edited change keeps its place, under a new id.
    expect(edited.body.features[0].changes.map((c: { id: number; action: string }) => [c.id, c.action])).toEqual([[3, 'updateEnabled'], [2, 'updateEnabled']]);
    expect((await h.json('DELETE', `${CR}/1/changes/2`, undefined, { token: member.token })).status).toBe(200);
    expect((await requestOf(h, 1)).features[0].changes.map((c: { id: number }) => c.id)).toEqual([3]);
    expect((await h.json('PUT', `${CR}/1/title`, { title: 'Switch f off' }, { token: member.token })).status).toBe(204);
    expect((await h.json('POST', `${CR}/1/comments`, { text: '  looks good  ' }, { token: reader.token })).status).toBe(204);
    expect((await h.json('PUT', `${CR}/1/approvers`, { reviewers: [owner.id, owner2.id] }, { token: member.token })).status).toBe(204);
    const request = await requestOf(h, 1);
    expect(request).toMatchObject({ title: 'Switch f off', comments: [{ id: 1, text: 'looks good', createdBy: { id: reader.id, username: 'rita' } }] });
    expect((await h.json('GET', `${CR}/1/approvers`)).body.reviewers.map((r: { id: number }) => r.id)).toEqual([owner.id, owner2.id]);
    expect((await h.json('GET', `${CR}/available-reviewers/production`)).body.reviewers.map((r: { username: string }) => r.username)).toEqual(['admin', 'olga', 'oskar', 'ada']);
    // Reviewers who may not approve, someone else's title or discard, a change that is not there: refused, nothing written.
    const before = positions(h);
    expectError(await h.json('PUT', `${CR}/1/approvers`, { reviewers: [member.id] }, { token: member.token }), 400, 'ValidationError', new RegExp(`${member.id} is not a user who may approve`));
    expectError(await h.json('PUT', `${CR}/1/title`, { title: 'mine' }, { token: owner.token }), 403, 'NoAccessError', /Only the author/);
    expectError(await h.json('DELETE', `${CR}/1`, undefined, { token: owner.token }), 403, 'NoAccessError', /Only the author/);
    expectError(await h.json('DELETE', `${CR}/1/changes/99`, undefined, { token: member.token }), 404, 'NotFoundError', /no change 99/);
    expectError(await h.json('GET', `${CR}/99`), 404, 'NotFoundError', /change request 99/);
    expect(positions(h)).toBe(before);
    expect((await h.json('DELETE', `${CR}/1`, undefined, { token: member.token })).status).toBe(200);
    expectError(await h.json('GET', `${CR}/1`), 404, 'NotFoundError');
  });

  test('bad input: a change type flagpole does not offer, unknown flags, strategies and segments, environments without change requests', async ({ h }) => {
    const { member, owner } = await people(h);
    await h.json('POST', `${P}/features`, { name: 'f' });
    const global = (await h.json('POST', '/api/admin/segments', { name: 'g', constraints: [] })).body;
    await protect(h);
    const before = positions(h);
    const post = (body: unknown, environment = 'production', token = member.token) => h.json('POST', `${P}/environments/${environment}/change-requests`, body, { token });
    expectError(await post({ feature: 'f', action: 'addReleasePlan', payload: { templateId: 'x' } }), 400, 'ValidationError', /offers the change types updateEnabled, addStrategy, .*deleteSegment; got "addReleasePlan"/);
    expectError(await post([on('f'), { feature: 'f', action: 'changeFeatureEnvSafeguard', payload: {} }]), 400, 'ValidationError', /"1\.action": flagpole offers/);
    expectError(await post({ feature: 'f', action: 'updateEnabled', payload: { enabled: 'yes' } }), 400, 'ValidationError', /payload\.enabled/);
    expectError(await post(on('nope')), 404, 'NotFoundError', /change #1 of the body \(updateEnabled of "nope"\): .*"nope"/);
    expectError(await post({ feature: 'f', action: 'deleteStrategy', payload: { id: 'no-such' } }), 404, 'NotFoundError', /No strategy "no-such"/);
    expectError(await post({ feature: 'f', action: 'addStrategy', payload: { name: 'default', segments: [999] } }), 400, 'ValidationError', /segment 999 does not exist/);
    expectError(await post({ feature: 'f', action: 'addStrategy', payload: { name: 'nonesuch' } }), 400, 'ValidationError', /nonesuch/);
    // A project's segments are its Owners' (UPDATE_PROJECT), in a change request too.
    expectError(await post({ action: 'deleteSegment', payload: { id: global.id } }), 403, 'NoAccessError', /UPDATE_PROJECT/);
    expectError(await post({ action: 'deleteSegment', payload: { id: 999 } }, 'production', owner.token), 404, 'NotFoundError', /segment with id 999/);
    expectError(await post({ action: 'deleteSegment', payload: { id: global.id } }, 'production', owner.token), 400, 'ValidationError', /global segment/);
    expectError(await post(on('f'), 'development'), 409, 'InvalidOperationError', /not enabled for environment "development"/);
    expectError(await post(on('f'), 'nowhere'), 404, 'NotFoundError');
    expect(positions(h)).toBe(before);
    expect((await h.json('GET', CR)).body).toEqual([]);
  });

  test('the search lists every project\'s requests, by author, requested reviewer, open or closed', async ({ h }) => {
    const { member, owner } = await people(h);
    await h.json('POST', `${P}/features`, { name: 'f' });
    await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' });
    await protect(h);
    await draft(h, on('f'), member.token);
    await draft(h, on('f'), owner.token);
    await h.json('PUT', `${CR}/2/approvers`, { reviewers: [owner.id] }, { token: owner.token });
    await moveOk(h, 1, { state: 'Cancelled' }, member.token);
    const search = async (query: string) => (await h.json('GET', `/api/admin/search/change-requests${query}`)).body;
    expect(await search('')).toMatchObject({ total: 2, changeRequests: [{ id: 2, project: 'default', environment: 'production', state: 'Draft', features: ['f'], segments: [] }, { id: 1, state: 'Cancelled' }] });
    expect((await search(`?createdBy=IS:${member.id}`)).changeRequests.map((r: { id: number }) => r.id)).toEqual([1]);
    expect((await search(`?requestedApproverId=IS:${owner.id}`)).changeRequests.map((r: { id: number }) => r.id)).toEqual([2]);
    expect((await search('?state=IS:closed')).changeRequests.map((r: { id: number }) => r.id)).toEqual([1]);
    expect(await search('?state=IS:open&limit=1&offset=0')).toMatchObject({ total: 1, changeRequests: [{ id: 2 }] });
    expectError(await h.json('GET', '/api/admin/search/change-requests?state=IS:maybe'), 400, 'ValidationError', /IS:open or IS:closed/);
  });
});
