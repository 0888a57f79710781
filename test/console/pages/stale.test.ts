/**
 * The stale flags page through the app: per project, flags marked stale, past their type's lifetime (created in
 * the past under a fake `Date`) and not asked for by any SDK in 7 days, with why; the kinds and the project as
 * the address; bulk mark stale and a confirmed bulk archive through the flag table's use cases, read back through
 * the API; a Viewer only reads.
 */
import { describe, expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { staleFlags } from '../stale-story.js';
import type { Answer } from '../page-harness.js';
import { pageTest } from '../page-harness.js';

const test = pageTest();

const flag = async (h: Harness, name: string, project = 'default') =>
  (await h.json('GET', `/api/admin/projects/${project}/features/${name}`)).body as { stale: boolean; archived: boolean };


const names = (page: Answer) => page.texts('tbody th a');
const reasons = (page: Answer, name: string) =>
  [...[...page.doc.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('th a')?.textContent === name)!.querySelectorAll('.reasons li')].map((li) => (li.textContent ?? '').replace(/\s+/g, ' ').trim());

describe('stale flags', () => {
  test('lists marked, overdue and unused flags per project; marks stale and archives after a confirmation naming them', async ({ h, pages }) => {
    await staleFlags(h);
    const ann = await pages.as('ann', 1);
    const page = await ann.get('/stale');
    expect(page.doc.querySelector('nav[aria-label="Main"] a[aria-current="page"]')?.textContent).toBe('Stale flags');
    expect(names(page)).toEqual(['marked', 'old-kill', 'old-release']);
    expect(reasons(page, 'old-release')).toEqual([expect.stringMatching(/^Past lifetime release: 40 days, ended \d{4}-.* UTC$/), 'Never asked for']);
    expect(reasons(page, 'old-kill')).toEqual(['Never asked for']);
    expect(reasons(page, 'marked')).toEqual(['Marked stale', 'Never asked for']);
    expect(page.texts('nav[aria-label="Kinds of flag"] a')).toEqual(['All 3', 'Marked stale 1', 'Past lifetime 1', 'Unused 7 days 3']);
    const overdue = page.doc.querySelector('nav[aria-label="Kinds of flag"] a[href*="kind=overdue"]')!.getAttribute('href')!;
    expect(overdue).toBe('/stale?project=default&kind=overdue');
    expect(names(await ann.get(overdue))).toEqual(['old-release']);
    expect(names(await ann.get('/stale?project=web'))).toEqual(['web-ops']);

    const back = page.fieldsOf('/stale/default/bulk')['back']!;
    const marked = await ann.post('/stale/default/bulk', { back, action: 'stale', features: ['old-release', 'old-kill'] });
    expect(marked.status).toBe(303);
    expect(new URL(marked.location!, 'http://x').searchParams.get('done')).toBe('stale');
    expect((await ann.get(marked.location!)).statuses.join(' ')).toContain('Marked 2 flags stale.');
    expect([(await flag(h, 'old-release')).stale, (await flag(h, 'old-kill')).stale, (await flag(h, 'seen-kill')).stale]).toEqual([true, true, false]);

    const confirm = await ann.post('/stale/default/bulk', { back, action: 'archive', features: ['marked', 'old-release'] });
    expect([confirm.status, confirm.title]).toEqual([200, 'Archive 2 flags of Default?']);
    expect(confirm.texts('.confirm-list li')).toEqual(['marked', 'old-release']);
    // Nothing is archived until confirmed.
    expect((await flag(h, 'marked')).archived).toBe(false);
    const archived = await ann.post('/stale/default/bulk', { ...confirm.fieldsOf('/stale/default/bulk', '.confirm-card'), action: 'archive', features: ['marked', 'old-release'] });
    expect(new URL(archived.location!, 'http://x').searchParams.get('done')).toBe('archived');
    expect([(await flag(h, 'marked')).archived, (await flag(h, 'old-release')).archived]).toEqual([true, true]);
    expect(names(await ann.get(archived.location!))).toEqual(['old-kill']);
  });

  test('a Viewer sees the flags without the bulk bar, and a bulk post is refused', async ({ h, pages }) => {
    await staleFlags(h);
    const vic = await pages.as('vic');
    const page = await vic.get('/stale');
    expect(names(page)).toEqual(['marked', 'old-kill', 'old-release']);
    expect(page.doc.querySelectorAll('input[type="checkbox"]').length).toBe(0);
    expect(page.doc.querySelector('#stale-bulk')).toBeNull();
    const refused = await vic.post('/stale/default/bulk', { action: 'archive', confirmed: 'yes', features: 'old-kill', back: '/stale' });
    expect(refused.status).toBe(403);
    expect((await flag(h, 'old-kill')).archived).toBe(false);
    expect((await vic.get('/stale?project=nothing-here')).status).toBe(404);
  });
});
