/**
 * The applications pages through the app: SDKs registered and reporting through the client API with a client
 * token are listed (searched and paged by the server), an application's page shows its instances and the flags
 * it reads, and the flag page names the applications that read the flag; read back through the API.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { clientToken, createFlag, nodeMetricsBody, nodeRegisterBody, postMetrics } from '../../http/usage/usage-fixtures.js';
import { pageTest } from '../page-harness.js';

const test = pageTest();

/** Registers `appName` from `instanceId` with the client token and reports `flags` evaluated once each. */
async function sdk(h: Harness, token: string, appName: string, instanceId: string, flags: string[]): Promise<void> {
  expect((await h.req('POST', '/api/client/register', nodeRegisterBody(appName, instanceId), { token })).status).toBe(202);
  if (flags.length > 0) await postMetrics(h, token, nodeMetricsBody(Object.fromEntries(flags.map((f) => [f, { yes: 1, no: 0, variants: {} }])), appName, instanceId));
}

describe('applications', () => {
  test('registered SDKs are listed with instances, SDK versions and environments; an application\'s page and the flag page show what it reads', async ({ h, pages }) => {
    await createFlag(h, 'checkout');
    await createFlag(h, 'dark-mode');
    const token = await clientToken(h);
    await sdk(h, token, 'checkout-service', 'pod-1', ['checkout']);
    await sdk(h, token, 'checkout-service', 'pod-2', ['checkout']);
    await sdk(h, token, 'billing-worker', 'worker-1', []);
    await h.registry.usage.flush();
    // The API says the same: the applications and the flag's seen applications.
    expect(((await h.json('GET', '/api/admin/metrics/applications')).body.applications as { appName: string }[]).map((a) => a.appName)).toEqual(['billing-worker', 'checkout-service']);
    expect((await h.json('GET', '/api/admin/client-metrics/features/checkout')).body.seenApplications).toEqual(['checkout-service']);

    const ann = await pages.as('ann', 1);
    const list = await ann.get('/applications');
    expect(list.doc.querySelector('nav[aria-label="Main"] a[aria-current="page"]')?.textContent).toBe('Applications');
    const row = [...list.doc.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('th')?.textContent === 'checkout-service')!;
    expect([...row.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())).toEqual(['2', 'unleash-node-sdk:6.12.1', 'development', expect.stringMatching(/UTC$/)]);
    expect(list.text('.pager-status')).toBe('1–2 of 2 applications');
    expect((await ann.get('/applications?q=billing')).texts('tbody th a')).toEqual(['billing-worker']);

    const app = await ann.get('/applications/checkout-service');
    expect(app.texts('[aria-labelledby="app-instances"] tbody th')).toEqual(['pod-2', 'pod-1']);
    expect(app.texts('[aria-labelledby="app-flags"] tbody th')).toEqual(['checkout']);
    expect(app.doc.querySelector('[aria-labelledby="app-flags"] tbody th a')?.getAttribute('href')).toBe('/projects/default/features/checkout');

    const flag = await ann.get('/projects/default/features/checkout');
    expect(flag.texts('section[aria-labelledby="apps-title"] a')).toEqual(['checkout-service']);
    expect((await ann.get('/projects/default/features/dark-mode')).text('section[aria-labelledby="apps-title"]')).toContain('No application reported this flag');
  });

  test('the list is paged by the server; an unknown application is a "Page not found" page; a Viewer reads the list', async ({ h, pages }) => {
    const token = await clientToken(h);
    for (let i = 0; i < 60; i += 1) await sdk(h, token, `app-${String(i).padStart(2, '0')}`, 'one', []);
    await h.registry.usage.flush();
    expect((await h.json('GET', '/api/admin/metrics/applications')).body.total).toBe(60);
    const vic = await pages.as('vic');
    const first = await vic.get('/applications');
    expect([first.text('.pager-status'), first.doc.querySelectorAll('tbody tr').length]).toEqual(['1–50 of 60 applications', 50]);
    const next = first.doc.querySelector('a[rel="next"]')!.getAttribute('href')!;
    expect(next).toBe('/applications?page=2');
    const second = await vic.get(next);
    expect([second.text('.pager-status'), second.texts('tbody th a')[0]]).toEqual(['51–60 of 60 applications', 'app-50']);
    const missing = await vic.get('/applications/nothing-here');
    expect([missing.status, missing.title]).toEqual([404, 'Page not found']);
  });
});
