/**
 * The segment pages in chromium, for what only a browser shows: the constraint editor filled and sent, axe and the
 * phone width. The flows and refusals are the page harness's (`../pages/segments.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

interface ApiSegment { id: number; name: string; description: string | null; project: string | null; constraints: { contextName: string; operator: string; values?: string[]; value?: string; inverted: boolean }[] }
const segments = async (server: ConsoleServer): Promise<ApiSegment[]> => (await server.h.json('GET', '/api/admin/segments')).body.segments as ApiSegment[];
const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

/** A flag in `default` whose strategy in development uses segment `id`. */
async function useSegment(server: ConsoleServer, flag: string, id: number): Promise<void> {
  expect((await server.h.json('POST', '/api/admin/projects/default/features', { name: flag })).status).toBe(201);
  const added = await server.h.json('POST', `/api/admin/projects/default/features/${flag}/environments/development/strategies`, { name: 'flexibleRollout', parameters: { rollout: '50' }, segments: [id] });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
}

describe('the segment pages', () => {
  test('an Admin creates and edits a segment, sees where it is used, and deletes an unused one; desktop and phone', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const page = await signedInPage(browser(), server, 'ann', 'ann-secret-42', '/admin/segments');
    expect(await page.getByRole('link', { name: 'Segments' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('link', { name: 'New segment' }).click();
    await page.getByLabel('Name').fill('beta-testers');
    await page.getByLabel('Description (optional)').fill('People who asked for early features');
    await page.getByLabel('Context field').selectOption('userId');
    await page.getByLabel('Operator').selectOption('IN');
    await page.getByLabel('Values').fill('ann\nbob');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.waitForURL(/\/admin\/segments\/\d+\?done=created/);
    let [created] = await segments(server);
    expect(created).toMatchObject({ name: 'beta-testers', description: 'People who asked for early features', project: null, constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann', 'bob'], inverted: false }] });
    expect(await seriousViolations(page)).toEqual([]);

    // Edit: the stored constraint shows as a row; change its values and add a second one.
    const first = page.getByRole('group', { name: 'Constraint 1' });
    await first.getByLabel('Values').fill('ann\nbob\ncarl');
    const fresh = page.getByRole('group', { name: 'Add a constraint' });
    await fresh.getByLabel('Context field').selectOption('appName');
    await fresh.getByLabel('Operator').selectOption('STR_STARTS_WITH');
    await fresh.getByLabel('Values').fill('web');
    await fresh.getByLabel('Invert (NOT)').check();
    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.waitForURL(/done=saved/);
    [created] = await segments(server);
    expect(created!.constraints).toMatchObject([
      { contextName: 'userId', operator: 'IN', values: ['ann', 'bob', 'carl'] },
      { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], inverted: true },
    ]);
    await screenshot(page, 'segment-editor-desktop');

    await useSegment(server, 'checkout', created!.id);
    await server.h.json('POST', '/api/admin/segments', { name: 'unused', constraints: [] });
    await page.goto(`${server.base}/admin/segments`);
    expect(await row(page, 'beta-testers').textContent()).toContain('1 flag');
    expect(await row(page, 'beta-testers').textContent()).toContain('in default');
    expect(await row(page, 'unused').textContent()).toContain('Not used');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'segments-desktop');
    // The segment's page links the flag that uses it: the page harness's (../pages/segments.test.ts).

    await page.getByRole('link', { name: 'unused', exact: true }).click();
    await page.getByText('Delete segment…').click();
    await expect.poll(() => page.getByText('Delete the segment "unused" and its 0 constraints?').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Delete unused' }).click();
    await page.waitForURL(/\/admin\/segments\?done=deleted/);
    expect((await segments(server)).map((s) => s.name)).toEqual(['beta-testers']);

    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}/admin/segments`);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'segments-phone');
    await page.goto(`${server.base}/admin/segments/${created!.id}`);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'segment-editor-phone');
    await page.context().close();
  });

});
