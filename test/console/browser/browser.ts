/**
 * What every console test shares: Debian's chromium driven by playwright-core (one per run, each file connected to it), a real
 * server over a socket on a fresh data directory per test (the harness's app served by `serveApp`, restartable
 * over the same directory), sign-in, users with passwords, screenshots and the accessibility check.
 *
 * @example
 * ```ts
 * const browser = useBrowser();
 * const test = consoleTest();
 * test('signs in', async ({ server }) => {
 *   const page = await browser().newPage();
 *   await createUserWithPassword(server, 'ann', 'ann-password-1');
 *   await signIn(page, server, 'ann', 'ann-password-1');
 * });
 * ```
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { ServerType } from '@hono/node-server';
import axe, { type AxeResults } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test as base, vi } from 'vitest';
import { serveApp } from '../../../src/http/server.js';
import { harness, type Harness } from '../../helpers/harness.js';
import { HEAVY_TEST_MS, STATE_TIMEOUT_MS, untilState } from '../../helpers/wait.js';
import { Browser as PageBrowser } from '../page-harness.js';
import { CHROMIUM } from './chromium-server.js';

export { CHROMIUM } from './chromium-server.js';

/** The desktop and phone viewports of the screenshots. */
export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/**
 * The number of listeners following the server's committed feed: each open page with live updates adds one once
 * its event stream is connected. Take it before opening pages, then wait with {@link waitForLiveStreams}.
 */
export const feedListeners = (server: ConsoleServer): number => server.h.registry.feed.subscribers;

/** Waits until `pages` more listeners follow the committed feed than `before`: those pages' live streams are open. */
export async function waitForLiveStreams(server: ConsoleServer, before: number, pages = 1): Promise<void> {
  await expect.poll(() => feedListeners(server), untilState(25)).toBeGreaterThanOrEqual(before + pages);
}

/**
 * Connects to the run's chromium (test/global-setup.ts starts it: chromium-server.ts) before the file's tests and
 * disconnects after them, which closes every context the file opened. A browser test drives a second process
 * through seconds of CPU (pages, axe, screenshots): its file's tests get `HEAVY_TEST_MS` (vitest resets the setting
 * after the file), and every page waits up to `STATE_TIMEOUT_MS` for what it waits on, so a loaded machine makes
 * them slower, never failed.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  vi.setConfig({ testTimeout: HEAVY_TEST_MS });
  beforeAll(async () => {
    const endpoint = inject('chromiumEndpoint');
    if (!endpoint) throw new Error(`chromium is not installed at ${CHROMIUM} (sudo apt-get install -y chromium, or set CHROMIUM_PATH)`);
    const connected = await chromium.connect(endpoint, { timeout: STATE_TIMEOUT_MS });
    // `newPage` opens its context through `newContext`: both get the generous waits.
    const newContext = connected.newContext.bind(connected);
    connected.newContext = async (options) => {
      const context = await newContext(options);
      context.setDefaultTimeout(STATE_TIMEOUT_MS);
      return context;
    };
    browser = connected;
  }, HEAVY_TEST_MS);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('chromium is not connected (useBrowser() registers it for the file)');
    return browser;
  };
}

/** A real server over a socket for one test. */
export interface ConsoleServer {
  h: Harness;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Closes the registry (snapshots, sessions on disk) and opens it again over the same data directory. */
  restart(): Promise<void>;
}

async function serve(h: Harness): Promise<{ server: ServerType; base: string }> {
  const server: ServerType = await new Promise((listening) => {
    const s = serveApp(() => h.app, { port: 0, hostname: '127.0.0.1' }, () => listening(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * A vitest `test` whose `server` fixture is a fresh console server (its env: `readConfig` variables), one per test,
 * or one per file with `scope: 'file'` for a file whose tests only read (say so where it is used).
 */
export function consoleTest(env: Record<string, string> = {}, scope: 'test' | 'file' = 'test') {
  return base.extend<{ server: ConsoleServer }>({
    // vitest reads a fixture's dependencies from its first parameter's destructuring: `{}` is none.
    server: [async ({}, use) => {
      const h = await harness(env);
      const { server, base: url } = await serve(h);
      try {
        await use({ h, base: url, restart: () => h.restart() });
      } finally {
        if ('closeAllConnections' in server) server.closeAllConnections();
        await new Promise((closed) => server.close(closed));
        await h.close();
      }
    }, { scope }],
  });
}

/** Creates a user with a password through the admin API; returns its id. */
export async function createUserWithPassword(server: ConsoleServer, username: string, password: string, rootRole = 3): Promise<number> {
  const res = await server.h.json('POST', '/api/admin/user-admin', { username, name: username[0]!.toUpperCase() + username.slice(1), rootRole, password });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** Signs in through the sign-in form and waits for the page it leads to. */
export async function signIn(page: Page, server: ConsoleServer, username: string, password: string): Promise<void> {
  await page.goto(`${server.base}/login`);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/**
 * A new context (`options`: its viewport, ...) that holds a session of `username`, for a test whose point is not the
 * sign-in: the password form is posted through the app as the page harness does (`../page-harness.ts`), and the
 * session's cookie handed to the context as the server set it (`HttpOnly; SameSite=Strict; Path=/`), so chromium
 * loads neither the sign-in page nor its redirect. `sign-in.test.ts` keeps the form in chromium.
 *
 * @example const page = await (await signedInContext(browser(), server, 'ann', 'ann-secret-42')).newPage();
 */
export async function signedInContext(browser: Browser, server: ConsoleServer, username: string, password: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const harnessBrowser = new PageBrowser(server.h);
  await harnessBrowser.signIn(username, password);
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  await context.addCookies([{ name: 'flagpole-session', value: harnessBrowser.session!, url: server.base, httpOnly: true, sameSite: 'Strict' }]);
  return context;
}

/** A page of a new {@link signedInContext} of `username`, at `path` (`/projects` unless told). */
export async function signedInPage(browser: Browser, server: ConsoleServer, username: string, password: string, path = '/projects', options: BrowserContextOptions = {}): Promise<Page> {
  const page = await (await signedInContext(browser, server, username, password, options)).newPage();
  await page.goto(`${server.base}${path}`);
  return page;
}

/** The session cookie the context holds, or undefined. */
export async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === 'flagpole-session')?.value;
}

/**
 * Serious and critical axe-core violations of the page as it is, as readable lines (empty: none). axe-core runs all
 * its rules in the page itself (`axe.run`), injected once per document: @axe-core/playwright's `analyze()` injected
 * it twice and opened a blank page to finish each run, for cross-origin frames the console's pages do not have, at
 * about four times the CPU per check. Only violations are gathered (`resultTypes`): passes are not asked for.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if ((await page.evaluate('typeof window.axe')) !== 'object') await page.evaluate(axe.source);
  const results = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const SHOTS = resolve(import.meta.dirname, '../../../test-artifacts/screenshots');

/**
 * Saves a full-page screenshot as `test-artifacts/screenshots/<name>.png` (not committed) when
 * `FLAGPOLE_SCREENSHOTS=1`: they are for a person to look at, and no test reads them.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env['FLAGPOLE_SCREENSHOTS'] !== '1') return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Whether the page scrolls sideways at its current width. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  // Run in the page: its globals are the browser's (this file is compiled without the DOM library).
  return page.evaluate('document.documentElement.scrollWidth > window.innerWidth') as Promise<boolean>;
}
