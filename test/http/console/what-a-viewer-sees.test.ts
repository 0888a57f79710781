/**
 * What one signed-in person can take from the console, through the app: the history's person filter offers
 * only the people of that project's history, with an email only for who may list users; and one person's
 * sessions hold at most their share of the live-update streams (docs/limits.md "Console live updates").
 */
import { describe, expect } from 'vitest';
import { LIVE_PAGE_STREAMS } from '../../../src/limits.js';
import { harnessTest } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';

const test = harnessTest();

/** Creates a user (root role 1 Admin, 2 Editor, 3 Viewer) with a password; answers their id. */
async function user(h: Harness, fields: Record<string, unknown>): Promise<number> {
  const created = await h.json('POST', '/api/admin/user-admin', { password: 'tulip-harbour-88', ...fields });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

/** A console session of `username` (signed in as a script does, through Unleash's endpoint): its cookie. */
async function sessionOf(h: Harness, username: string): Promise<string> {
  const signedIn = await h.req('POST', '/auth/simple/login', { username, password: 'tulip-harbour-88' }, { token: null });
  expect(signedIn.status).toBe(200);
  return signedIn.headers.get('set-cookie')!.split(';')[0]!;
}

/** A page as the session sees it. */
const page = (h: Harness, cookie: string, path: string) => h.req('GET', path, undefined, { token: null, headers: { cookie } });

/** The person filter's options: value → label. */
async function personOptions(h: Harness, cookie: string): Promise<Record<string, string>> {
  const html = await (await page(h, cookie, '/projects/default/history')).text();
  const select = /<select id="history-by"[^>]*>([\s\S]*?)<\/select>/.exec(html)![1]!;
  return Object.fromEntries([...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]));
}

describe('the history\'s person filter', () => {
  test('offers only the people of this project\'s history; their emails only to who may list users', async ({ h }) => {
    const ann = await user(h, { username: 'ann', name: 'Ann', email: 'ann@example.com', rootRole: 2 });
    const bob = await user(h, { email: 'bob@example.com', rootRole: 2 });
    await user(h, { username: 'carol', email: 'carol@example.com', rootRole: 2 });
    await user(h, { username: 'vera', email: 'vera@example.com', rootRole: 3 });
    await user(h, { username: 'root', rootRole: 1 });
    for (const [id, flag] of [[ann, 'by-ann'], [bob, 'by-bob']] as const) {
      const pat = (await h.json('POST', `/api/admin/user-admin/${id}/tokens`, { description: 'mine' })).body.secret as string;
      expect((await h.json('POST', '/api/admin/projects/default/features', { name: flag }, { token: pat })).status).toBe(201);
    }
    // Carol acts in another project only: she is no person of this history.
    expect((await h.json('POST', '/api/admin/projects', { id: 'other', name: 'Other' })).status).toBe(201);

    const viewer = await personOptions(h, await sessionOf(h, 'vera'));
    expect(viewer).toEqual({ '': 'Anyone', [`user:${ann}`]: 'Ann', [`user:${bob}`]: `User ${bob}` });
    const admin = await personOptions(h, await sessionOf(h, 'root'));
    expect(admin).toEqual({ '': 'Anyone', [`user:${ann}`]: 'Ann', [`user:${bob}`]: 'bob@example.com' });
    for (const options of [viewer, admin]) expect(JSON.stringify(options)).not.toMatch(/carol|vera/);
  });

  test('a person who acts later is offered on the next visit (the log read since the last one)', async ({ h }) => {
    await user(h, { username: 'vera', rootRole: 3 });
    const dan = await user(h, { username: 'dan', name: 'Dan', rootRole: 2 });
    const cookie = await sessionOf(h, 'vera');
    expect(Object.values(await personOptions(h, cookie))).toEqual(['Anyone']);
    const pat = (await h.json('POST', `/api/admin/user-admin/${dan}/tokens`, { description: 'mine' })).body.secret as string;
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'by-dan' }, { token: pat })).status).toBe(201);
    expect(await personOptions(h, cookie)).toEqual({ '': 'Anyone', [`user:${dan}`]: 'Dan' });
  });
});

describe('live-update streams per session and per user', () => {
  test(`a session holds at most ${LIVE_PAGE_STREAMS.perSession}, a user ${LIVE_PAGE_STREAMS.perUser}; past it a 429 that says why; a closed one gives its place back`, async ({ h }) => {
    await user(h, { username: 'vera', rootRole: 3 });
    const open: Response[] = [];
    const stream = async (cookie: string) => {
      const answer = await page(h, cookie, '/projects/default/events');
      if (answer.status === 200) open.push(answer);
      return answer;
    };
    try {
      const first = await sessionOf(h, 'vera');
      for (let i = 0; i < LIVE_PAGE_STREAMS.perSession; i += 1) expect((await stream(first)).status).toBe(200);
      const bySession = await stream(first);
      expect(bySession.status).toBe(429);
      expect(await bySession.text()).toContain(`This session has ${LIVE_PAGE_STREAMS.perSession} live pages open, as many as it may`);
      const sessions = [first];
      while (open.length < LIVE_PAGE_STREAMS.perUser) {
        if (open.length % LIVE_PAGE_STREAMS.perSession === 0) sessions.push(await sessionOf(h, 'vera'));
        expect((await stream(sessions.at(-1)!)).status).toBe(200);
      }
      const byUser = await stream(await sessionOf(h, 'vera'));
      expect(byUser.status).toBe(429);
      expect(await byUser.text()).toContain(`You have ${LIVE_PAGE_STREAMS.perUser} live pages open, as many as you may`);
      // Another person is not held up by Vera's streams.
      await user(h, { username: 'walt', rootRole: 3 });
      expect((await stream(await sessionOf(h, 'walt'))).status).toBe(200);
      await open.shift()!.body!.cancel();
      expect((await stream(first)).status).toBe(200);
    } finally {
      for (const answer of open) await answer.body?.cancel();
    }
  });
});
