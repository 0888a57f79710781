/**
 * Passwords over real HTTP: set on create, by an admin and by their owner; refused when too short, equal to the
 * username or common; never answered, dumped or logged (only a backup carries the hash, as it carries token
 * hashes); and `POST /auth/simple/login`, Unleash's sign-in, with its CSRF checks and one generic message.
 */
import { describe, expect } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/harness.js';
import { servedAppTest, type Served } from '../helpers/served-app.js';

const test = servedAppTest({}, async () => {});

/** An admin request over the socket. */
async function api(served: Served, method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN): Promise<{ status: number; text: string; body: any }> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (token) headers['authorization'] = token;
  const res = await fetch(`${served.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, body: text && res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
}

/** `POST /auth/simple/login` as a browser on the sign-in page sends it: its origin, the login cookie and token. */
async function login(served: Served, username: string, password: string, origin = served.base): Promise<Response> {
  const page = await fetch(`${served.base}/login`);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  return fetch(`${served.base}/auth/simple/login`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/json', cookie, origin, 'x-csrf-token': csrf },
    body: JSON.stringify({ username, password }),
  });
}

describe('passwords', () => {
  test('a password given on create is never answered, dumped or logged; a backup carries its hash', async ({ served, h }) => {
    const password = 'tulip-harbour-88';
    const created = await api(served, 'POST', '/api/admin/user-admin', { username: 'ann', email: 'ann@example.com', password });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'rootRole', 'username']);
    for (const path of ['/api/admin/user-admin', `/api/admin/user-admin/${created.body.id}`, '/api/admin/state']) {
      const read = await api(served, 'GET', path);
      expect(read.status).toBe(200);
      expect(read.text).not.toContain('scrypt$');
      expect(read.text).not.toContain(password);
    }
    const backup = await api(served, 'GET', '/api/admin/backup');
    expect(backup.text).toContain('scrypt$');
    expect(backup.text).not.toContain(password);
    expect((await login(served, 'ann@example.com', password)).status).toBe(200);
    const logged = JSON.stringify(h.logs());
    expect(logged).not.toContain(password);
    expect(logged).not.toContain('scrypt$');
  });

  test.for([
    [{ username: 'bob', password: 'short' }, 'at least 8 characters'],
    [{ username: 'bobby-tables', password: 'Bobby-Tables' }, 'not be the username'],
    [{ username: 'bob', email: 'robert@example.com', password: 'robert@example.com' }, 'not be the username or email'],
    [{ username: 'bob', password: 'unleash4all' }, 'most common passwords'],
    [{ username: 'bob', password: 'Password123' }, 'most common passwords'],
  ] as const)('refuses %j with a 400 naming password', async ([body, why], { served }) => {
    const res = await api(served, 'POST', '/api/admin/user-admin', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"password"');
    expect(res.body.message).toContain(why);
    expect((await api(served, 'GET', '/api/admin/user-admin')).body.users.map((u: { username: string }) => u.username)).toEqual(['admin']);
  });

  test('an admin sets a password; the old one no longer signs in; refusals name password', async ({ served }) => {
    const { body: user } = await api(served, 'POST', '/api/admin/user-admin', { username: 'annabelle', password: 'tulip-harbour-88' });
    expect((await api(served, 'POST', `/api/admin/user-admin/${user.id}/change-password`, { password: 'Annabelle' })).body.message).toContain('"password": must not be the username');
    expect((await api(served, 'POST', '/api/admin/user-admin/99/change-password', { password: 'meadow-lantern-7' })).status).toBe(404);
    expect((await api(served, 'POST', `/api/admin/user-admin/${user.id}/change-password`, { password: 'meadow-lantern-7' })).status).toBe(200);
    expect((await login(served, 'annabelle', 'tulip-harbour-88')).status).toBe(401);
    expect((await login(served, 'annabelle', 'meadow-lantern-7')).status).toBe(200);
  });

  test('a user changes their own password with their personal token; an admin token has no own password', async ({ served }) => {
    const { body: user } = await api(served, 'POST', '/api/admin/user-admin', { username: 'ann', password: 'tulip-harbour-88' });
    const { body: pat } = await api(served, 'POST', `/api/admin/user-admin/${user.id}/tokens`, { description: 'mine' });
    const path = '/api/admin/user/change-password';
    const mismatch = await api(served, 'POST', path, { password: 'meadow-lantern-7', confirmPassword: 'meadow-lantern-8', oldPassword: 'tulip-harbour-88' }, pat.secret);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toContain('"confirmPassword"');
    expect((await api(served, 'POST', path, '{', pat.secret)).status).toBe(400);
    expect((await api(served, 'POST', path, { password: 'meadow-lantern-7', confirmPassword: 'meadow-lantern-7' })).status).toBe(403);
    expect((await api(served, 'POST', path, { password: 'meadow-lantern-7', confirmPassword: 'meadow-lantern-7', oldPassword: 'tulip-harbour-88' }, pat.secret)).status).toBe(200);
    expect((await login(served, 'ann', 'meadow-lantern-7')).status).toBe(200);
  });

  test('a personal token alone cannot set its user\'s password: the current one is required (400 without, 401 when wrong)', async ({ served }) => {
    const { body: user } = await api(served, 'POST', '/api/admin/user-admin', { username: 'ann', password: 'tulip-harbour-88' });
    const { body: pat } = await api(served, 'POST', `/api/admin/user-admin/${user.id}/tokens`, { description: 'leaked' });
    const path = '/api/admin/user/change-password';
    const without = await api(served, 'POST', path, { password: 'meadow-lantern-7', confirmPassword: 'meadow-lantern-7' }, pat.secret);
    expect(without.status).toBe(400);
    expect(without.body.message).toBe('"oldPassword" is required: your current password, to set a new one');
    const wrong = await api(served, 'POST', path, { password: 'meadow-lantern-7', confirmPassword: 'meadow-lantern-7', oldPassword: 'a-guess-at-it' }, pat.secret);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ name: 'AuthenticationRequired', message: '"oldPassword" is not your current password' });
    expect((await login(served, 'ann', 'meadow-lantern-7')).status).toBe(401);
    expect((await login(served, 'ann', 'tulip-harbour-88')).status).toBe(200);
    // A user without a password has none to give: their token may set the first one.
    const { body: bob } = await api(served, 'POST', '/api/admin/user-admin', { username: 'bob' });
    const { body: bobs } = await api(served, 'POST', `/api/admin/user-admin/${bob.id}/tokens`, { description: 'mine' });
    expect((await api(served, 'POST', path, { password: 'meadow-lantern-7', confirmPassword: 'meadow-lantern-7' }, bobs.secret)).status).toBe(200);
  });
});

describe('POST /auth/simple/login', () => {
  test('answers the user and sets the session cookie; a wrong password and an unknown user get one message', async ({ served }) => {
    await api(served, 'POST', '/api/admin/user-admin', { username: 'ann', name: 'Ann', password: 'tulip-harbour-88' });
    const ok = await login(served, 'ann', 'tulip-harbour-88');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ username: 'ann', name: 'Ann' });
    const cookie = ok.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^flagpole-session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Secure');
    const page = await fetch(`${served.base}/projects`, { headers: { cookie: cookie.split(';')[0]! }, redirect: 'manual' });
    expect(page.status).toBe(200);
    for (const [user, password] of [['ann', 'wrong-password'], ['nobody', 'tulip-harbour-88']]) {
      const refused = await login(served, user!, password!);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { message: string }).message).toBe('Wrong username or password');
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
  });

  test('a script signs in with a JSON body alone, as with Unleash; another origin is refused (403), a form body too (415)', async ({ served }) => {
    await api(served, 'POST', '/api/admin/user-admin', { username: 'ann', password: 'tulip-harbour-88' });
    const post = (headers: Record<string, string>, body = JSON.stringify({ username: 'ann', password: 'tulip-harbour-88' })) =>
      fetch(`${served.base}/auth/simple/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', ...headers }, body });
    const script = await post({});
    expect(script.status).toBe(200);
    expect(await script.json()).toMatchObject({ username: 'ann' });
    expect(script.headers.get('set-cookie')).toMatch(/^flagpole-session=[A-Za-z0-9_-]{43};/);
    expect((await post({ origin: served.base })).status).toBe(200);
    for (const headers of [{ origin: 'http://localhost:1' }, { origin: 'null' }, { referer: 'http://localhost:1/login' }] as Record<string, string>[]) {
      const refused = await post(headers);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    expect((await login(served, 'ann', 'tulip-harbour-88', 'http://localhost:1')).status).toBe(403);
    const form = await post({ 'content-type': 'application/x-www-form-urlencoded' }, 'username=ann&password=tulip-harbour-88');
    expect(form.status).toBe(415);
    expect(form.headers.get('set-cookie')).toBeNull();
  });
});
