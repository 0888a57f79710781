/**
 * The segment pages through the app: an Admin creates a segment with constraints, edits it, sees where it is used
 * and deletes an unused one (each read back through the admin API); deleting a used segment is refused with the
 * API's message; a bad value is marked on its field, the form as sent; the list pages and searches; a Viewer
 * reads without controls and is refused the forms.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { pageTest } from '../page-harness.js';

const test = pageTest();

interface ApiSegment { id: number; name: string; description: string | null; project: string | null; constraints: { contextName: string; operator: string; values?: string[]; inverted: boolean }[] }
const segments = async (h: Harness): Promise<ApiSegment[]> => (await h.json('GET', '/api/admin/segments')).body.segments as ApiSegment[];

/** A flag in `default` whose strategy in development uses segment `id`. */
async function useSegment(h: Harness, flag: string, id: number): Promise<void> {
  expect((await h.json('POST', '/api/admin/projects/default/features', { name: flag })).status).toBe(201);
  const added = await h.json('POST', `/api/admin/projects/default/features/${flag}/environments/development/strategies`, { name: 'flexibleRollout', parameters: { rollout: '50' }, segments: [id] });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
}

describe('the segment pages', () => {
  test('an Admin creates and edits a segment, sees where it is used, and deletes an unused one', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const list = await ann.get('/admin/segments');
    expect(list.doc.querySelector('nav[aria-label="Administration"] [aria-current="page"]')?.textContent).toBe('Segments');
    expect(list.doc.querySelector('a[href="/admin/new-segment"]')?.textContent).toBe('New segment');
    const created = await ann.post('/admin/segments', {
      name: 'beta-testers', description: 'People who asked for early features', project: '',
      'constraints.0.new': 'true', 'constraints.0.contextName': 'userId', 'constraints.0.operator': 'IN', 'constraints.0.values': 'ann\nbob',
    });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/admin\/segments\/\d+\?done=created$/);
    let [segment] = await segments(h);
    expect(segment).toMatchObject({ name: 'beta-testers', description: 'People who asked for early features', project: null, constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann', 'bob'], inverted: false }] });

    // Edit: the stored constraint is a row; change its values and add a second, inverted.
    const editor = await ann.get(created.location!);
    expect(editor.doc.querySelector('fieldset.constraint legend')?.textContent).toBe('Constraint 1');
    const saved = await ann.post(`/admin/segments/${segment!.id}`, {
      name: 'beta-testers', description: 'People who asked for early features', project: '',
      'constraints.0.contextName': 'userId', 'constraints.0.operator': 'IN', 'constraints.0.values': 'ann\nbob\ncarl',
      'constraints.1.new': 'true', 'constraints.1.contextName': 'appName', 'constraints.1.operator': 'STR_STARTS_WITH', 'constraints.1.values': 'web', 'constraints.1.inverted': 'on',
    });
    expect(saved.location).toMatch(/done=saved/);
    [segment] = await segments(h);
    expect(segment!.constraints).toMatchObject([
      { contextName: 'userId', operator: 'IN', values: ['ann', 'bob', 'carl'] },
      { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], inverted: true },
    ]);

    await useSegment(h, 'checkout', segment!.id);
    const unused = (await h.json('POST', '/api/admin/segments', { name: 'unused', constraints: [] })).body.id as number;
    const rows = (await ann.get('/admin/segments')).texts('tbody tr');
    expect(rows.find((r) => r.includes('beta-testers'))).toMatch(/1 flag.*in default/);
    expect(rows.find((r) => r.includes('unused'))).toContain('Not used');
    expect((await ann.get(`/admin/segments/${segment!.id}`)).doc.querySelector('a[href="/projects/default/features/checkout"]')?.textContent).toBe('default/checkout');
    expect((await ann.get(`/admin/segments/${unused}`)).text('[aria-label="Delete segment"]')).toContain('Delete the segment "unused" and its 0 constraints?');
    const deleted = await ann.post(`/admin/segments/${unused}/delete`);
    expect(deleted.location).toBe('/admin/segments?done=deleted');
    expect((await segments(h)).map((s) => s.name)).toEqual(['beta-testers']);
  });

  test('deleting a used segment is refused with the API\'s message; a bad value is marked on its field; the list pages', async ({ h, pages }) => {
    const made = (await h.json('POST', '/api/admin/segments', { name: 'a-used', constraints: [] })).body.id as number;
    await useSegment(h, 'checkout', made);
    for (let n = 0; n < 26; n += 1) await h.json('POST', '/api/admin/segments', { name: `s-${String(n).padStart(2, '0')}`, constraints: [] });
    const ann = await pages.as('ann', 1);
    const refused = await ann.post(`/admin/segments/${made}/delete`);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.alerts.join(' ')).toContain('checkout');
    expect((await segments(h)).some((s) => s.name === 'a-used')).toBe(true);

    const bad = await ann.post(`/admin/segments/${made}`, {
      name: 'a-used', description: '', project: '',
      'constraints.0.new': 'true', 'constraints.0.contextName': 'userId', 'constraints.0.operator': 'NUM_GT', 'constraints.0.values': 'many',
    });
    expect(bad.status).toBe(400);
    expect(bad.invalid()).toEqual(['constraints.0.values']);
    expect(bad.doc.querySelector('textarea[name="constraints.0.values"]')?.textContent).toBe('many');
    expect((await segments(h)).find((s) => s.name === 'a-used')?.constraints).toEqual([]);

    const first = await ann.get('/admin/segments');
    expect(first.statuses[0]).toContain('1–25 of 27 segments');
    expect(first.doc.querySelector('a[rel="next"]')?.getAttribute('href')).toBe('/admin/segments?page=2');
    expect((await ann.get('/admin/segments?page=2')).doc.querySelectorAll('tbody tr').length).toBe(2);
    expect((await ann.get('/admin/segments?q=s-0')).doc.querySelectorAll('tbody tr').length).toBe(10);
  });

  test('a Viewer reads segments without controls; the forms are refused', async ({ h, pages }) => {
    const made = (await h.json('POST', '/api/admin/segments', { name: 'beta', constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann'] }] })).body.id as number;
    const vic = await pages.as('vic');
    expect((await vic.get('/admin/segments')).doc.querySelector('a[href="/admin/new-segment"]')).toBeNull();
    const page = await vic.get(`/admin/segments/${made}`);
    expect(page.doc.querySelectorAll('main form[method="post"]').length).toBe(0);
    expect(page.text('.constraint-list')).toContain('userId');
    expect((await vic.get('/admin/new-segment')).status).toBe(403);
    const refused = await vic.post(`/admin/segments/${made}/delete`);
    expect([refused.status, refused.html.includes('You may not do this')]).toEqual([403, true]);
    expect((await segments(h)).map((s) => s.name)).toEqual(['beta']);
  });
});
