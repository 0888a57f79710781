/**
 * The flag table's stage column kept live in chromium: an SDK report that moves a flag to pre-live redraws its row
 * without a reload. The column itself is the page harness's (`../pages/flag-table.test.ts`).
 */
import { describe, expect } from 'vitest';
import { untilState } from '../../helpers/wait.js';
import { clientToken, nodeMetricsBody, postMetrics } from '../../http/usage/usage-fixtures.js';
import { consoleTest, createUserWithPassword, feedListeners, signedInContext, useBrowser, waitForLiveStreams } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const FLAGS = '/api/admin/projects/default/features';

describe('the flag table', () => {

  test('live: an SDK report that moves a flag to pre-live redraws its stage without a reload (its version does not move)', async ({ server }) => {
    expect((await server.h.json('POST', FLAGS, { name: 'seen' })).status).toBe(201);
    const version = (await server.h.json('GET', `${FLAGS}/seen`)).headers.get('etag');
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    const page = await (await signedInContext(browser(), server, 'ann', 'ann-secret-42')).newPage();
    const listeners = feedListeners(server);
    await page.goto(`${server.base}/projects/default`);
    await waitForLiveStreams(server, listeners);
    expect(await page.locator('tbody[data-flag="seen"] .stage').textContent()).toBe('Initial');
    await postMetrics(server.h, await clientToken(server.h, 'development'), nodeMetricsBody({ seen: { yes: 1, no: 0, variants: {} } }));
    await expect.poll(() => page.locator('tbody[data-flag="seen"] .stage').textContent(), untilState()).toBe('Pre-live');
    expect((await server.h.json('GET', `${FLAGS}/seen`)).headers.get('etag')).toBe(version);
    await page.context().close();
  });
});
