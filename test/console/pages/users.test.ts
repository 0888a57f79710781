/**
 * The user pages through the app: an Admin creates a user (with a password, or a one-time link shown once),
 * changes a root role, sets a password, deletes a user; refusals marked on the field they name; the list found and
 * paged by the server; the one-time link's pages; what a Viewer gets.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { createPasswordLink } from '../../../src/use-cases/password-links.use-cases.js';
import { Browser, pageTest } from '../page-harness.js';

const test = pageTest();

type H = Harness;

const userNamed = async (h: H, username: string) => ((await h.json('GET', '/api/admin/user-admin')).body.users as any[]).find((u) => u.username === username);

describe('the user list', () => {
  test('an Admin creates a user with a password, who then signs in and shows as active', async ({ h, pages }) => {
    const admin = await pages.admin();
    const list = await admin.get('/admin/users');
    expect([list.text('title'), list.doc.querySelector('nav[aria-label="Administration"] [aria-current="page"]')?.textContent]).toEqual(['Users · flagpole', 'Users']);
    const created = await admin.post('/admin/users', { name: 'Bob Builder', username: 'bob', rootRole: '2', signIn: 'password', password: 'bob-builds-42' });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/admin\/users\/\d+\?done=created$/);
    const page = await admin.get(created.location!);
    expect([page.title, page.statuses[0]]).toEqual(['Bob Builder', 'User created.']);
    expect(await userNamed(h, 'bob')).toMatchObject({ rootRole: 2 });
    const bob = new Browser(h);
    expect((await bob.signIn('bob', 'bob-builds-42')).text('.user-name')).toBe('Bob Builder');
    const bobRow = [...(await admin.get('/admin/users')).doc.querySelectorAll('tbody tr')].find((tr) => tr.textContent?.includes('Bob Builder'))!;
    expect(bobRow.querySelectorAll('td')[2]?.textContent).toBe('Editor');
    expect(bobRow.querySelectorAll('td')[5]?.querySelectorAll('time').length).toBe(1);
  });

  test('a refused new user: the form open again as sent, the field marked with the API\'s message, nobody created', async ({ h, pages }) => {
    const admin = await pages.admin();
    const short = await admin.post('/admin/users', { username: 'bob', rootRole: '3', signIn: 'password', password: 'bob' });
    expect([short.status, short.invalid()]).toEqual([400, ['password']]);
    expect(short.message('password')).toContain('at least 8 characters');
    expect(short.doc.querySelector('#new-user-username')?.getAttribute('value')).toBe('bob');
    await pages.as('ann', 1);
    const taken = await admin.post('/admin/users', { username: 'ann', rootRole: '3', signIn: 'password', password: 'another-fine-one' });
    expect([taken.status, taken.invalid(), taken.message('username')]).toEqual([409, ['username'], expect.stringContaining('already exists')]);
    expect(await userNamed(h, 'bob')).toBeUndefined();
  });

  test('finds users by name, username or email, paged by the server', async ({ h, pages }) => {
    for (let i = 1; i <= 60; i++) {
      const n = String(i).padStart(2, '0');
      expect((await h.json('POST', '/api/admin/user-admin', { username: `user-${n}`, email: `person${n}@example.com`, name: `Person ${n}` })).status).toBe(201);
    }
    const admin = await pages.admin();
    expect((await admin.get('/admin/users')).text('.pager-status')).toBe('1–50 of 61 users');
    expect((await admin.get('/admin/users?page=2')).doc.querySelectorAll('tbody tr').length).toBe(11);
    expect((await admin.get('/admin/users?q=PERSON07%40example')).texts('tbody tr th')).toEqual(['Person 07']);
  });

  test('a Viewer opening the user pages gets the "you may not" page', async ({ pages }) => {
    const viewer = await pages.as('vic');
    for (const path of ['/admin/users', '/admin/users/1']) {
      const page = await viewer.get(path);
      expect([page.status, page.title], path).toEqual([403, 'You may not open this page']);
    }
  });
});

describe('one user', () => {
  test('a root role change is read back; the last root Admin keeps the role (marked) and is not deleted', async ({ h, pages }) => {
    const ann = await pages.as('ann', 1);
    const annId = (await userNamed(h, 'ann')).id as number;
    expect((await ann.post('/admin/users/1/role', { rootRole: '3' })).location).toBe('/admin/users/1?done=role');
    expect((await h.json('GET', '/api/admin/user-admin/1')).body.rootRole).toBe(3);
    const kept = await ann.post(`/admin/users/${annId}/role`, { rootRole: '2' });
    expect(kept.invalid()).toEqual(['rootRole']);
    expect(kept.message('rootRole')).toContain('last root Admin');
    expect((await ann.get(`/admin/users/${annId}`)).text(`form[aria-label="Delete Ann"]`)).toContain('Delete Ann?');
    const notDeleted = await ann.post(`/admin/users/${annId}/delete`);
    expect(notDeleted.alerts[0]).toContain(`User ${annId} is the last root Admin`);
    expect((await h.json('GET', `/api/admin/user-admin/${annId}`)).body.rootRole).toBe(1);
  });

  test('an Admin who gives up their own Admin role goes to the projects', async ({ h, pages }) => {
    await pages.as('ann', 1);
    const bob = await pages.as('bob', 1);
    const bobId = (await userNamed(h, 'bob')).id as number;
    expect((await bob.post(`/admin/users/${bobId}/role`, { rootRole: '2' })).location).toBe('/projects');
  });

  test('a user is deleted after a confirmation naming what goes with them', async ({ h, pages }) => {
    await pages.as('bob', 2);
    const bobId = (await userNamed(h, 'bob')).id as number;
    const admin = await pages.admin();
    expect((await admin.get(`/admin/users/${bobId}`)).text('form[aria-label="Delete Bob"]')).toContain('personal access tokens are deleted with them');
    expect((await admin.post(`/admin/users/${bobId}/delete`)).location).toBe('/admin/users?done=deleted');
    expect((await h.json('GET', `/api/admin/user-admin/${bobId}`)).status).toBe(404);
  });

  test('an admin sets a password; the person\'s old one stops working', async ({ h, pages }) => {
    await pages.as('bob');
    const bobId = (await userNamed(h, 'bob')).id as number;
    const admin = await pages.admin();
    expect((await admin.post(`/admin/users/${bobId}/password`, { password: 'bob-rebuilt-43' })).location).toBe(`/admin/users/${bobId}?done=password`);
    const bob = new Browser(h);
    await bob.get('/login');
    const wrong = await bob.post('/login', { username: 'bob', password: 'bob-password-42' });
    expect([wrong.status, wrong.alerts]).toEqual([401, ['Wrong username or password']]);
    expect((await bob.signIn('bob', 'bob-rebuilt-43')).status).toBe(200);
  });
});

describe('the one-time password link', () => {
  test('is shown once, survives a restart, sets a password under the API\'s rules and signs in, then is refused', async ({ h, pages }) => {
    const admin = await pages.admin();
    const made = await admin.post('/admin/users', { name: 'Cara', username: 'cara', rootRole: '3', signIn: 'link' });
    expect(made.status).toBe(201);
    const link = made.doc.querySelector('#secret-value')?.getAttribute('value') ?? '';
    expect(link).toMatch(/^http:\/\/localhost\/set-password#[A-Za-z0-9_-]{43}$/);
    const secret = link.split('#')[1]!;
    expect(made.text('.secret-once')).toContain('will not be shown again');
    const cara = await userNamed(h, 'cara');
    const again = await admin.get(`/admin/users/${cara.id}`);
    expect(again.html).not.toContain(secret);
    expect(again.text('dl.facts')).toContain('Link not used yet');
    await h.restart();
    const browser = new Browser(h);
    await browser.get('/set-password');
    const form = await browser.post('/set-password', { secret });
    expect([form.status, form.title]).toEqual([200, 'Choose a password']);
    expect(form.text('.auth-card')).toContain('cara');
    const short = await browser.post('/set-password/save', { ...form.fieldsOf('/set-password/save'), password: 'cara', confirmPassword: 'cara' });
    expect([short.status, short.invalid()]).toEqual([400, ['password']]);
    expect(short.message('password')).toContain('at least 8 characters');
    const common = await browser.post('/set-password/save', { ...short.fieldsOf('/set-password/save'), password: 'password123', confirmPassword: 'password123' });
    expect(common.message('password')).toContain('most common passwords');
    const differ = await browser.post('/set-password/save', { ...common.fieldsOf('/set-password/save'), password: 'cara-chooses-44', confirmPassword: 'cara-chooses-45' });
    expect([differ.invalid(), differ.message('confirmPassword')]).toEqual([['confirmPassword'], 'The two passwords differ']);
    const saved = await browser.post('/set-password/save', { ...differ.fieldsOf('/set-password/save'), password: 'cara-chooses-44', confirmPassword: 'cara-chooses-44' });
    expect([saved.status, saved.location]).toEqual([303, '/projects']);
    expect((await browser.get('/projects')).text('.user-name')).toBe('Cara');
    const later = new Browser(h);
    await later.get('/set-password');
    const ended = await later.post('/set-password', { secret });
    expect([ended.status, ended.title]).toEqual([410, 'This link no longer works']);
    expect(ended.alerts[0]).toContain('expired or has already been used');
    expect(JSON.stringify(h.logs())).not.toContain(secret);
  });

  test('an expired link is refused with the same clear page, and sets nothing', async ({ h }) => {
    const id = (await h.json('POST', '/api/admin/user-admin', { username: 'dan' })).body.id as number;
    const made = await createPasswordLink(h.registry, h.tokenHasher, { userId: id }, { kind: 'admin', name: 'test' }, Date.now() - 25 * 3_600_000);
    if (!made.ok) throw new Error(made.error.message);
    const browser = new Browser(h);
    expect((await browser.get('/set-password')).text('label[for="link-secret"]')).toBe('Code from your link');
    const ended = await browser.post('/set-password', { secret: made.value.secret });
    expect([ended.status, ended.title]).toEqual([410, 'This link no longer works']);
    expect(h.registry.service.state.passwords[String(id)]).toBeUndefined();
  });
});
