/**
 * The API token pages through the app: a token made with its secret shown once (and in no later page or log
 * line), working on the API it is for; revoked after a confirmation naming it; refusals marked on their field,
 * nothing made; what a Viewer gets.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { pageTest } from '../page-harness.js';

const test = pageTest({ LOG_LEVEL: 'debug' });

const tokenNamed = async (h: Harness, name: string) => ((await h.json('GET', '/api/admin/api-tokens')).body.tokens as any[]).find((t) => t.tokenName === name);

describe('API tokens', () => {
  test('a client token: the secret once, that reads the client API; never again', async ({ h, pages }) => {
    await h.json('POST', '/api/admin/projects', { id: 'checkout', name: 'Checkout' });
    await h.json('POST', '/api/admin/projects/checkout/features', { name: 'new-cart' });
    const ann = await pages.as('ann', 1);
    const list = await ann.get('/admin/tokens');
    expect([list.text('title'), list.form('New API token') !== null]).toEqual(['API tokens · flagpole', true]);
    const made = await ann.post('/admin/tokens', { tokenName: 'checkout-web', type: 'client', projects: 'checkout', environment: 'production', expiresAt: '' });
    expect(made.status).toBe(201);
    const secret = made.doc.querySelector('#secret-value')?.getAttribute('value') ?? '';
    expect(secret).toMatch(/^checkout:production\.[0-9a-f]{56}$/);
    expect(made.text('.secret-once')).toContain('will not be shown again');
    expect(made.doc.querySelector('.secret-once button')?.textContent).toBe('Copy');
    expect(await tokenNamed(h, 'checkout-web')).toMatchObject({ type: 'client', projects: ['checkout'], environment: 'production' });
    const features = await h.json('GET', '/api/client/features', undefined, { token: secret });
    expect([features.status, (features.body.features as { name: string }[]).map((f) => f.name)]).toEqual([200, ['new-cart']]);
    // A reload is a GET of the list: the secret is in no page and no log line.
    const again = await ann.get('/admin/tokens');
    expect(again.html).toContain('checkout-web');
    expect(again.html).not.toContain(secret.slice('checkout:production.'.length));
    expect(again.doc.querySelector('.secret-once')).toBeNull();
    expect(JSON.stringify(h.logs())).not.toContain(secret.slice('checkout:production.'.length));
  });

  test('revoking asks for a confirmation naming the token; the token is refused afterwards', async ({ h, pages }) => {
    const made = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'old-sdk', type: 'client', projects: ['default'], environment: 'development' });
    const ann = await pages.as('ann', 1);
    const confirm = (await ann.get('/admin/tokens')).form('Revoke old-sdk')!;
    expect(confirm.textContent).toContain('Revoke the client token old-sdk?');
    const revoked = await ann.post(confirm.getAttribute('action')!);
    expect([revoked.status, revoked.location]).toEqual([303, '/admin/tokens?done=revoked']);
    expect(await tokenNamed(h, 'old-sdk')).toBeUndefined();
    expect((await h.json('GET', '/api/client/features', undefined, { token: made.body.secret })).status).toBe(401);
  });

  test('a refused token shows the API\'s message next to its field, the form as sent, and makes nothing', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const none = await ann.post('/admin/tokens', { tokenName: 'nothing-chosen', type: 'client', environment: 'development', expiresAt: '' });
    expect([none.status, none.text('#token-projects-error')]).toEqual([400, expect.stringContaining('choose at least one project')]);
    const past = await ann.post('/admin/tokens', { tokenName: 'nothing-chosen', type: 'client', projects: 'default', environment: 'development', expiresAt: '2001-01-01' });
    expect([past.status, past.invalid()]).toEqual([400, ['expiresAt']]);
    expect(past.text('#token-expires-error')).toContain('must be in the future');
    expect(past.doc.querySelector('#token-name')?.getAttribute('value')).toBe('nothing-chosen');
    expect(await tokenNamed(h, 'nothing-chosen')).toBeUndefined();
  });

  test('a frontend token for every project; an admin token', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    for (const [tokenName, type] of [['web-app', 'frontend'], ['ops-script', 'admin']] as const) {
      const made = await ann.post('/admin/tokens', { tokenName, type, projects: '*', environment: 'development', expiresAt: '' });
      expect([made.status, made.doc.querySelectorAll('#secret-value').length]).toEqual([201, 1]);
    }
    expect(await tokenNamed(h, 'web-app')).toMatchObject({ type: 'frontend', projects: ['*'], environment: 'development' });
    expect(await tokenNamed(h, 'ops-script')).toMatchObject({ type: 'admin', projects: ['*'], environment: '*' });
  });

  test('a Viewer opening the token list gets the "you may not" page', async ({ pages }) => {
    const vic = await pages.as('vic');
    const refused = await vic.get('/admin/tokens');
    expect([refused.status, refused.title]).toEqual([403, 'You may not open this page']);
    expect([...refused.doc.querySelectorAll('nav[aria-label="Main"] a')].some((a) => a.textContent === 'Admin')).toBe(true);
  });
});
