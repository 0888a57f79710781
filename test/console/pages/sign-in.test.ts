/**
 * Signing in and out through the app: password and token sign-in, the one generic message, sign-out ending the
 * session on the server, the failure limit, and a session that outlives a restart but not its idle time or a new
 * password.
 */
import { describe, expect, vi } from 'vitest';
import { ADMIN_TOKEN } from '../../helpers/harness.js';
import { Browser, createUser, pageTest } from '../page-harness.js';

const test = pageTest();

describe('sign-in', () => {
  test('a user signs in with their password and lands on the projects, named in the header', async ({ h }) => {
    await createUser(h, 'ann', 'ann-secret-42', 1);
    const ann = new Browser(h);
    const first = await ann.get('/');
    expect([first.status, first.location]).toEqual([303, '/login']);
    const login = await ann.get('/login');
    expect([login.text('title'), login.form('With your username and password')?.getAttribute('action')]).toEqual(['Sign in · flagpole', '/login']);
    const signedIn = await ann.post('/login', { username: 'ann', password: 'ann-secret-42' });
    expect([signedIn.status, signedIn.location]).toEqual([303, '/projects']);
    expect(ann.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const projects = await ann.get('/projects');
    expect([projects.text('title'), projects.text('.user-name')]).toEqual(['Projects · flagpole', 'Ann']);
  });

  test('a wrong password and an unknown user get the same generic message, and no session', async ({ h }) => {
    await createUser(h, 'ann', 'ann-secret-42');
    const browser = new Browser(h);
    for (const [username, password] of [['ann', 'not-her-password'], ['nobody', 'ann-secret-42']] as const) {
      await browser.get('/login');
      const refused = await browser.post('/login', { username, password });
      expect([refused.status, refused.alerts]).toEqual([401, ['Wrong username or password']]);
      expect(refused.doc.querySelector('#username')?.getAttribute('value')).toBe(username);
    }
    expect(browser.session).toBeUndefined();
  });

  test('an admin token signs in as that token; a client token is refused with the generic message', async ({ h }) => {
    const client = await h.json('POST', '/api/admin/api-tokens', { tokenName: 'sdk', type: 'client', projects: ['default'], environment: 'development' });
    const browser = new Browser(h);
    await browser.get('/login');
    const refused = await browser.post('/login/token', { token: client.body.secret });
    expect(refused.status).toBe(401);
    expect(refused.alerts.join(' ')).toContain('cannot sign in');
    expect(browser.session).toBeUndefined();
    const signedIn = await browser.post('/login/token', { token: ADMIN_TOKEN });
    expect([signedIn.status, signedIn.location]).toEqual([303, '/projects']);
    expect((await browser.get('/projects')).text('.user-name')).toBe('init-admin-token-1');
  });

  test('sign-out ends the session on the server: the old cookie opens nothing', async ({ h }) => {
    await createUser(h, 'ann', 'ann-secret-42');
    const ann = new Browser(h);
    const projects = await ann.signIn('ann', 'ann-secret-42');
    expect(projects.doc.querySelector('.user-menu form[action="/logout"] button')?.textContent).toBe('Sign out');
    const cookie = ann.session!;
    const out = await ann.post('/logout');
    expect([out.status, out.location]).toEqual([303, '/login?signed-out']);
    expect((await ann.get(out.location!)).statuses).toEqual(['You have signed out.']);
    const raw = await h.app.request('/projects', { headers: { cookie: `flagpole-session=${cookie}`, accept: 'text/html' } });
    expect([raw.status, raw.headers.get('location')]).toEqual([303, '/login']);
  });

  test('a session survives a restart of the server; a new password ends the sessions of the old one', async ({ h }) => {
    const id = await createUser(h, 'ann', 'ann-secret-42');
    const ann = new Browser(h);
    await ann.signIn('ann', 'ann-secret-42');
    await h.restart();
    expect((await ann.get('/projects')).status).toBe(200);
    expect((await h.json('POST', `/api/admin/user-admin/${id}/change-password`, { password: 'ann-other-secret' })).status).toBe(200);
    const after = await ann.get('/projects');
    expect([after.status, after.location]).toEqual([303, '/login']);
  });
});

describe('limits and lifetimes', () => {
  const limited = pageTest({ LOGIN_FAILURES_PER_USER: '3', LOGIN_FAILURES_PER_ADDRESS: '100' });
  limited('after 3 failures for one username, the 4th attempt is refused with 429, even with the right password', async ({ h }) => {
    await createUser(h, 'ann', 'ann-secret-42');
    const browser = new Browser(h);
    const answers = [];
    for (const password of ['wrong-1-password', 'wrong-2-password', 'wrong-3-password', 'ann-secret-42']) {
      await browser.get('/login');
      answers.push(await browser.post('/login', { username: 'ann', password }));
    }
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers[3]!.alerts.join(' ')).toMatch(/Too many failed sign-ins/);
    expect(browser.session).toBeUndefined();
  });

  const idle = pageTest({ SESSION_IDLE_MINUTES: '5' });
  idle('a session unused for longer than SESSION_IDLE_MINUTES ends', async ({ h }) => {
    await createUser(h, 'ann', 'ann-secret-42');
    const ann = new Browser(h);
    await ann.signIn('ann', 'ann-secret-42');
    // The clock moved past the idle time (the session store reads Date.now()), not slept through.
    const signedIn = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: signedIn + 4 * 60_000 });
    try {
      expect((await ann.get('/projects')).status).toBe(200);
      vi.setSystemTime(signedIn + 4 * 60_000 + 5 * 60_000 + 1);
      const after = await ann.get('/projects');
      expect([after.status, after.location]).toEqual([303, '/login']);
    } finally {
      vi.useRealTimers();
    }
  });
});
