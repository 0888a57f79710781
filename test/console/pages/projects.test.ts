/**
 * The project list through the app: what an Admin and a Viewer see, the new-project form (refusals marked on
 * their field, nothing created), the "Page not found" page, and the CSRF rules a form post must pass (results
 * read back through the admin API).
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { pageTest } from '../page-harness.js';

const test = pageTest();

const projectIds = async (h: Harness) => ((await h.json('GET', '/api/admin/projects')).body.projects as { id: string }[]).map((p) => p.id).sort();

describe('the project list', () => {
  test('an Admin sees every project with its counts and creates one', async ({ h, pages }) => {
    await h.json('POST', '/api/admin/projects', { id: 'checkout', name: 'Checkout', description: 'Cart, payment and order confirmation' });
    for (const name of ['new-cart', 'express-pay']) await h.json('POST', '/api/admin/projects/checkout/features', { name });
    const ann = await pages.as('ann', 1);
    const list = await ann.get('/projects');
    const card = [...list.doc.querySelectorAll('li')].find((li) => li.querySelector('a')?.textContent === 'Checkout')!;
    expect(card.querySelector('dd')?.textContent).toBe('2');
    expect(list.doc.querySelector('a[aria-current="page"]')?.textContent).toBe('Projects');
    expect(list.form('New project')).not.toBeNull();
    const created = await ann.post('/projects', { name: 'Search', id: 'search' });
    expect([created.status, created.location]).toEqual([303, '/projects/search']);
    expect((await ann.get('/projects/search')).texts('h2')).toContain('Flags');
    expect(await projectIds(h)).toEqual(['checkout', 'default', 'search']);
  });

  test('a form error shows the API\'s message next to the field and creates nothing', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const refused = await ann.post('/projects', { name: 'Again', id: 'default' });
    expect([refused.status, refused.invalid()]).toEqual([409, ['id']]);
    expect(refused.text('#project-id-error')).toContain('already exists');
    expect(refused.doc.querySelector('#project-name')?.getAttribute('value')).toBe('Again');
    const bad = await ann.post('/projects', { name: '', id: 'has space' });
    expect(bad.status).toBe(400);
    expect(bad.invalid()).toEqual(expect.arrayContaining(['id']));
    expect(await projectIds(h)).toEqual(['default']);
  });

  test('a Viewer sees the list without admin actions, and a post of the form is refused', async ({ h, pages }) => {
    const vic = await pages.as('vic');
    const list = await vic.get('/projects');
    expect([...list.doc.querySelectorAll('main a')].some((a) => a.textContent === 'Default')).toBe(true);
    expect(list.form('New project')).toBeNull();
    const refused = await vic.post('/projects', { id: 'viewers', name: 'Viewers' });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('You may not do this');
    expect(await projectIds(h)).toEqual(['default']);
  });

  test('an unknown project is a "Page not found" page', async ({ pages }) => {
    const ann = await pages.as('ann');
    const missing = await ann.get('/projects/nothing-here');
    expect([missing.status, missing.title]).toEqual([404, 'Page not found']);
  });
});

describe('CSRF', () => {
  test('a form posted without the session\'s token, from another origin or with none, changes nothing', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const csrf = ann.csrf!;
    const tries = [
      await ann.post('/projects', { id: 'no-token', name: 'No token' }, { csrf: null }),
      await ann.post('/projects', { id: 'wrong-token', name: 'Wrong token' }, { csrf: `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}` }),
      await ann.post('/projects', { id: 'other-origin', name: 'Other origin' }, { origin: 'http://localhost:1' }),
      await ann.post('/projects', { id: 'no-origin', name: 'No origin' }, { origin: null }),
    ];
    expect(tries.map((t) => t.status)).toEqual([403, 403, 403, 403]);
    expect(await projectIds(h)).toEqual(['default']);
    const accepted = await ann.post('/projects', { id: 'fine', name: 'Fine' });
    expect(accepted.status).toBe(303);
    expect(await projectIds(h)).toEqual(['default', 'fine']);
  });
});
