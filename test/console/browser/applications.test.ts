/**
 * The applications pages in chromium, for what only a browser shows: the list, an application's page and the flag
 * page's applications, searched by the form, with axe and at phone width (rows as cards). The flows are the page
 * harness's (`../pages/applications.test.ts`).
 */
import { describe, expect } from 'vitest';
import { clientToken, createFlag, nodeMetricsBody, nodeRegisterBody, postMetrics } from '../../http/usage/usage-fixtures.js';
import { consoleTest, createUserWithPassword, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

/** Registers `appName` from `instanceId` with the client token and reports `flags` evaluated once each. */
async function sdk(server: ConsoleServer, token: string, appName: string, instanceId: string, flags: string[]): Promise<void> {
  const registered = await server.h.req('POST', '/api/client/register', nodeRegisterBody(appName, instanceId), { token });
  expect(registered.status).toBe(202);
  if (flags.length > 0) await postMetrics(server.h, token, nodeMetricsBody(Object.fromEntries(flags.map((f) => [f, { yes: 1, no: 0, variants: {} }])), appName, instanceId));
}

describe('applications', () => {
  test('registered SDKs are listed with instances, SDK versions and environments; an application\'s page and the flag page show what it reads', async ({ server }) => {
    await createUserWithPassword(server, 'ann', 'ann-secret-42', 1);
    await createFlag(server.h, 'checkout');
    await createFlag(server.h, 'dark-mode');
    const token = await clientToken(server.h);
    await sdk(server, token, 'checkout-service', 'pod-1', ['checkout']);
    await sdk(server, token, 'checkout-service', 'pod-2', ['checkout']);
    await sdk(server, token, 'billing-worker', 'worker-1', []);
    await server.h.registry.usage.flush();
    // The API says the same: the applications and the flag's seen applications.
    const apps = await server.h.json('GET', '/api/admin/metrics/applications');
    expect((apps.body.applications as { appName: string }[]).map((a) => a.appName)).toEqual(['billing-worker', 'checkout-service']);
    expect((await server.h.json('GET', '/api/admin/client-metrics/features/checkout')).body.seenApplications).toEqual(['checkout-service']);

    const page = await signedInPage(browser(), server, 'ann', 'ann-secret-42');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Applications' }).click();
    await page.waitForURL(`${server.base}/applications`);
    expect(await page.getByRole('link', { name: 'Applications' }).getAttribute('aria-current')).toBe('page');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'checkout-service' }) });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['2', 'unleash-node-sdk:6.12.1', 'development', expect.stringMatching(/UTC$/)]);
    expect(await page.getByText('1–2 of 2 applications').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'applications-desktop');

    await page.getByLabel('Application name').fill('billing');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(`${server.base}/applications?q=billing`);
    expect(await page.getByRole('link', { name: 'billing-worker' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'checkout-service' }).count()).toBe(0);

    await page.goto(`${server.base}/applications`);
    await page.getByRole('link', { name: 'checkout-service' }).click();
    await page.waitForURL(`${server.base}/applications/checkout-service`);
    const instances = page.getByRole('region', { name: 'Instances' });
    expect(await instances.getByRole('rowheader').allTextContents()).toEqual(['pod-2', 'pod-1']);
    const flags = page.getByRole('region', { name: 'Flags it reads' });
    expect(await flags.getByRole('rowheader').allTextContents()).toEqual(['checkout']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'application-desktop');

    await flags.getByRole('link', { name: 'checkout' }).click();
    await page.waitForURL(`${server.base}/projects/default/features/checkout`);
    const section = page.getByRole('region', { name: 'Applications' });
    expect(await section.getByRole('link').allTextContents()).toEqual(['checkout-service']);
    expect(await seriousViolations(page)).toEqual([]);
    // A flag no application reported is said so: the page harness's (../pages/applications.test.ts).

    await page.setViewportSize(PHONE);
    for (const [path, name] of [['/applications', 'applications-phone'], ['/applications/checkout-service', 'application-phone']] as const) {
      await page.goto(`${server.base}${path}`);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, name);
    }
    await page.context().close();
  });

});
