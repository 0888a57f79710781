/**
 * Console requests an attacker can send without signing in (or with any session) that once answered 500 with a
 * stack trace in the log: each is a clear 4xx now, and nothing is logged as an internal error.
 * - a CSRF token of the right length holding a non-ASCII character (compared as bytes of different length);
 * - a `multipart/form-data` body without its boundary, on every kind of console POST;
 * - `HX-Request` with an `HX-Current-URL` that is no URL, on a page without a session.
 */
import { describe, expect } from 'vitest';
import { harnessTest } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';

const test = harnessTest();
/** The app's own origin, as an in-process request names it. */
const ORIGIN = 'http://localhost';

/** A signed-in admin's session cookie and CSRF token, through Unleash's sign-in (a script needs no page for it). */
async function session(h: Harness): Promise<{ cookie: string; csrf: string }> {
  expect((await h.json('POST', '/api/admin/user-admin', { username: 'ann', password: 'tulip-harbour-88', rootRole: 1 })).status).toBe(201);
  const signedIn = await h.req('POST', '/auth/simple/login', { username: 'ann', password: 'tulip-harbour-88' }, { token: null });
  expect(signedIn.status).toBe(200);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await h.req('GET', '/projects', undefined, { token: null, headers: { cookie } })).text();
  const csrf = /hx-headers="[^"]*X-CSRF-Token&quot;:&quot;([^&]+)&quot;/.exec(page)?.[1] ?? /"X-CSRF-Token":"([^"]+)"/.exec(page)?.[1];
  expect(csrf).toBeTruthy();
  return { cookie, csrf: csrf! };
}

/** The same length in characters, one more byte in UTF-8. */
const widened = (token: string) => `é${token.slice(1)}`;

const internalErrors = (h: Harness) => h.logs().filter((line) => line['msg'] === 'internal error');

describe('a CSRF token of the right length with a non-ASCII character', () => {
  test('is refused (403) as a form field and as the htmx header, signed in or not', async ({ h }) => {
    const { cookie, csrf } = await session(h);
    const form = (token: string) => new URLSearchParams({ _csrf: token, name: 'sneaky' }).toString();
    const posted = await h.req('POST', '/projects/default/features', form(widened(csrf)), {
      token: null, headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(403);
    const htmx = await h.req('POST', '/projects/default/features', form(''), {
      token: null, headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': widened(csrf), 'hx-request': 'true' },
    });
    expect(htmx.status).toBe(403);
    // Before a session: the sign-in form's token (a keyed hash of the same length).
    const login = await h.req('POST', '/login', new URLSearchParams({ _csrf: widened(csrf), username: 'ann', password: 'tulip-harbour-88' }).toString(), {
      token: null, headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(login.status).toBe(403);
    expect((await h.json('GET', '/api/admin/projects/default/features/sneaky')).status).toBe(404);
    expect(internalErrors(h)).toEqual([]);
  });
});

describe('a multipart body without its boundary', () => {
  test.for([
    ['/login', false],
    ['/login/token', false],
    ['/projects/default/features', true],
    ['/projects/default/bulk', true],
    ['/stale/default/bulk', true],
    ['/projects/default/transfer/validate', true],
    ['/projects/default/transfer/import', true],
  ] as const)('POST %s: 400 saying the form could not be read', async ([path, signedIn], { h }) => {
    const cookie = signedIn ? (await session(h)).cookie : undefined;
    const answer = await h.req('POST', path, '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n', {
      token: null, headers: { origin: ORIGIN, 'content-type': 'multipart/form-data', ...(cookie ? { cookie } : {}) },
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('could not be read as multipart/form-data');
    expect(internalErrors(h)).toEqual([]);
  });
});

describe('an htmx request without a session', () => {
  test.for(['http://[', 'http://exa mple/', 'http://evil.example/projects'])('HX-Current-URL %j: the browser is sent to the sign-in page alone', async (current, { h }) => {
    const answer = await h.req('GET', '/projects/default', undefined, { token: null, headers: { 'hx-request': 'true', 'hx-current-url': current } });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('hx-redirect')).toBe('/login');
    expect(internalErrors(h)).toEqual([]);
  });

  test('a page of this site is remembered as where to go after signing in', async ({ h }) => {
    const answer = await h.req('GET', '/projects/default', undefined, { token: null, headers: { 'hx-request': 'true', 'hx-current-url': 'http://localhost/projects/default?q=a' } });
    expect(answer.headers.get('hx-redirect')).toBe(`/login?next=${encodeURIComponent('/projects/default?q=a')}`);
  });
});
