/**
 * Every change type flagpole offers, drafted over HTTP into one request and applied in one record: each does
 * what its direct write does, read back through the API.
 */
import { describe, expect } from 'vitest';
import { test } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';
import { CR, P, draft, envOf, moveOk, people } from './cr-fixtures.js';

/** POSTs or PUTs and expects a 2xx; answers the body. */
async function ok(h: Harness, method: string, path: string, body?: unknown): Promise<any> {
  const res = await h.json(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

describe('change types', () => {
  test('all eleven, in one request, applied in one record', async ({ h }) => {
    // An Owner drafts (a project segment's change needs UPDATE_PROJECT), another approves and applies.
    const { owner, owner2 } = await people(h);
    for (const name of ['a', 'b', 'parent', 'child', 'old']) await ok(h, 'POST', `${P}/features`, { name });
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) ids.push((await ok(h, 'POST', `${P}/features/a/environments/production/strategies`, { name: 'default', title })).id);
    await ok(h, 'POST', `${P}/features/child/dependencies`, { feature: 'parent' });
    const kept = await ok(h, 'POST', '/api/admin/segments', { name: 'kept', project: 'default', constraints: [] });
    const dropped = await ok(h, 'POST', '/api/admin/segments', { name: 'dropped', project: 'default', constraints: [] });
    await ok(h, 'PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 });
    const constraint = { contextName: 'userId', operator: 'IN', values: ['1'], inverted: false, caseInsensitive: false };
    const request = await draft(h, [
      { feature: 'a', action: 'updateEnabled', payload: { enabled: true } },
      { feature: 'a', action: 'addStrategy', payload: { name: 'default', title: 'four' } },
      { feature: 'a', action: 'updateStrategy', payload: { id: ids[0], title: 'first', parameters: {} } },
      { feature: 'a', action: 'reorderStrategy', payload: [{ id: ids[1], sortOrder: 0 }, { id: ids[0], sortOrder: 1 }] },
      { feature: 'a', action: 'deleteStrategy', payload: { id: ids[2] } },
      { feature: 'a', action: 'patchVariant', payload: { variants: [{ name: 'blue', weightType: 'variable', weight: 1000, stickiness: 'default' }] } },
      { feature: 'b', action: 'addDependency', payload: { feature: 'parent', enabled: true } },
      { feature: 'child', action: 'deleteDependency', payload: { feature: 'parent' } },
      { feature: 'old', action: 'archiveFeature' },
      { feature: null, action: 'updateSegment', payload: { id: kept.id, name: 'kept-2', project: 'default', constraints: [constraint] } },
      { feature: null, action: 'deleteSegment', payload: { id: dropped.id } },
    ], owner.token);
    expect(request.features.map((f: { name: string; changes: unknown[] }) => [f.name, f.changes.length])).toEqual([['a', 6], ['b', 1], ['child', 1], ['old', 1]]);
    expect(request.segments.map((s: { action: string; name: string }) => [s.action, s.name])).toEqual([['updateSegment', 'kept-2'], ['deleteSegment', 'dropped']]);
    await moveOk(h, request.id, { state: 'In review' }, owner.token);
    await moveOk(h, request.id, { state: 'Approved' }, owner2.token);
    const seq = h.registry.project('default')!.seq;
    expect((await moveOk(h, request.id, { state: 'Applied' }, owner2.token)).state).toBe('Applied');
    // The flag changes and the request's apply are one record; a second clears the mark of its segment changes.
    expect(h.registry.project('default')!.seq).toBe(seq + 2);

    const a = await envOf(h, 'a');
    expect(a.enabled).toBe(true);
    expect(a.strategies.map((s: { title: string | null; sortOrder: number }) => [s.title, s.sortOrder])).toEqual([['two', 0], ['first', 1], ['four', 3]]);
    expect((await ok(h, 'GET', `${P}/features/a`)).variants).toMatchObject([{ name: 'blue', weight: 1000 }]);
    expect((await ok(h, 'GET', `${P}/features/b`)).dependencies).toEqual([{ feature: 'parent', enabled: true, variants: [] }]);
    expect((await ok(h, 'GET', `${P}/features/child`)).dependencies).toEqual([]);
    expect((await ok(h, 'GET', `${P}/features/old`)).archived).toBe(true);
    expect(await ok(h, 'GET', `/api/admin/segments/${kept.id}`)).toMatchObject({ name: 'kept-2', constraints: [constraint] });
    expect((await h.json('GET', `/api/admin/segments/${dropped.id}`)).status).toBe(404);
    expect((await ok(h, 'GET', `${CR}/${request.id}`)).state).toBe('Applied');
  });
});
