/**
 * The history pages through the app: the timeline with each change's before and after and its filters (the
 * address), the project as it was (the old state shown, read-only, nothing changed: read back through the admin
 * API), two moments compared, and the moments that cannot be shown, said in words. Changes go through the admin
 * API; the moments between them are taken from the clock, a few milliseconds apart.
 */
import { describe, expect } from 'vitest';
import { addStrategy, createFlag, envPath, flagPath } from '../../helpers/flags.js';
import type { Answer } from '../page-harness.js';
import { pageTest } from '../page-harness.js';
import { clockPast } from '../../helpers/clock.js';
import { moment, story } from '../history-story.js';

const test = pageTest();
/** An app that keeps little of its log: 5 records past the older of two snapshots, one every 10 records. */
const trimmedTest = pageTest({ SNAPSHOT_EVERY: '10', LOG_RETENTION: '5' });


/** A history entry (or compare item) by its heading. */
const entry = (page: Answer, title: string, item = 'li.entry') => [...page.doc.querySelectorAll(item)].find((li) => li.querySelector('.entry-title')?.textContent?.includes(title));
const fold = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
const diffLines = (li: ReturnType<typeof entry>) => [...li!.querySelectorAll('.diff-line')].map((line) => fold(line.textContent));
const H = '/projects/default/history';

describe('the history pages', () => {
  test('the timeline shows each change with its before and after, and the filters narrow it', async ({ h, pages }) => {
    await story(h);
    const ann = await pages.as('ann', 1);
    const page = await ann.get(H);
    expect(page.status).toBe(200);
    expect(page.doc.querySelector('nav[aria-label="Project Default"] a[aria-current="page"]')?.textContent).toBe('History');
    const switched = entry(page, 'Switched on')!;
    expect(switched.querySelector('.entry-title')?.textContent).toContain('checkout');
    expect(switched.querySelector('time')?.getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // Before and after are said in words, not by colour alone.
    expect(diffLines(switched)).toEqual(['development: before off → after on']);
    expect([switched.querySelector('.diff-before del')?.textContent, switched.querySelector('.diff-after ins')?.textContent]).toEqual(['off', 'on']);
    expect(diffLines(entry(page, 'Strategy changed'))).toEqual([
      'development › flexibleRollout › rollout: before 10 → after 50',
      'development › flexibleRollout › constraint userId IN › values: added c removed b',
    ]);
    expect(page.doc.querySelector('form[method="get"] [name="kind"]')).not.toBeNull();

    expect((await ann.get(`${H}?kind=switch`)).texts('li.entry .entry-title')).toEqual(['Switched on · checkout in development']);
    const search = await ann.get(`${H}?feature=search`);
    expect([search.title, search.texts('li.entry .entry-title')]).toEqual(['History of search', ['Flag created · search']]);
    // Person: the admin token made every change, Ann none.
    const annId = (await h.json('GET', '/api/admin/user-admin')).body.users.find((u: { username: string }) => u.username === 'ann').id;
    const byAnn = await ann.get(`${H}?by=user:${annId}`);
    expect(byAnn.doc.querySelector(`[name="by"] option[value="user:${annId}"]`)?.hasAttribute('selected')).toBe(true);
    expect([byAnn.doc.querySelectorAll('li.entry').length, byAnn.texts('h3')]).toEqual([0, expect.arrayContaining(['No changes found'])]);
    // Time: nothing after the last change.
    expect((await ann.get(`${H}?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).doc.querySelectorAll('li.entry').length).toBe(0);
    // A date that is not one: the message, not an error page.
    const bad = await ann.get(`${H}?from=yesterday`);
    expect([bad.status, bad.alerts.join(' ')]).toEqual([400, expect.stringContaining('from must be a date and time')]);
  });

  test('the project as it was shows the old state, read-only, and changes nothing', async ({ h, pages }) => {
    const { beforeSwitch, afterSwitch } = await story(h);
    const flagNow = (await h.json('GET', flagPath('checkout'))).body;
    const seqBefore = h.registry.project('default')!.seq;
    const ann = await pages.as('ann', 1);
    // From the history: the moment right after the strategy was added, before the switch.
    const added = entry(await ann.get(`${H}?kind=strategy`), 'Strategy added')!;
    const link = [...added.querySelectorAll('a')].find((a) => a.textContent === 'Show the project as it was after this change')!.getAttribute('href')!;
    expect(link).toMatch(/^\/projects\/default\/at\?t=/);
    const past = await ann.get(link);
    expect(past.statuses.join(' ')).toMatch(/You are looking at Default as it was at.*Nothing here can be changed\./);
    const environments = past.texts('.past-table thead th');
    const row = (answer: Answer, name: string) => [...answer.doc.querySelectorAll('tbody.past-flag')].find((tbody) => tbody.querySelector('th')?.textContent === name);
    const cell = (answer: Answer) => fold([...row(answer, 'checkout')!.querySelector('tr')!.querySelectorAll('th, td')][environments.indexOf('development')]!.textContent);
    expect(cell(past)).toBe('Off');
    // search did not exist yet.
    expect(row(past, 'search')).toBeUndefined();
    const checkout = row(past, 'checkout')!;
    expect((checkout.querySelector('.params')?.textContent ?? '').replace(/\s+/g, '')).toContain('rollout10');
    expect(fold(checkout.querySelector('.constraints')?.textContent)).toBe('userId IN [a, b]');
    // What a person typed is shown as text, never as markup.
    expect(checkout.querySelector('.past-details-body > p')?.textContent).toBe('The <b>new</b> checkout');
    expect(past.doc.querySelectorAll('main b').length).toBe(0);
    expect([...checkout.querySelectorAll('a')].find((a) => a.textContent === 'Changes to checkout up to this moment')?.getAttribute('href')).toMatch(/^\/projects\/default\/history\?feature=checkout&to=/);
    // Nothing can change anything: no form that posts, no switch, no input but the moment form's.
    expect(past.doc.querySelectorAll('main form[method=post], main [role=switch], main input[type=checkbox]').length).toBe(0);
    expect([past.doc.querySelectorAll('main form').length, past.doc.querySelectorAll('main form[method=get]').length]).toEqual([1, 1]);
    expect(beforeSwitch < afterSwitch).toBe(true);

    // Another moment, as the form sends it: after the switch, checkout is on and search exists.
    const later = await ann.get(`/projects/default/at?t=${encodeURIComponent(afterSwitch.slice(0, -1))}`);
    expect(row(later, 'search')).toBeDefined();
    expect(cell(later)).toBe('On');
    // Read back: the flag as it was before the visit, and no record written.
    expect((await h.json('GET', flagPath('checkout'))).body).toEqual(flagNow);
    expect(h.registry.project('default')!.seq).toBe(seqBefore);
  });

  test('moments that cannot be shown are said in words', async ({ pages }) => {
    const vic = await pages.as('vic');
    const early = await vic.get('/projects/default/at?t=2000-01-01T00:00');
    expect([early.status, early.alerts.join(' ')]).toEqual([404, expect.stringContaining('did not exist yet at 2000-01-01T00:00:00.000Z')]);
    expect(early.texts('a').some((a) => a.startsWith('Show the earliest moment'))).toBe(true);
    const bad = await vic.get('/projects/default/compare?from=yesterday&to=2099-01-01T00:00');
    expect([bad.status, bad.alerts.join(' ')]).toEqual([400, expect.stringContaining('from must be a date and time')]);
    const none = await vic.get('/projects/default/at');
    expect([none.status, none.texts('h2')]).toEqual([200, expect.arrayContaining(['Choose a moment'])]);
    expect((await vic.get('/projects/nothing/history')).status).toBe(404);
  });

  trimmedTest('a moment whose log records LOG_RETENTION dropped is said so, with the earliest moment kept', async ({ h, pages }) => {
    await addStrategy(h, (await createFlag(h, 'churn')).body.name, 'development');
    const early = await moment();
    for (let i = 0; i < 40; i += 1) {
      expect((await h.req('POST', `${envPath('churn', 'development')}/${i % 2 === 0 ? 'on' : 'off'}`)).status).toBe(200);
      await clockPast();
    }
    await h.restart(); // closing writes a snapshot and trims the log
    const ann = await pages.as('ann', 1);
    const gone = await ann.get(`/projects/default/at?t=${encodeURIComponent(early)}`);
    expect([gone.status, gone.alerts.join(' ')]).toEqual([404, expect.stringContaining('is not kept (trimmed by LOG_RETENTION')]);
    const earliest = [...gone.doc.querySelectorAll('a')].find((a) => a.textContent?.startsWith('Show the earliest moment'))!.getAttribute('href')!;
    const kept = await ann.get(earliest);
    expect(kept.statuses.join(' ')).toContain('Nothing here can be changed.');
    expect(kept.texts('tbody.past-flag th')).toContain('churn');
  });

  test('the history is paged, 50 entries at a time, newest first', async ({ h, pages }) => {
    await addStrategy(h, (await createFlag(h, 'churn')).body.name, 'development');
    for (let i = 0; i < 60; i += 1) expect((await h.req('POST', `${envPath('churn', 'development')}/${i % 2 === 0 ? 'on' : 'off'}`)).status).toBe(200);
    const ann = await pages.as('ann', 1);
    const first = await ann.get(H);
    expect([first.doc.querySelectorAll('li.entry').length, first.texts('li.entry .entry-title')[0]]).toEqual([50, 'Switched off · churn in development']);
    const link = (answer: Answer, name: string) => [...answer.doc.querySelectorAll('a')].find((a) => a.textContent === name)?.getAttribute('href');
    expect(link(first, 'Newer changes')).toBeUndefined();
    const second = await ann.get(link(first, 'Older changes')!);
    // 60 switches, the strategy, the flag and the project: 13 on the second page.
    expect([second.doc.querySelectorAll('li.entry').length, second.texts('li.entry .entry-title').at(-1)]).toEqual([13, 'Project created']);
    expect(link(second, 'Older changes')).toBeUndefined();
    expect((await ann.get(link(second, 'Newer changes')!)).doc.querySelectorAll('li.entry').length).toBe(50);
  });

  test('two moments compared list the flags that differ, with the diff', async ({ h, pages }) => {
    const { beforeSwitch } = await story(h);
    const ann = await pages.as('ann', 1);
    const form = await ann.get('/projects/default/compare');
    expect(form.doc.querySelector('nav[aria-label="Project Default"] a[aria-current="page"]')?.textContent).toBe('Compare');
    const to = new Date(Date.now() + 60_000).toISOString().slice(0, -1);
    const page = await ann.get(`/projects/default/compare?from=${encodeURIComponent(beforeSwitch.slice(0, -1))}&to=${encodeURIComponent(to)}`);
    expect(page.texts('h2')[0]).toBe('2 flags differ');
    expect(page.texts('li.compare-item .entry-title')).toEqual(['checkout changed', 'search created']);
    expect(diffLines(entry(page, 'checkout', 'li.compare-item'))).toEqual([
      'development: before off → after on',
      'development › flexibleRollout › rollout: before 10 → after 50',
      'development › flexibleRollout › constraint userId IN › values: added c removed b',
    ]);
  });
});
