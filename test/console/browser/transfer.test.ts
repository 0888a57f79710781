/**
 * A project's export and import in chromium, for what only a browser shows: the export as a download and the
 * import from a chosen file, axe and the phone width. The flows are the page harness's
 * (`../pages/transfer.test.ts`).
 */
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInContext, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

/** Project `web` with `checkout` (a 50 % rollout, on in development) and `banner`. */
async function webProject(server: ConsoleServer): Promise<void> {
  const { h } = server;
  expect((await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web shop' })).status).toBe(201);
  for (const name of ['checkout', 'banner']) expect((await h.json('POST', '/api/admin/projects/web/features', { name, description: `The ${name}` })).status).toBe(201);
  const env = '/api/admin/projects/web/features/checkout/environments/development';
  expect((await h.json('POST', `${env}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'checkout' } })).status).toBe(200);
  expect((await h.req('POST', `${env}/on`)).status).toBe(200);
}

const flagNames = async (server: ConsoleServer, project: string) =>
  ((await server.h.json('GET', `/api/admin/projects/${project}/features`)).body.features as { name: string }[]).map((f) => f.name).sort();

describe('export and import', () => {
  test('exports a download, shows a dry run\'s errors without importing, then imports a valid file', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    await webProject(server);
    const context = await signedInContext(browser(), server, 'ann', 'ann-secret-42', { acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${server.base}/projects/web`);
    await page.getByRole('navigation', { name: 'Project Web shop' }).getByRole('link', { name: 'Export and import' }).click();
    await page.waitForURL(`${server.base}/projects/web/transfer`);
    expect(await page.getByRole('link', { name: 'Export and import' }).getAttribute('aria-current')).toBe('page');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'transfer-desktop');

    // Export: the file the API's export answers, as a download.
    await page.getByLabel('Environment', { exact: true }).selectOption('development');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    expect(download.suggestedFilename()).toBe('web-development.json');
    // Read through its stream: the run's chromium is connected to (browser.ts), and a remote download has no local path.
    const bytes: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) bytes.push(chunk as Buffer);
    const exported = JSON.parse(Buffer.concat(bytes).toString('utf8')) as { features: { name: string }[]; featureStrategies: unknown[] };
    const api = await server.h.json('POST', '/api/admin/features-batch/export', { environment: 'development', project: 'web' });
    expect(exported).toEqual(api.body);
    expect(exported.features.map((f) => f.name)).toEqual(['banner', 'checkout']);
    expect(exported.featureStrategies).toHaveLength(1);

    // Not JSON: the message under the field, nothing written: the page harness's (../pages/transfer.test.ts).

    // The same flags into `default`: they exist in `web`, so the dry run lists an error and offers no import.
    await page.goto(`${server.base}/projects/default/transfer`);
    await page.getByLabel('Or paste the export').fill(JSON.stringify(exported));
    await page.getByRole('button', { name: 'Check (dry run)' }).click();
    await page.waitForURL(`${server.base}/projects/default/transfer/validate`);
    const dryRun = page.locator('.dry-run');
    expect(await dryRun.getByRole('heading', { level: 3 }).first().textContent()).toBe('The dry run found problems: nothing can be imported yet');
    expect(await dryRun.locator('.findings-error p').first().textContent()).toContain('already exist in other projects');
    expect(await dryRun.locator('.findings-error .chip').allTextContents()).toEqual(['banner (in project web)', 'checkout (in project web)']);
    expect(await page.getByRole('button', { name: /^Import/ }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'transfer-dry-run-errors-desktop');
    expect(await flagNames(server, 'default')).toEqual([]);

    // Renamed, from a file: ready, then imported.
    const renamed = JSON.stringify(exported).replaceAll('"checkout"', '"checkout-v2"').replaceAll('"banner"', '"banner-v2"');
    await page.getByLabel('Or paste the export').fill('');
    await page.getByLabel('An export file (JSON)').setInputFiles({ name: 'renamed.json', mimeType: 'application/json', buffer: Buffer.from(renamed) });
    await page.getByRole('button', { name: 'Check (dry run)' }).click();
    await expect.poll(() => page.locator('#dry-run-title').textContent()).toBe('Ready to import 2 flags into development');
    expect(await flagNames(server, 'default')).toEqual([]);
    await screenshot(page, 'transfer-dry-run-ready-desktop');
    await page.getByRole('button', { name: 'Import 2 flags' }).click();
    await page.waitForURL((url) => url.pathname === '/projects/default/transfer' && url.searchParams.get('done') === 'imported');
    expect(await page.getByRole('status').filter({ hasText: 'Imported: 2 created, 0 updated' }).count()).toBe(1);
    expect(await flagNames(server, 'default')).toEqual(['banner-v2', 'checkout-v2']);
    const checkout = (await server.h.json('GET', '/api/admin/projects/default/features/checkout-v2')).body;
    const development = (checkout.environments as { name: string; enabled: boolean; strategies: { name: string; parameters: Record<string, string> }[] }[]).find((e) => e.name === 'development')!;
    expect(development.enabled).toBe(true);
    expect(development.strategies.map((s) => [s.name, s.parameters['rollout']])).toEqual([['flexibleRollout', '50']]);

    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}/projects/default/transfer`);
    await page.getByLabel('Or paste the export').fill(JSON.stringify(exported));
    await page.getByRole('button', { name: 'Check (dry run)' }).click();
    await page.waitForURL(`${server.base}/projects/default/transfer/validate`);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'transfer-phone');
    await context.close();
  });

});
