/**
 * The history pages in chromium, for what only a browser shows: the timeline's filters and the project as it was,
 * clicked through, with axe and at phone width. The pages' contents are the page harness's
 * (`../pages/history.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { flagPath } from '../../helpers/flags.js';
import { story } from '../history-story.js';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, signedInContext, useBrowser } from './browser.js';

const browser = useBrowser();
/**
 * Both tests only read (the second proves it: no record written by its visit): one server with the story, and one
 * page signed in as Ann, for the file.
 */
const test = consoleTest({}, 'file').extend<{ page: Page }>({
  page: [async ({ server }, use) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    await story(server.h);
    const context = await signedInContext(browser(), server, 'ann', 'ann-secret-42');
    try {
      await use(await context.newPage());
    } finally {
      await context.close();
    }
  }, { scope: 'file' }],
});


/** A history entry by its heading. */
const entry = (page: Page, title: string) => page.locator('li.entry').filter({ has: page.locator('.entry-title', { hasText: title }) });

/** The texts of a diff line's parts: path, then each side's label and value. */
async function diffLines(page: Page, scope: string): Promise<string[]> {
  return (await page.locator(`${scope} .diff-line`).allTextContents()).map((line) => line.replace(/\s+/g, ' ').trim());
}

describe('the history pages', () => {
  test('the timeline shows each change with its before and after, and the filters narrow it', async ({ server, page }) => {
    await page.setViewportSize(DESKTOP);
    const response = await page.goto(`${server.base}/projects/default/history`);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole('link', { name: 'History' }).getAttribute('aria-current')).toBe('page');

    const switched = entry(page, 'Switched on');
    expect(await switched.count()).toBe(1);
    expect(await switched.locator('.entry-title').textContent()).toContain('checkout');
    expect(await switched.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // Before and after are said in words, not by colour alone.
    expect(await diffLines(page, 'li.entry:has(.entry-title:has-text("Switched on"))')).toEqual(['development: before off → after on']);
    expect(await switched.locator('.diff-before del').textContent()).toBe('off');
    expect(await switched.locator('.diff-after ins').textContent()).toBe('on');
    expect(await diffLines(page, 'li.entry:has(.entry-title:has-text("Strategy changed"))')).toEqual([
      'development › flexibleRollout › rollout: before 10 → after 50',
      'development › flexibleRollout › constraint userId IN › values: added c removed b',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'history-desktop');

    // Kind of change: only the switch.
    await page.getByLabel('Kind of change').selectOption('switch');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('kind') === 'switch');
    expect(await page.locator('li.entry .entry-title').allTextContents()).toEqual(['Switched on · checkout in development']);
    // Flag: the flag's timeline, newest first.
    await page.goto(`${server.base}/projects/default/history`);
    await page.getByLabel('Flag').fill('search');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('feature') === 'search');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('History of search');
    expect(await page.locator('li.entry .entry-title').allTextContents()).toEqual(['Flag created · search']);
    // The person and time filters, and a date that is not one, are addresses the page harness opens (../pages/history.test.ts).

    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}/projects/default/history`);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'history-phone');
  });

  test('the project as it was shows the old state, read-only, and changes nothing', async ({ server, page }) => {
    await page.setViewportSize(DESKTOP);
    const flagNow = (await server.h.json('GET', flagPath('checkout'))).body;
    const development = (flag: { environments: { name: string; enabled: boolean }[] }) => flag.environments.find((e) => e.name === 'development')!.enabled;
    expect(development(flagNow)).toBe(true);
    const seqBefore = server.h.registry.project('default')!.seq;

    // From the history: the moment right after the strategy was added, before the switch.
    await page.goto(`${server.base}/projects/default/history?kind=strategy`);
    const added = entry(page, 'Strategy added');
    await added.getByRole('link', { name: 'Show the project as it was after this change' }).click();
    await page.waitForURL((url) => url.pathname === '/projects/default/at');
    const banner = page.getByRole('status');
    expect(await banner.textContent()).toContain('You are looking at Default as it was at');
    expect(await banner.textContent()).toContain('Nothing here can be changed.');
    const row = page.locator('tbody.past-flag').filter({ has: page.getByRole('rowheader', { name: 'checkout' }) });
    const environments = await page.locator('.past-table thead th').allTextContents();
    const cell = row.locator('tr').first().locator('th, td').nth(environments.indexOf('development'));
    expect(await cell.textContent()).toBe('Off');
    // search did not exist yet.
    expect(await page.getByRole('rowheader', { name: 'search' }).count()).toBe(0);
    await row.getByText('Strategies and variants').click();
    expect(await row.locator('.params').textContent()).toContain('rollout10');
    expect(await row.locator('.constraints').textContent()).toBe('userId IN [a, b]');
    // What a person typed is shown as text, never as markup.
    expect(await row.locator('.past-details-body > p').first().textContent()).toBe('The <b>new</b> checkout');
    expect(await page.locator('main b').count()).toBe(0);
    expect(await row.getByRole('link', { name: 'Changes to checkout up to this moment' }).getAttribute('href')).toMatch(/^\/projects\/default\/history\?feature=checkout&to=/);
    // Nothing can change anything: no form that posts, no switch, no input but the moment form's.
    expect(await page.locator('main form[method=post]').count()).toBe(0);
    expect(await page.locator('main [role=switch], main input[type=checkbox]').count()).toBe(0);
    expect(await page.locator('main form').count()).toBe(1);
    expect(await page.locator('main form[method=get]').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'past-desktop');

    // Another moment, chosen in the form: after the switch, checkout is on and search exists.
    const { afterSwitch } = await (async () => {
      const history = (await server.h.json('GET', '/api/admin/events?project=default&limit=100')).body.events as { type: string; at: string }[];
      return { afterSwitch: history.find((e) => e.type === 'flag.created' && (e as unknown as { feature: string }).feature === 'search')!.at };
    })();
    await page.getByLabel('Show the project as it was at').fill(afterSwitch.slice(0, -1));
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('t') !== null && url.searchParams.get('t')!.startsWith(afterSwitch.slice(0, 19)));
    expect(await page.getByRole('rowheader', { name: 'search' }).count()).toBe(1);
    const onThen = page.locator('tbody.past-flag').filter({ has: page.getByRole('rowheader', { name: 'checkout' }) }).locator('tr').first().locator('th, td').nth(environments.indexOf('development'));
    expect(await onThen.textContent()).toBe('On');

    await page.setViewportSize(PHONE);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'past-phone');

    // Read back: the flag as it was before the visit, and no record written.
    expect((await server.h.json('GET', flagPath('checkout'))).body).toEqual(flagNow);
    expect(server.h.registry.project('default')!.seq).toBe(seqBefore);
  });

});
