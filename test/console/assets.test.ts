/**
 * The console's styles are kept in parts (`src/console/static/css/`) and served as one stylesheet: the sign-in
 * page links it under its content hash, and it holds every part, in cascade order, immutable.
 */
import { expect } from 'vitest';
import { harnessTest } from '../helpers/fixtures.js';

const test = harnessTest();

test('the sign-in page links one stylesheet holding every part in order, cached for good', async ({ h }) => {
  const page = await (await h.req('GET', '/login', undefined, { token: null })).text();
  const href = /<link rel="stylesheet" href="(\/assets\/console\.[0-9a-f]{12}\.css)"/.exec(page)?.[1];
  expect(href).toBeDefined();
  const css = await h.req('GET', href!, undefined, { token: null });
  expect([css.status, css.headers.get('content-type'), css.headers.get('cache-control')]).toEqual([200, 'text/css; charset=utf-8', 'public, max-age=31536000, immutable']);
  const text = await css.text();
  // One rule of each part, first to last: the phone's flag table comes after the flag table's own rules.
  const marks = [':root {', '/* Projects */', '/* History, past view, comparison */', '/* Flag page */', '/* insight pages', '/* users, account and tokens pages */', '.filter-toggle, .filter-toggle-label'];
  const at = marks.map((mark) => text.indexOf(mark));
  expect(at.every((i) => i >= 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect((await h.req('GET', href!.replace(/\.[0-9a-f]{12}\./, '.000000000000.'), undefined, { token: null })).status).toBe(404);
});
