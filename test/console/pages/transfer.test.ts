/**
 * A project's export and import through the app: the export answers the same JSON the API exports, as a download
 * with its file name; an import's dry run shows the validate use case's errors and imports nothing; a valid file
 * (multipart, as a browser sends a chosen file) is checked, then imported, and the flags are read back through the
 * API. A Viewer exports but cannot import.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { pageTest } from '../page-harness.js';

const test = pageTest();

/** Project `web` with `checkout` (a 50 % rollout, on in development) and `banner`. */
async function webProject(h: Harness): Promise<void> {
  expect((await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web shop' })).status).toBe(201);
  for (const name of ['checkout', 'banner']) expect((await h.json('POST', '/api/admin/projects/web/features', { name, description: `The ${name}` })).status).toBe(201);
  const env = '/api/admin/projects/web/features/checkout/environments/development';
  expect((await h.json('POST', `${env}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'checkout' } })).status).toBe(200);
  expect((await h.req('POST', `${env}/on`)).status).toBe(200);
}

const flagNames = async (h: Harness, project: string) =>
  ((await h.json('GET', `/api/admin/projects/${project}/features`)).body.features as { name: string }[]).map((f) => f.name).sort();

describe('export and import', () => {
  test('exports a download, shows a dry run\'s errors without importing, then imports a valid file', async ({ h, pages }) => {
    await webProject(h);
    const ann = await pages.as('ann', 1);
    const page = await ann.get('/projects/web/transfer');
    expect(page.doc.querySelector('nav[aria-label="Project Web shop"] a[aria-current="page"]')?.textContent).toBe('Export and import');

    // Export: the file the API's export answers, as a download.
    const download = await ann.get('/projects/web/transfer/export?environment=development');
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('web-development.json');
    const exported = JSON.parse(download.html) as { features: { name: string }[]; featureStrategies: unknown[] };
    expect(exported).toEqual((await h.json('POST', '/api/admin/features-batch/export', { environment: 'development', project: 'web' })).body);
    expect([exported.features.map((f) => f.name), exported.featureStrategies.length]).toEqual([['banner', 'checkout'], 1]);

    // Not JSON: the message under the field, nothing written.
    const notJson = await ann.post('/projects/web/transfer/validate', { environment: 'development', data: '{ not json' });
    expect([notJson.status, notJson.invalid()]).toEqual([400, ['data']]);
    expect(notJson.text('#import-data-error')).toContain('This is not JSON');

    // The same flags into `default`: they exist in `web`, so the dry run lists an error and offers no import.
    const clash = await ann.post('/projects/default/transfer/validate', { environment: 'development', data: JSON.stringify(exported) });
    expect(clash.texts('.dry-run h3')[0]).toBe('The dry run found problems: nothing can be imported yet');
    expect(clash.texts('.dry-run .findings-error p')[0]).toContain('already exist in other projects');
    expect(clash.texts('.dry-run .findings-error .chip')).toEqual(['banner (in project web)', 'checkout (in project web)']);
    expect(clash.doc.querySelector('button[formaction$="/import"]')).toBeNull();
    expect(await flagNames(h, 'default')).toEqual([]);

    // Renamed, from a file: ready, then imported.
    const renamed = JSON.stringify(exported).replaceAll('"checkout"', '"checkout-v2"').replaceAll('"banner"', '"banner-v2"');
    const ready = await ann.post('/projects/default/transfer/validate', { environment: 'development', data: '' }, { file: { field: 'file', name: 'renamed.json', text: renamed } });
    expect(ready.text('#dry-run-title')).toBe('Ready to import 2 flags into development');
    expect(ready.doc.querySelector('button[formaction="/projects/default/transfer/import"]')?.textContent).toBe('Import 2 flags');
    expect(await flagNames(h, 'default')).toEqual([]);
    const imported = await ann.post('/projects/default/transfer/import', { environment: 'development', data: ready.doc.querySelector('#import-data')?.textContent ?? '' });
    expect(imported.status).toBe(303);
    expect(new URL(imported.location!, 'http://x').searchParams.get('done')).toBe('imported');
    expect((await ann.get(imported.location!)).statuses.join(' ')).toContain('Imported: 2 created, 0 updated');
    expect(await flagNames(h, 'default')).toEqual(['banner-v2', 'checkout-v2']);
    const checkout = (await h.json('GET', '/api/admin/projects/default/features/checkout-v2')).body;
    const development = (checkout.environments as { name: string; enabled: boolean; strategies: { name: string; parameters: Record<string, string> }[] }[]).find((e) => e.name === 'development')!;
    expect([development.enabled, development.strategies.map((s) => [s.name, s.parameters['rollout']])]).toEqual([true, [['flexibleRollout', '50']]]);
  });

  test('a Viewer exports but sees no import form, and an import post is refused', async ({ h, pages }) => {
    await webProject(h);
    const vic = await pages.as('vic');
    const page = await vic.get('/projects/web/transfer');
    expect(page.doc.querySelector('form[action$="/validate"]')).toBeNull();
    expect(page.text()).toContain('it needs a root Admin or Editor');
    const exported = (await vic.get('/projects/web/transfer/export?environment=development')).html;
    expect((JSON.parse(exported) as { features: unknown[] }).features).toHaveLength(2);
    const refused = await vic.post('/projects/default/transfer/import', { environment: 'development', data: exported.replaceAll('"checkout"', '"other"').replaceAll('"banner"', '"other-2"') });
    expect(refused.status).toBe(403);
    expect(await flagNames(h, 'default')).toEqual([]);
  });
});
