/**
 * A person's own page through the app: changing their password (the current one first, refusals marked on their
 * field), personal access tokens (the secret shown once, working on the admin API, revoked), and signing out of
 * every session, which ends another browser's too; an API token has no account page.
 */
import { describe, expect } from 'vitest';
import { ADMIN_TOKEN } from '../../helpers/harness.js';
import { Browser, createUser, pageTest } from '../page-harness.js';

const test = pageTest({ LOG_LEVEL: 'debug' });

describe('your account', () => {
  test('a Viewer opens it from the user menu and changes their password', async ({ h }) => {
    await createUser(h, 'bob', 'bob-builds-42', 3);
    const bob = new Browser(h);
    const projects = await bob.signIn('bob', 'bob-builds-42');
    expect(projects.doc.querySelector('.user-menu a[href="/account"]')?.textContent).toBe('Your account');
    expect((await bob.get('/account')).text('title')).toBe('Your account · flagpole');
    const fields = (current: string, password: string) => ({ currentPassword: current, password, confirmPassword: password });
    const wrong = await bob.post('/account/password', fields('not-my-password', 'bob-rebuilt-43'));
    expect([wrong.status, wrong.invalid(), wrong.text('#account-currentPassword-error')]).toEqual([400, ['currentPassword'], 'This is not your current password']);
    const short = await bob.post('/account/password', fields('bob-builds-42', 'bob'));
    expect([short.status, short.invalid()]).toEqual([400, ['password']]);
    expect(short.text('#account-password-error')).toContain('at least 8 characters');
    const saved = await bob.post('/account/password', fields('bob-builds-42', 'bob-rebuilt-43'));
    expect([saved.status, saved.location]).toEqual([303, '/account?done=password']);
    // This session goes on with the new password.
    expect((await bob.get(saved.location!)).statuses[0]).toContain('Password saved');
    expect((await new Browser(h).signIn('bob', 'bob-rebuilt-43')).text('.user-name')).toBe('Bob');
  });

  test('a personal access token is shown once, acts as its person on the admin API, and is revoked', async ({ h }) => {
    await createUser(h, 'bob', 'bob-builds-42', 2);
    const bob = new Browser(h);
    await bob.signIn('bob', 'bob-builds-42');
    const made = await bob.post('/account', { description: 'laptop-cli', expiresAt: '' });
    expect(made.status).toBe(201);
    const secret = made.doc.querySelector('.secret-once input')?.getAttribute('value') ?? '';
    expect(secret).toMatch(/^user:[0-9a-f]{56}$/);
    expect(made.text('.secret-once')).toContain('will not be shown again');
    expect((await h.json('GET', '/api/admin/projects', undefined, { token: secret })).status).toBe(200);
    // A reload is a GET of the page: the secret is gone.
    const again = await bob.get('/account');
    expect(again.html).toContain('laptop-cli');
    expect(again.html).not.toContain(secret.slice(5));
    expect(JSON.stringify(h.logs())).not.toContain(secret.slice(5));
    const revoke = again.form('Revoke laptop-cli')!;
    expect(revoke.textContent).toContain('Revoke laptop-cli?');
    const revoked = await bob.post(revoke.getAttribute('action')!);
    expect([revoked.status, revoked.location]).toEqual([303, '/account?done=revoked']);
    expect((await bob.get(revoked.location!)).text()).toContain('You have no personal tokens.');
    expect((await h.json('GET', '/api/admin/projects', undefined, { token: secret })).status).toBe(401);
  });

  test('a refused token is marked on its field and makes nothing', async ({ h }) => {
    await createUser(h, 'bob', 'bob-builds-42', 2);
    const bob = new Browser(h);
    await bob.signIn('bob', 'bob-builds-42');
    const refused = await bob.post('/account', { description: '', expiresAt: '2001-01-01' });
    expect(refused.status).toBe(400);
    expect(refused.invalid('form[action="/account"]').length).toBeGreaterThan(0);
    expect(refused.doc.querySelector('.secret-once')).toBeNull();
  });

  test('signing out everywhere ends this session and another browser\'s', async ({ h }) => {
    await createUser(h, 'bob', 'bob-builds-42', 3);
    const bob = new Browser(h);
    const elsewhere = new Browser(h);
    await bob.signIn('bob', 'bob-builds-42');
    await elsewhere.signIn('bob', 'bob-builds-42');
    expect((await bob.get('/account')).form('Sign out everywhere')).not.toBeNull();
    const out = await bob.post('/account/sessions/end');
    expect([out.status, out.location]).toEqual([303, '/login?signed-out']);
    expect(bob.session).toBeUndefined();
    expect((await elsewhere.get('/projects')).location).toBe('/login');
    expect(h.registry.sessions.size).toBe(0);
  });

  test('an API token has no account page', async ({ h }) => {
    const admin = new Browser(h);
    await admin.signInWithToken(ADMIN_TOKEN);
    expect((await admin.get('/account')).status).toBe(403);
  });
});
