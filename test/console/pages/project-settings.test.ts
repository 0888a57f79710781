/**
 * A project's settings through the app: an Owner renames the project, adds a member and changes and removes them,
 * sets a default strategy, disconnects and connects an environment (each read back through the admin API) and
 * sees the project's segments; the last Owner cannot leave or be demoted (the project's message); a project with
 * flags is not deleted, an emptied one is; a Viewer reads without controls and is refused the forms.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { Browser, createUser, pageTest } from '../page-harness.js';

const test = pageTest();

const SETTINGS = '/projects/checkout/settings';
const members = async (h: Harness) =>
  ((await h.json('GET', '/api/admin/projects/checkout/access')).body.users as { username: string; roleId: number }[]).map((u) => [u.username, u.roleId]);
const overview = async (h: Harness) => (await h.json('GET', '/api/admin/projects/checkout')).body;

/** Ann (root Admin) the only Owner of project `checkout` with one flag, Bob (Editor) not a member; Ann's browser. */
async function given(h: Harness): Promise<{ ann: Browser; annId: number; bobId: number }> {
  const annId = await createUser(h, 'ann', 'ann-secret-42', 1);
  const bobId = await createUser(h, 'bob', 'bob-secret-42', 2);
  expect((await h.json('POST', '/api/admin/projects', { id: 'checkout', name: 'Checkout' })).status).toBe(201);
  // The admin token's project gets the lowest-id root Admin as its first Owner: Ann takes over.
  const [first] = (await h.json('GET', '/api/admin/projects/checkout/access')).body.users as { id: number }[];
  expect((await h.json('POST', `/api/admin/projects/checkout/users/${annId}/roles/4`)).status).toBe(200);
  expect((await h.json('DELETE', `/api/admin/projects/checkout/users/${first!.id}/roles/4`)).status).toBe(200);
  expect((await h.json('POST', '/api/admin/projects/checkout/features', { name: 'new-cart' })).status).toBe(201);
  const ann = new Browser(h);
  await ann.signIn('ann', 'ann-secret-42');
  return { ann, annId, bobId };
}

describe('the project settings page', () => {
  test('an Owner renames, manages members, sets a default strategy and reconnects an environment', async ({ h }) => {
    const { ann, bobId } = await given(h);
    await h.json('POST', '/api/admin/segments', { name: 'checkout-beta', project: 'checkout', constraints: [] });
    const page = await ann.get(SETTINGS);
    expect(page.doc.querySelector('nav[aria-label="Project Checkout"] a[aria-current="page"]')?.textContent).toBe('Settings');
    expect([...page.doc.querySelectorAll('a')].find((a) => a.textContent === 'checkout-beta')?.getAttribute('href')).toMatch(/^\/admin\/segments\/\d+$/);

    expect((await ann.post(SETTINGS, { name: 'Checkout and pay', description: 'Cart, payment, confirmation' })).location).toMatch(/done=saved/);
    expect(await overview(h)).toMatchObject({ name: 'Checkout and pay', description: 'Cart, payment, confirmation' });
    expect((await ann.post(`${SETTINGS}/members`, { user: 'bob', roleId: '5' })).location).toMatch(/done=added/);
    expect(await members(h)).toEqual([['ann', 4], ['bob', 5]]);
    expect((await ann.post(`${SETTINGS}/members/${bobId}`, { roleId: '4' })).location).toMatch(/done=changed/);
    expect(await members(h)).toEqual([['ann', 4], ['bob', 4]]);
    expect((await ann.get(SETTINGS)).doc.querySelector(`form[action="${SETTINGS}/members/${bobId}/remove"] button`)?.textContent).toBe('Remove Bob');
    expect((await ann.post(`${SETTINGS}/members/${bobId}/remove`, { roleId: '4' })).location).toMatch(/done=removed/);
    expect(await members(h)).toEqual([['ann', 4]]);

    const action = `${SETTINGS}/environments/development/default-strategy`;
    const sent = { ...(await ann.get(SETTINGS)).fieldsOf(action), 'parameters.rollout': '40', 'parameters.stickiness': 'userId', 'parameters.groupId': 'checkout-group' };
    const saved = await ann.post(action, sent);
    expect(saved.location).toMatch(/done=strategy/);
    const environments = (await overview(h)).environments as { environment: string; defaultStrategy: { name: string; parameters: Record<string, string> } | null }[];
    expect(environments.find((e) => e.environment === 'development')?.defaultStrategy).toMatchObject({ name: 'flexibleRollout', parameters: { rollout: '40', stickiness: 'userId', groupId: 'checkout-group' } });
    const after = await ann.get(saved.location!);
    expect(after.text('#project-env-development')).toContain('a gradual rollout to 40%');
    expect(after.text('#project-env-production')).toContain('Disconnect production from Checkout and pay? The settings of all 1 flag there');

    expect((await ann.post(`${SETTINGS}/environments/production/disconnect`)).location).toMatch(/done=disconnected/);
    expect(((await overview(h)).environments as { environment: string }[]).map((e) => e.environment)).toEqual(['development']);
    expect((await ann.get(SETTINGS)).form('Connect an environment')?.querySelector('option')?.getAttribute('value')).toBe('production');
    expect((await ann.post(`${SETTINGS}/environments`, { environment: 'production' })).location).toMatch(/done=connected/);
    expect(((await overview(h)).environments as { environment: string }[]).map((e) => e.environment)).toEqual(['development', 'production']);
  });

  test('the last Owner can be neither demoted nor removed; a project with flags is not deleted, an emptied one is', async ({ h }) => {
    const { ann, annId } = await given(h);
    const demoted = await ann.post(`${SETTINGS}/members/${annId}`, { roleId: '5' });
    expect([demoted.status, demoted.text('#members [role="alert"]')]).toEqual([400, 'A project must have at least one owner']);
    const removed = await ann.post(`${SETTINGS}/members/${annId}/remove`, { roleId: '4' });
    expect(removed.text('#members [role="alert"]')).toBe('A project must have at least one owner');
    expect(await members(h)).toEqual([['ann', 4]]);

    expect((await ann.get(SETTINGS)).text('#delete')).toContain('Delete Checkout for good? Its 1 active flag and 0 archived flags');
    const kept = await ann.post(`${SETTINGS}/delete`);
    expect(kept.text('#delete [role="alert"]')).toContain('flag');
    expect((await h.json('GET', '/api/admin/projects/checkout')).status).toBe(200);

    expect((await h.json('DELETE', '/api/admin/projects/checkout/features/new-cart')).status).toBe(202);
    expect((await ann.get(SETTINGS)).text('#delete')).toContain('Delete Checkout for good? Its 0 active flags and 1 archived flag');
    const deleted = await ann.post(`${SETTINGS}/delete`);
    expect([deleted.status, deleted.location]).toEqual([303, '/projects']);
    expect((await h.json('GET', '/api/admin/projects/checkout')).status).toBe(404);
  });

  test('a Viewer reads the settings without controls, and a post is refused', async ({ h, pages }) => {
    await given(h);
    const vic = await pages.as('vic');
    const page = await vic.get(SETTINGS);
    expect(page.doc.querySelectorAll('main form[method="post"], main summary').length).toBe(0);
    expect(page.text()).toContain('You can read these settings');
    expect(page.texts('#members tbody tr').find((r) => r.includes('Ann'))).toContain('Owner');
    const refused = await vic.post(SETTINGS, { name: 'Taken over' });
    expect([refused.status, refused.html.includes('You may not do this')]).toEqual([403, true]);
    expect((await overview(h)).name).toBe('Checkout');
  });
});
