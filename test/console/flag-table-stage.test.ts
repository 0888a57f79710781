/**
 * The flag table's status column shows each flag's lifecycle stage (docs/api-decisions.md "Feature lifecycle")
 * beside its staleness mark, in chromium, as the admin API answers it.
 */
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, signIn, useBrowser } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const FLAGS = '/api/admin/projects/default/features';

describe('the flag table', () => {
  test('shows the lifecycle stage of each flag: initial, and completed once marked so through the API', async ({ server }) => {
    for (const name of ['fresh', 'finished']) expect((await server.h.json('POST', FLAGS, { name })).status).toBe(201);
    expect((await server.h.json('POST', `${FLAGS}/finished/lifecycle/complete`, { status: 'kept' })).status).toBe(200);
    expect((await server.h.json('GET', `${FLAGS}/finished`)).body.lifecycle.stage).toBe('completed');

    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const page = await (await browser().newContext({ viewport: DESKTOP })).newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, server, 'ann', 'ann-secret-42');
    await page.goto(`${server.base}/projects/default`);
    expect(await page.locator('tbody[data-flag="fresh"] .stage').textContent()).toBe('Initial');
    expect(await page.locator('tbody[data-flag="finished"] .stage').textContent()).toBe('Completed');
    expect(await page.locator('tbody[data-flag="finished"] .mark').textContent()).toBe('Active');
  });
});
