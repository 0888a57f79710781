/**
 * The project list in chromium, for what only a browser shows: the new-project form, axe, the phone width, and a
 * form another site posts in the browser (the session cookie's SameSite) changing nothing. The rest is the page
 * harness's (`../pages/projects.test.ts`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, sessionCookie, signedInPage, signIn, useBrowser } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const projectIds = async (server: { h: { json: (m: string, p: string) => Promise<{ body: any }> } }) =>
  ((await server.h.json('GET', '/api/admin/projects')).body.projects as { id: string }[]).map((p) => p.id).sort();

describe('the project list', () => {
  test('an Admin sees every project with its counts and creates one; desktop and phone', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    await server.h.json('POST', '/api/admin/projects', { id: 'checkout', name: 'Checkout', description: 'Cart, payment and order confirmation' });
    for (const name of ['new-cart', 'express-pay']) await server.h.json('POST', '/api/admin/projects/checkout/features', { name });
    const page = await signedInPage(browser(), server, 'ann', 'ann-secret-42');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Checkout' }) });
    await expect.poll(() => card.locator('dd').first().textContent()).toBe('2');
    expect(await page.getByRole('link', { name: 'Projects' }).getAttribute('aria-current')).toBe('page');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'projects-desktop');
    await page.getByText('New project').click();
    await page.getByLabel('Name').fill('Search');
    await page.getByLabel('Id').fill('search');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(`${server.base}/projects/search`);
    await expect.poll(() => page.getByRole('heading', { name: 'Flags', exact: true }).count()).toBe(1);
    expect(await projectIds(server)).toEqual(['checkout', 'default', 'search']);
    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}/projects`);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'projects-phone');
    await page.context().close();
  });

});

describe('CSRF', () => {
  test('a form posted from another site, or without the session\'s token, changes nothing', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, server, 'ann', 'ann-secret-42');
    // Another site (localhost is another site than 127.0.0.1) whose page posts the form on load.
    const evil: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<form id="f" method="post" action="${server.base}/projects"><input name="id" value="evil"><input name="name" value="Evil"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((listening) => evil.listen(0, '127.0.0.1', listening));
    try {
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      await page.waitForURL((url) => url.origin === server.base);
      expect(await projectIds(server)).toEqual(['default']);
    } finally {
      evil.close();
    }
    // The session's cookie and its own origin, but no token; then a token with another origin.
    const cookie = `flagpole-session=${await sessionCookie(context)}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie };
    const csrf = JSON.parse((await (await page.goto(`${server.base}/projects`))!.text()).match(/hx-headers="([^"]+)"/)![1]!.replace(/&quot;/g, '"'))['X-CSRF-Token'] as string;
    for (const [headers, body] of [
      [{ ...form, origin: server.base }, { id: 'no-token', name: 'No token' }],
      [{ ...form, origin: 'http://localhost:1' }, { _csrf: csrf, id: 'other-origin', name: 'Other origin' }],
      [{ ...form }, { _csrf: csrf, id: 'no-origin', name: 'No origin' }],
    ] as const) {
      const res = await fetch(`${server.base}/projects`, { method: 'POST', headers, body: new URLSearchParams(body), redirect: 'manual' });
      expect(res.status).toBe(403);
    }
    expect(await projectIds(server)).toEqual(['default']);
    const accepted = await fetch(`${server.base}/projects`, { method: 'POST', headers: { ...form, origin: server.base }, body: new URLSearchParams({ _csrf: csrf, id: 'fine', name: 'Fine' }), redirect: 'manual' });
    expect(accepted.status).toBe(303);
    expect(await projectIds(server)).toEqual(['default', 'fine']);
    await context.close();
  });
});
