/**
 * Signing in on several nodes of one database (docs/operations.md "Several nodes"): a session made on one node
 * opens pages on every other at once; a sign-out, or "sign out everywhere", on one node ends it on every node
 * (told by a signal, not found at the next expiry); a last use on one node keeps the session alive on a node
 * that saw it long ago; and the failed sign-in budget is one budget whichever node an attempt reaches.
 */
import { describe, expect, test, vi } from 'vitest';
import { PASSWORD_WORK } from '../../src/auth/passwords.js';
import { sessionKey } from '../../src/auth/session-keys.js';
import { keys } from '../../snapshots/keys.js';
import { clusterForTest } from '../helpers/cluster.js';
import type { Harness } from '../helpers/harness.js';
import { storeOf } from '../helpers/store-of.js';
import { HEAVY_TEST_MS } from '../helpers/wait.js';

// Several nodes on one PostgreSQL in one process: seconds of work each, far more on a loaded machine.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

async function nodes(count: number, env: Record<string, string> = {}, options: Parameters<typeof clusterForTest>[2] = {}): Promise<Harness[]> {
  const current = await clusterForTest(count, env, options);
  return current.nodes;
}

/** `POST /auth/simple/login` as a script sends it. */
const signIn = (h: Harness, username: string, password: string) => h.req('POST', '/auth/simple/login', { username, password }, { token: null });

/** Signs `username` in on `h`; answers the session cookie (`name=value`). */
async function sessionOn(h: Harness, username: string, password: string): Promise<string> {
  const answer = await signIn(h, username, password);
  expect(answer.status).toBe(200);
  return answer.headers.get('set-cookie')!.split(';')[0]!;
}

/** The status of the account page on `h` with `cookie`: 200 while the session lives, 303 (to sign in) once it has ended. */
const accountStatus = async (h: Harness, cookie: string) => (await h.req('GET', '/account', undefined, { token: null, headers: { cookie } })).status;

/** Posts a console form of the session `cookie` on `h` (its CSRF token read from the account page). */
async function postForm(h: Harness, cookie: string, path: string): Promise<number> {
  const page = await (await h.req('GET', '/account', undefined, { token: null, headers: { cookie } })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
  const headers = { cookie, origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' };
  return (await h.req('POST', path, new URLSearchParams({ _csrf: csrf }).toString(), { token: null, headers })).status;
}

/** A user with a password, known to every node. */
async function userOnAll(all: Harness[], username: string, password: string): Promise<number> {
  const created = await all[0]!.json('POST', '/api/admin/user-admin', { username, password, rootRole: 'Editor' });
  expect(created.status).toBe(201);
  for (const node of all) await expect.poll(async () => (await node.json('GET', `/api/admin/user-admin/${created.body.id}`)).status).toBe(200);
  return created.body.id;
}

describe('sessions on several nodes', () => {
  test('made on one node, a session opens pages on the others at once; signed out on one, it ends on every node', async () => {
    const [a, b, c] = await nodes(3);
    await userOnAll([a!, b!, c!], 'ann', 'tulip-harbour-88');
    const cookie = await sessionOn(a!, 'ann', 'tulip-harbour-88');
    // Neither b nor c held it: each reads it from the store on its first request.
    expect(await accountStatus(b!, cookie)).toBe(200);
    expect(await accountStatus(c!, cookie)).toBe(200);
    const hash = sessionKey(a!.tokenHasher, cookie.split('=')[1]!);
    expect([...c!.registry.sessions.records()]).toHaveLength(1);

    expect(await postForm(a!, cookie, '/logout')).toBe(303);
    // c held it in memory: the signal drops it there, the store's delete everywhere.
    await expect.poll(() => c!.registry.sessions.use(hash)).toBeUndefined();
    expect(await accountStatus(c!, cookie)).toBe(303);
    expect(await accountStatus(b!, cookie)).toBe(303);
    expect(await storeOf(b!.registry).get(keys.session(hash))).toBeUndefined();
  });

  test('"sign out everywhere" on one node ends the sessions made on the others', async () => {
    const [a, b, c] = await nodes(3);
    await userOnAll([a!, b!, c!], 'ann', 'tulip-harbour-88');
    const onB = await sessionOn(b!, 'ann', 'tulip-harbour-88');
    const onC = await sessionOn(c!, 'ann', 'tulip-harbour-88');
    const onA = await sessionOn(a!, 'ann', 'tulip-harbour-88');
    for (const [node, cookie] of [[b!, onB], [c!, onC], [c!, onB]] as const) expect(await accountStatus(node, cookie)).toBe(200);
    expect(await postForm(a!, onA, '/account/sessions/end')).toBe(303);
    for (const node of [a!, b!, c!]) {
      await expect.poll(() => [...node.registry.sessions.records()].length).toBe(0);
      for (const cookie of [onA, onB, onC]) expect(await accountStatus(node, cookie)).toBe(303);
    }
  });

  test('a last use on one node keeps the session alive on a node that saw it long before', async () => {
    const idleMs = 60 * 60_000;
    const [a, b] = await nodes(2, { SESSION_IDLE_MINUTES: '60' });
    const t0 = Date.now();
    const record = { userId: 1, tokenHash: null, passwordStamp: 'stamp', createdAt: t0, lastUsedAt: t0 };
    await a!.registry.sessions.create('h1', record);
    // b uses it at t0 + 45 min: its last use reaches the store (due: at most once a minute).
    expect(await b!.registry.sessions.lookup('h1', t0 + 0.75 * idleMs)).toMatchObject({ userId: 1 });
    await expect.poll(async () => JSON.parse((await storeOf(a!.registry).get(keys.session('h1')))!).lastUsedAt).toBe(t0 + 0.75 * idleMs);
    // At t0 + 90 min a's own copy has been idle too long, the store's has not: a asks the store and keeps it.
    expect(await a!.registry.sessions.lookup('h1', t0 + 1.5 * idleMs)).toMatchObject({ userId: 1, lastUsedAt: t0 + 1.5 * idleMs });
    expect(await storeOf(b!.registry).get(keys.session('h1'))).toBeDefined();
    // Idle on every node past the limit: it ends, and the store forgets it.
    expect(await b!.registry.sessions.lookup('h1', t0 + 3 * idleMs)).toBeUndefined();
    await expect.poll(() => storeOf(a!.registry).get(keys.session('h1'))).toBeUndefined();
  });
});

describe('the failed sign-in budget on several nodes', () => {
  test('40 wrong passwords spread over 3 nodes: 10 are checked, 30 refused; the right one is then refused on every node', async () => {
    // The service's own scrypt work: the 40 checks overlap as real sign-ins' do, so a charge made after a check would show.
    const all = await nodes(3, { LOGIN_FAILURES_PER_USER: '10', LOGIN_FAILURES_PER_ADDRESS: '1000' }, { passwordWork: PASSWORD_WORK });
    await userOnAll(all, 'ann', 'tulip-harbour-88');
    const statuses = (await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(all[i % 3]!, 'ann', `wrong-password-${i}`)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    for (const node of all) {
      const right = await signIn(node, 'ann', 'tulip-harbour-88');
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  test('a right password gives its charge back on whichever node took it', async () => {
    const all = await nodes(2, { LOGIN_FAILURES_PER_USER: '3', LOGIN_FAILURES_PER_ADDRESS: '1000' });
    await userOnAll(all, 'ann', 'tulip-harbour-88');
    for (let i = 0; i < 8; i += 1) expect((await signIn(all[i % 2]!, 'ann', 'tulip-harbour-88')).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await signIn(all[i % 2]!, 'ann', `wrong-${i}-password`)).status).toBe(401);
    expect((await signIn(all[1]!, 'ann', 'tulip-harbour-88')).status).toBe(429);
  });
});
