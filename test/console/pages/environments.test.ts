/**
 * The environments page through the app: an Admin creates an environment, changes its type, moves it, turns it
 * off and deletes it (each read back through the admin API); deleting a used environment is refused with the
 * API's reason; a taken name is marked on its field; a Viewer sees the list without controls and a post is refused.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { pageTest } from '../page-harness.js';

const test = pageTest();

interface Env { name: string; type: string; enabled: boolean; sortOrder: number }
const environments = async (h: Harness): Promise<Env[]> => (await h.json('GET', '/api/admin/environments')).body.environments as Env[];
const names = async (h: Harness) => (await environments(h)).map((e) => e.name);
const ENV = '/admin/environments';

describe('the environments page', () => {
  test('an Admin creates, retypes, moves, turns off and deletes an environment', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const page = await ann.get(ENV);
    expect(page.doc.querySelector('nav[aria-label="Administration"] [aria-current="page"]')?.textContent).toBe('Environments');
    const created = await ann.post(ENV, { name: 'staging', type: 'test' });
    expect([created.status, created.location]).toEqual([303, `${ENV}?done=created#env-staging`]);
    expect((await environments(h)).find((e) => e.name === 'staging')?.type).toBe('test');
    expect((await ann.post(`${ENV}/staging/type`, { type: 'preproduction' })).location).toBe(`${ENV}?done=saved#env-staging`);
    expect((await environments(h)).find((e) => e.name === 'staging')?.type).toBe('preproduction');
    expect((await ann.post(`${ENV}/staging/move`, { direction: 'up' })).location).toMatch(/done=moved/);
    expect(await names(h)).toEqual(['development', 'staging', 'production']);
    expect((await ann.get(ENV)).texts('tbody th')).toEqual(['development', 'staging', 'production']);
    expect((await ann.post(`${ENV}/staging/off`)).location).toMatch(/done=off/);
    expect((await environments(h)).find((e) => e.name === 'staging')?.enabled).toBe(false);
    const listed = await ann.get(`${ENV}?done=off`);
    expect(listed.doc.querySelector('[aria-label="Turn staging on"]')).not.toBeNull();
    expect(listed.text('[aria-label="Delete staging"]')).toContain('Delete the environment "staging"?');
    expect((await ann.post(`${ENV}/staging/delete`)).location).toMatch(/done=deleted/);
    expect(await names(h)).toEqual(['development', 'production']);
  });

  test('deleting an environment a flag uses is refused with the API\'s reason, and a taken name is marked on its field', async ({ h, pages }) => {
    await h.json('POST', '/api/admin/projects/default/features', { name: 'checkout' });
    const ann = await pages.as('ann', 1);
    const refused = await ann.post(`${ENV}/production/delete`);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.alerts.join(' ')).toContain('default');
    expect(await names(h)).toEqual(['development', 'production']);
    const taken = await ann.post(ENV, { name: 'production', type: 'production' });
    expect([taken.status, taken.invalid()]).toEqual([409, ['name']]);
    expect(taken.text('#env-new-name-error')).toContain('already exists');
    expect(await names(h)).toEqual(['development', 'production']);
  });

  test('a Viewer sees the environments without controls, and a post is refused', async ({ h, pages }) => {
    const vic = await pages.as('vic');
    const page = await vic.get(ENV);
    expect(page.texts('tbody th')).toEqual(['development', 'production']);
    expect(page.doc.querySelectorAll('main form[method="post"]').length).toBe(0);
    expect(page.form('New environment')).toBeNull();
    const refused = await vic.post(`${ENV}/production/off`);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('You may not do this');
    expect((await environments(h)).every((e) => e.enabled)).toBe(true);
  });
});
