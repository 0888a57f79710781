/**
 * The playground through the app: a context that matches a flag's constraint and one that does not, each flag's
 * result with the reason per constraint (and the same answer as `POST /api/admin/playground`), the address that
 * reproduces a result for someone else, a request the API would refuse marked on its field, several environments.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import type { Answer } from '../page-harness.js';
import { pageTest } from '../page-harness.js';

const test = pageTest();
const FEATURES = '/api/admin/projects/default/features';

/** A region field with legal values; `eu-banner` on in development for region eu; `everyone` on; `dormant` off. */
async function setUp(h: Harness): Promise<void> {
  await h.json('POST', '/api/admin/context', { name: 'region', description: 'Sales region', legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] });
  for (const name of ['eu-banner', 'everyone', 'dormant']) await h.json('POST', FEATURES, { name });
  await h.json('POST', `${FEATURES}/eu-banner/environments/development/strategies`, {
    name: 'flexibleRollout', title: 'Europe only', parameters: { rollout: 100, stickiness: 'default', groupId: 'eu-banner' },
    constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
  });
  await h.json('POST', `${FEATURES}/everyone/environments/development/strategies`, { name: 'default' });
  for (const name of ['eu-banner', 'everyone']) expect((await h.json('POST', `${FEATURES}/${name}/environments/development/on`)).status).toBe(200);
}

const fold = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
/** A flag's results, one per environment: each one's summary and its constraint checks. */
const results = (page: Answer, flag: string) => {
  const card = [...page.doc.querySelectorAll('li.pg-flag')].find((li) => li.querySelector('h3')?.textContent === flag);
  return [...(card?.querySelectorAll('details.pg-env') ?? [])].map((d) => ({ summary: fold(d.querySelector('summary')?.textContent), check: fold(d.querySelector('.pg-check')?.textContent) }));
};

describe('the playground', () => {
  test('a Viewer evaluates a context that matches a constraint and one that does not, with the reason per constraint', async ({ h, pages }) => {
    await setUp(h);
    const vic = await pages.as('vic');
    const form = await vic.get('/playground');
    expect(form.doc.querySelector('nav[aria-label="Main"] a[aria-current="page"]')?.textContent).toBe('Playground');
    expect(form.doc.querySelector('input[name="env"][value="development"]')?.hasAttribute('checked')).toBe(true);
    // The field's legal values are offered.
    expect([...form.doc.querySelectorAll('#pg-ctx-region-values option')].map((o) => o.getAttribute('value'))).toEqual(['eu', 'us']);
    const matching = '/playground?env=development&projects=all&appName=web&properties.region=eu';
    const page = await vic.get(matching);
    const [eu] = results(page, 'eu-banner');
    expect(eu!.summary).toMatch(/development\s*✓ On.*Strategy 1 \(Europe only\) matched/);
    expect(eu!.check).toMatch(/✓ met\s*region is one of\s*eu\s*— the context gives eu/);
    expect(results(page, 'everyone')[0]!.summary).toContain('✓ On');
    expect(results(page, 'dormant')[0]!.summary).toContain('Switched off in development.');

    const other = await vic.get('/playground?env=development&projects=all&appName=web&properties.region=us');
    const [us] = results(other, 'eu-banner');
    expect(us!.summary).toMatch(/✗ Off.*No strategy matched this context\./);
    expect(us!.check).toMatch(/✗ not met\s*region is one of\s*eu\s*— the context gives us/);
    // The same answer as the API's for the same request.
    const api = await h.json('POST', '/api/admin/playground', { environment: 'development', projects: '*', context: { appName: 'web', properties: { region: 'us' } } });
    expect(Object.fromEntries((api.body.features as any[]).map((f) => [f.name, f.isEnabled]))).toEqual({ dormant: false, 'eu-banner': false, everyone: true });

    // The address reproduces the first result for someone else.
    const ann = await pages.as('ann', 1);
    const again = await ann.get(matching);
    expect(again.doc.querySelector('[name="properties.region"]')?.getAttribute('value')).toBe('eu');
    expect(results(again, 'eu-banner')[0]).toMatchObject({ summary: expect.stringContaining('✓ On'), check: expect.stringContaining('✓ met') });
  });

  test('a request the API refuses is marked on its field; several environments side by side', async ({ h, pages }) => {
    await setUp(h);
    const ann = await pages.as('ann', 1);
    const noApp = await ann.get('/playground?env=development&projects=all&properties.region=eu');
    expect([noApp.status, noApp.invalid()]).toEqual([400, ['appName']]);
    expect(noApp.text('#pg-ctx-appName-error')).toMatch(/appName/);
    expect(noApp.doc.querySelectorAll('li.pg-flag').length).toBe(0);
    const noEnv = await ann.get('/playground?projects=all&appName=web');
    expect([noEnv.status, noEnv.text('#pg-env-error')]).toEqual([400, '"environment": is required']);
    const badTime = await ann.get('/playground?env=development&appName=web&currentTime=yesterday');
    expect([badTime.status, badTime.text('#pg-ctx-currentTime-error')]).toEqual([400, '"context": "currentTime" must be an ISO 8601 date-time']);

    // Two environments: eu-banner is on in development only.
    const two = '/playground?env=development&env=production&projects=some&project=default&appName=web&properties.region=eu';
    const page = await ann.get(two);
    const eu = results(page, 'eu-banner');
    expect(eu.length).toBe(2);
    expect(eu[0]!.summary).toMatch(/^development\s*✓ On/);
    expect(eu[1]!.summary).toMatch(/^production\s*✗ Off.*Switched off in production\./);
    expect(page.statuses.join(' ')).toContain('3 flags evaluated: 2 on in development, 0 on in production');
    expect((await ann.get(`${two}&show=on`)).texts('li.pg-flag h3')).toEqual(['eu-banner', 'everyone']);
  });
});
