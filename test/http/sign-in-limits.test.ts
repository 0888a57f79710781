/**
 * The sign-in limits under requests sent together, through the app: each attempt is charged before its scrypt
 * (so a burst cannot pass a budget no failure has reached yet), a username and its email share one account's
 * budget, the current password of a change counts as a sign-in, and password checks wait for a few places (a
 * burst past them is a 503, and a write is answered while the burst runs).
 */
import { describe, expect } from 'vitest';
import { PASSWORD_WORK } from '../../src/auth/passwords.js';
import { harnessTest } from '../helpers/fixtures.js';
import type { Harness } from '../helpers/harness.js';

/**
 * The service's own scrypt work (not the harness's lighter one): what these tests race against is a check that
 * takes as long as a real sign-in's, so the places fill and a burst overlaps.
 */
const seams = { passwordWork: PASSWORD_WORK };

/** `POST /auth/simple/login` as a script sends it: JSON, no cookie, no Origin. */
const signIn = (h: Harness, username: string, password: string) => h.req('POST', '/auth/simple/login', { username, password }, { token: null });

/** A user with a password; answers their id. */
async function userWithPassword(h: Harness, username: string, password: string, email?: string): Promise<number> {
  const created = await h.json('POST', '/api/admin/user-admin', { username, password, ...(email ? { email } : {}) });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe('a burst of wrong passwords for one user', () => {
  const test = harnessTest({ env: { LOGIN_FAILURES_PER_USER: '10', LOGIN_FAILURES_PER_ADDRESS: '1000' }, seams });

  test('40 sent at once: 10 are checked (401), 30 refused at once (429); the right password sent meanwhile is refused', async ({ h }) => {
    await userWithPassword(h, 'ann', 'tulip-harbour-88');
    const statuses: number[] = [];
    const burst = Array.from({ length: 40 }, (_, i) => signIn(h, 'ann', `wrong-password-${i}`).then((r) => { statuses.push(r.status); return r; }));
    // The refused ones answer without any scrypt, while the ten charged attempts are still being checked.
    await expect.poll(() => statuses.filter((s) => s === 429).length).toBe(30);
    const right = await signIn(h, 'ann', 'tulip-harbour-88');
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await right.json()) as { message: string }).message).toMatch(/^Too many failed sign-ins; try again in \d+ s$/);
    expect(right.headers.get('set-cookie')).toBeNull();
    await Promise.all(burst);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
  });

  // One at a time, nothing races: the harness's lighter scrypt work checks the same budget.
  const oneByOne = harnessTest({ env: { LOGIN_FAILURES_PER_USER: '10', LOGIN_FAILURES_PER_ADDRESS: '1000' } });

  oneByOne('a right password gives its charge back: a user who signs in 12 times in a minute is never refused', async ({ h }) => {
    await userWithPassword(h, 'ann', 'tulip-harbour-88');
    for (let i = 0; i < 12; i += 1) expect((await signIn(h, 'ann', 'tulip-harbour-88')).status).toBe(200);
    expect((await signIn(h, 'ann', 'wrong-password')).status).toBe(401);
  });
});

describe('the account a name resolves to', () => {
  // Sign-ins one at a time: the harness's lighter scrypt work checks the same budget.
  const test = harnessTest({ env: { LOGIN_FAILURES_PER_USER: '3', LOGIN_FAILURES_PER_ADDRESS: '1000' } });

  test('failures by username and by email count against one budget; an unknown name counts under itself', async ({ h }) => {
    await userWithPassword(h, 'ann', 'tulip-harbour-88', 'ann@example.com');
    expect((await signIn(h, 'ann', 'wrong-password-1')).status).toBe(401);
    expect((await signIn(h, 'ANN@example.com', 'wrong-password-2')).status).toBe(401);
    expect((await signIn(h, ' Ann ', 'wrong-password-3')).status).toBe(401);
    expect((await signIn(h, 'ann@example.com', 'tulip-harbour-88')).status).toBe(429);
    for (let i = 0; i < 3; i += 1) expect((await signIn(h, 'ghost', `wrong-password-${i}`)).status).toBe(401);
    expect((await signIn(h, 'ghost', 'wrong-password')).status).toBe(429);
    expect((await signIn(h, 'ghost@example.com', 'wrong-password')).status).toBe(401);
  });

  test('a wrong current password on change-password counts against the same account', async ({ h }) => {
    const id = await userWithPassword(h, 'ann', 'tulip-harbour-88', 'ann@example.com');
    const pat = (await h.json('POST', `/api/admin/user-admin/${id}/tokens`, { description: 'mine' })).body.secret as string;
    const change = (oldPassword: string) =>
      h.json('POST', '/api/admin/user/change-password', { password: 'meadow-lantern-7', confirmPassword: 'meadow-lantern-7', oldPassword }, { token: pat });
    for (let i = 0; i < 3; i += 1) expect((await change(`guess-${i}-password`)).status).toBe(401);
    const limited = await change('tulip-harbour-88');
    expect(limited.status).toBe(429);
    expect((await signIn(h, 'ann@example.com', 'tulip-harbour-88')).status).toBe(429);
  });
});

describe('the current password on the account page', () => {
  const test = harnessTest({ env: { LOGIN_FAILURES_PER_USER: '3', LOGIN_FAILURES_PER_ADDRESS: '1000' }, seams });

  test('10 wrong ones sent at once: 3 are checked, 7 refused at once (429)', async ({ h }) => {
    await userWithPassword(h, 'ann', 'tulip-harbour-88');
    const cookie = (await signIn(h, 'ann', 'tulip-harbour-88')).headers.get('set-cookie')!.split(';')[0]!;
    const page = await (await h.req('GET', '/account', undefined, { token: null, headers: { cookie } })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    const change = (current: string) => h.req('POST', '/account/password', new URLSearchParams({ _csrf: csrf, currentPassword: current, password: 'meadow-lantern-7', confirmPassword: 'meadow-lantern-7' }).toString(), {
      token: null, headers: { cookie, origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
    });
    const statuses = (await Promise.all(Array.from({ length: 10 }, (_, i) => change(`guess-${i}-password`)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect((await change('tulip-harbour-88')).status).toBe(429);
    expect((await signIn(h, 'ann', 'tulip-harbour-88')).status).toBe(429);
  });
});

describe('password checks wait for a few places', () => {
  const test = harnessTest({ env: { LOGIN_FAILURES_PER_USER: '1000', LOGIN_FAILURES_PER_ADDRESS: '1000' }, seams });
  const narrow = harnessTest({ env: { LOGIN_FAILURES_PER_USER: '2', LOGIN_FAILURES_PER_ADDRESS: '1000', PASSWORD_CHECKS_RUNNING: '1', PASSWORD_CHECKS_WAITING: '2' }, seams });

  narrow('past the checks running and waiting, a sign-in is refused at once with 503, its charge given back', async ({ h }) => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(h, `someone-${i}`, 'wrong-password')));
    const busy = answers.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(answers.filter((r) => r.status === 401).length + busy.length).toBe(12);
    expect(busy[0]!.headers.get('retry-after')).toBe('1');
    expect(((await busy[0]!.json()) as { message: string }).message).toBe('Too many passwords are being checked at once on this server; try again in a moment');
    // Nothing was checked for a refused one, so nothing counted: its name still has its two tries.
    const refused = answers.indexOf(busy[0]!);
    expect((await signIn(h, `someone-${refused}`, 'wrong-password')).status).toBe(401);
    expect((await signIn(h, `someone-${refused}`, 'wrong-password')).status).toBe(401);
    expect((await signIn(h, `someone-${refused}`, 'wrong-password')).status).toBe(429);
  });

  test('an admin write sent during a burst of 12 password checks is answered before most of them', async ({ h }) => {
    const order: string[] = [];
    const burst = Array.from({ length: 12 }, (_, i) => signIn(h, `someone-${i}`, 'wrong-password').then((r) => { order.push(`sign-in ${r.status}`); }));
    const write = h.req('POST', '/api/admin/projects/default/features', { name: 'during-the-burst' }).then((r) => { order.push(`write ${r.status}`); });
    await Promise.all([...burst, write]);
    expect(order.filter((o) => o.startsWith('sign-in'))).toEqual(Array.from({ length: 12 }, () => 'sign-in 401'));
    // scrypt and LevelDB share libuv's pool (4 threads): unbounded, the write would wait behind every check.
    expect(order.indexOf('write 201')).toBeLessThan(6);
  });
});
