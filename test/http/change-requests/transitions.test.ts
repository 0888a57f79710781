/**
 * The states of a change request and who may move it, as Unleash Enterprise: Draft → In review (its author) →
 * Approved (approvers; not the author unless an admin; one approval per person; as many as the environment
 * needs) → Applied or Scheduled; Rejected, Cancelled; an edit sends an approved request back to review with its
 * approvals reset; closed requests never change. Every refusal is a clear 4xx that writes nothing.
 */
import { describe, expect } from 'vitest';
import { test } from '../../helpers/fixtures.js';
import { expectError, positions } from '../../helpers/expect.js';
import type { Harness } from '../../helpers/harness.js';
import { CR, P, draft, move, moveOk, people, protect, requestOf } from './cr-fixtures.js';

const on = { feature: 'f', action: 'updateEnabled', payload: { enabled: true } };

/** Flag `f` with a strategy in production, protected with `approvals`; the people. */
async function arrange(h: Harness, approvals = 1) {
  await h.json('POST', `${P}/features`, { name: 'f' });
  await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' });
  await protect(h, 'production', approvals);
  return people(h);
}

/** Runs `act` and asserts it answers `status`/`name` and writes nothing. */
async function refused(h: Harness, act: Promise<{ status: number; body: any }> | (() => Promise<{ status: number; body: any }>), status: number, name: string, message?: RegExp) {
  const before = positions(h);
  expectError(await (typeof act === 'function' ? act() : act), status, name, message);
  expect(positions(h)).toBe(before);
}

describe('change-request states', () => {
  test('Draft → In review → Approved → Applied, each step stamped, by the people allowed to take it', async ({ h }) => {
    const { member, owner } = await arrange(h);
    await draft(h, on, member.token);
    await refused(h, () => move(h, 1, { state: 'Approved' }, owner.token), 409, 'InvalidOperationError', /is Draft: only a request In review is approved/);
    await refused(h, () => move(h, 1, { state: 'In review' }, owner.token), 403, 'NoAccessError', /Only the author/);
    const review = await moveOk(h, 1, { state: 'In review', comment: 'please' }, member.token);
    expect(review).toMatchObject({ state: 'In review', comments: [{ text: 'please' }] });
    await refused(h, () => move(h, 1, { state: 'Applied' }, owner.token), 409, 'InvalidOperationError', /is In review: only an Approved or Scheduled request is applied/);
    const approved = await moveOk(h, 1, { state: 'Approved' }, owner.token);
    expect(approved).toMatchObject({ state: 'Approved', approvals: [{ createdBy: { id: owner.id, username: 'olga' } }] });
    expect(Object.keys(approved.stateTimestamps)).toEqual(['Draft', 'In review', 'Approved']);
    const applied = await moveOk(h, 1, { state: 'Applied' }, owner.token);
    expect(applied).toMatchObject({ state: 'Applied', overwrittenConflicts: [] });
    expect((await h.json('GET', `${P}/features/f`)).body.environments[1].enabled).toBe(true);
  });

  test('the author does not approve their own request; an admin may; one approval per person; two needed, two people', async ({ h }) => {
    const { member, owner, owner2, admin } = await arrange(h, 2);
    await draft(h, on, owner.token);
    await moveOk(h, 1, { state: 'In review' }, owner.token);
    await refused(h, () => move(h, 1, { state: 'Approved' }, owner.token), 403, 'NoAccessError', /can not approve your own change request/);
    await refused(h, () => move(h, 1, { state: 'Approved' }, member.token), 403, 'NoAccessError', /APPROVE_CHANGE_REQUEST/);
    expect((await moveOk(h, 1, { state: 'Approved' }, owner2.token)).state).toBe('In review');
    await refused(h, () => move(h, 1, { state: 'Approved' }, owner2.token), 409, 'InvalidOperationError', /approved change request 1 already/);
    expect((await moveOk(h, 1, { state: 'Approved' }, admin.token)).state).toBe('Approved');
    // An admin approves their own.
    await draft(h, on, admin.token);
    await moveOk(h, 2, { state: 'In review' }, admin.token);
    await moveOk(h, 2, { state: 'Approved' }, admin.token);
    expect((await moveOk(h, 2, { state: 'Approved' }, owner.token)).state).toBe('Approved');
  });

  test('an edit sends an approved request back to review, its approvals reset; changes appended go there too', async ({ h }) => {
    const { member, owner } = await arrange(h);
    await draft(h, on, member.token);
    await moveOk(h, 1, { state: 'In review' }, member.token);
    await moveOk(h, 1, { state: 'Approved' }, owner.token);
    const appended = await draft(h, { feature: 'f', action: 'addStrategy', payload: { name: 'default' } }, member.token);
    expect(appended).toMatchObject({ id: 1, state: 'In review', approvals: [] });
    await moveOk(h, 1, { state: 'Approved' }, owner.token);
    const edited = await h.json('PUT', `${CR}/1/changes/2`, { feature: 'f', action: 'addStrategy', payload: { name: 'default', title: 't' } }, { token: member.token });
    expect(edited.body).toMatchObject({ state: 'In review', approvals: [] });
    await moveOk(h, 1, { state: 'Approved' }, owner.token);
    expect((await h.json('DELETE', `${CR}/1/changes/3`, undefined, { token: member.token })).status).toBe(200);
    expect(await requestOf(h, 1)).toMatchObject({ state: 'In review', approvals: [] });
  });

  test('reject, cancel, and closed requests never change', async ({ h }) => {
    const { member, owner } = await arrange(h);
    await draft(h, on, member.token);
    await moveOk(h, 1, { state: 'In review' }, member.token);
    await refused(h, () => move(h, 1, { state: 'Rejected' }, member.token), 403, 'NoAccessError', /APPROVE_CHANGE_REQUEST/);
    expect(await moveOk(h, 1, { state: 'Rejected', comment: 'not now' }, owner.token)).toMatchObject({ state: 'Rejected', rejections: [{ createdBy: { id: owner.id } }], comments: [{ text: 'not now' }] });
    // A new draft: the rejected one takes no changes.
    expect((await draft(h, on, member.token)).id).toBe(2);
    await refused(h, () => move(h, 2, { state: 'Cancelled' }, owner.token), 403, 'NoAccessError', /Only the author/);
    expect((await moveOk(h, 2, { state: 'Cancelled' }, member.token)).state).toBe('Cancelled');
    for (const id of [1, 2]) {
      for (const state of ['In review', 'Approved', 'Rejected', 'Cancelled', 'Applied']) {
        await refused(h, () => move(h, id, { state }, owner.token), 409, 'InvalidOperationError', /a closed change request does not change/);
      }
      await refused(h, () => move(h, id, { state: 'Scheduled', scheduledAt: '2999-01-01T00:00:00Z' }, owner.token), 409, 'InvalidOperationError', /closed/);
      await refused(h, () => h.json('PUT', `${CR}/${id}/title`, { title: 'x' }, { token: member.token }), 409, 'InvalidOperationError', /closed/);
      await refused(h, () => h.json('POST', `${CR}/${id}/comments`, { text: 'x' }, { token: member.token }), 409, 'InvalidOperationError', /closed/);
      await refused(h, () => h.json('PUT', `${CR}/${id}/changes/1`, on, { token: member.token }), 409, 'InvalidOperationError', /closed/);
      await refused(h, () => h.json('DELETE', `${CR}/${id}`, undefined, { token: member.token }), 409, 'InvalidOperationError', /closed/);
      await refused(h, () => h.json('PUT', `${CR}/${id}/approvers`, { reviewers: [owner.id] }, { token: member.token }), 409, 'InvalidOperationError', /closed/);
    }
  });

  test('sending an empty draft to review, scheduling in the past or unapproved, a state that is no target: 4xx, nothing written', async ({ h }) => {
    const { member, owner } = await arrange(h);
    await draft(h, on, member.token);
    expect((await h.json('DELETE', `${CR}/1/changes/1`, undefined, { token: member.token })).status).toBe(200);
    await refused(h, () => move(h, 1, { state: 'In review' }, member.token), 409, 'InvalidOperationError', /has no changes/);
    await draft(h, on, member.token);
    await refused(h, () => move(h, 1, { state: 'Scheduled', scheduledAt: '2999-01-01T00:00:00Z' }, owner.token), 409, 'InvalidOperationError', /only an Approved or Scheduled request is scheduled/);
    await moveOk(h, 1, { state: 'In review' }, member.token);
    await moveOk(h, 1, { state: 'Approved' }, owner.token);
    await refused(h, () => move(h, 1, { state: 'Scheduled', scheduledAt: '2001-01-01T00:00:00Z' }, owner.token), 400, 'ValidationError', /not in the future/);
    await refused(h, () => move(h, 1, { state: 'Scheduled' }, owner.token), 400, 'ValidationError', /scheduledAt/);
    await refused(h, () => move(h, 1, { state: 'Scheduled', scheduledAt: 'tomorrow' }, owner.token), 400, 'ValidationError', /ISO 8601/);
    await refused(h, () => move(h, 1, { state: 'Draft' }, owner.token), 400, 'ValidationError', /must be one of/);
    await refused(h, () => move(h, 1, { state: 'Applied' }, member.token), 403, 'NoAccessError', /APPLY_CHANGE_REQUEST/);
    await refused(h, () => move(h, 1, { state: 'Scheduled', scheduledAt: '2999-01-01T00:00:00Z' }, member.token), 403, 'NoAccessError', /APPLY_CHANGE_REQUEST/);
    await refused(h, () => move(h, 1, { state: 'Cancelled' }, owner.token), 403, 'NoAccessError', /Only the author/);
    await refused(h, () => move(h, 99, { state: 'Cancelled' }, owner.token), 404, 'NotFoundError', /change request 99/);
  });

  test('permissions by role: Members and Editors draft, Owners approve and apply, Readers read and comment, Viewers only read', async ({ h }) => {
    const { member, owner, reader, editor, admin } = await arrange(h);
    const viewer = { token: (await h.json('POST', `/api/admin/user-admin/${(await h.json('POST', '/api/admin/user-admin', { username: 'vic', rootRole: 3 })).body.id}/tokens`, { description: 'v' })).body.secret as string };
    for (const who of [reader, viewer]) {
      await refused(h, () => h.json('POST', `${P}/environments/production/change-requests`, on, { token: who.token }), 403, 'NoAccessError', /UPDATE_FEATURE_ENVIRONMENT/);
    }
    await draft(h, on, editor.token);
    await moveOk(h, 1, { state: 'In review' }, editor.token);
    await refused(h, () => move(h, 1, { state: 'Approved' }, member.token), 403, 'NoAccessError', /APPROVE_CHANGE_REQUEST/);
    // Readers move no request: the route's own permission refuses them first.
    for (const who of [reader, viewer]) await refused(h, () => move(h, 1, { state: 'Approved' }, who.token), 403, 'NoAccessError', /UPDATE_FEATURE_ENVIRONMENT/);
    expect((await h.json('POST', `${CR}/1/comments`, { text: 'ok by me' }, { token: reader.token })).status).toBe(204);
    expect((await h.json('GET', `${CR}/actionable`, undefined, { token: owner.token })).body).toEqual({ total: 1 });
    expect((await h.json('GET', `${CR}/actionable`, undefined, { token: member.token })).body).toEqual({ total: 0 });
    await moveOk(h, 1, { state: 'Approved' }, owner.token);
    for (const who of [member, editor]) await refused(h, () => move(h, 1, { state: 'Applied' }, who.token), 403, 'NoAccessError', /APPLY_CHANGE_REQUEST/);
    expect((await moveOk(h, 1, { state: 'Applied' }, admin.token)).state).toBe('Applied');
  });
});
