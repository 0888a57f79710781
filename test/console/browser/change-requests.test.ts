/**
 * A change request end to end in chromium, for what only a browser shows: an Editor clicks a flag's switch on a
 * protected production and the page says it went to their draft; they submit it; an Owner approves it and
 * schedules it a few seconds ahead with the date-and-time field; the service's scheduler applies it then (waited
 * on through the API, never a sleep). The request page passes axe and fits a phone (screenshots at both widths).
 * The forms and their refusals are the page harness's (`../pages/change-requests.test.ts`).
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { untilState } from '../../helpers/wait.js';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, signedInPage, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

const P = '/api/admin/projects/default';

async function production(server: ConsoleServer): Promise<{ enabled: boolean }> {
  const res = await server.h.json('GET', `${P}/features/checkout`);
  return (res.body.environments as { name: string; enabled: boolean }[]).find((e) => e.name === 'production')!;
}

/** A page of a new context at `viewport`, signed in as `username`, at `path`. */
const signedIn = (server: ConsoleServer, username: string, path: string, viewport: { width: number; height: number } = DESKTOP): Promise<Page> =>
  signedInPage(browser(), server, username, `${username}-secret-42`, path, { viewport });

/** `datetime-local`'s value for `ms` from now, in UTC with seconds. */
const inUtc = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19);

describe('a change request', () => {
  test('drafted by a switch on a protected environment, submitted, approved, scheduled, applied on time', async ({ server }) => {
    const { h } = server;
    await h.json('POST', `${P}/features`, { name: 'checkout' });
    await h.json('POST', `${P}/features/checkout/environments/production/strategies`, { name: 'flexibleRollout', title: 'Everyone', parameters: { rollout: '100', stickiness: 'default', groupId: 'checkout' } });
    expect((await h.json('PUT', `${P}/environments/production/change-requests/config`, { changeRequestsEnabled: true, requiredApprovals: 1 })).status).toBe(200);
    await createUserWithPassword(server, 'ed', 'ed-secret-42', 2);
    const olgaId = await createUserWithPassword(server, 'olga', 'olga-secret-42', 3);
    expect((await h.json('POST', `${P}/users/${olgaId}/roles/4`)).status).toBe(200);

    // Ed switches checkout on in production: the page says it went to his draft, and the switch stays off.
    const ed = await signedIn(server, 'ed', '/projects/default/features/checkout');
    await ed.getByRole('switch', { name: 'checkout in production' }).click();
    await ed.waitForURL(/done=drafted&request=1/);
    await expect.poll(() => ed.getByRole('status').filter({ hasText: 'Added to your change request #1' }).count()).toBe(1);
    expect(await ed.getByRole('switch', { name: 'checkout in production' }).getAttribute('aria-checked')).toBe('false');
    expect((await production(server)).enabled).toBe(false);
    await ed.evaluate('window.scrollTo(0, 0)');
    await screenshot(ed, 'change-request-drafted');
    await ed.getByRole('status').getByRole('link', { name: 'change request #1' }).click();
    await ed.waitForURL(/\/change-requests\/1$/);
    await ed.getByRole('button', { name: 'Submit for review' }).click();
    await ed.waitForURL(/done=submitted/);
    expect(await ed.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    // Olga (an Owner) finds it waiting for her; the pages pass axe and fit a phone.
    const olga = await signedIn(server, 'olga', '/projects/default/change-requests', PHONE);
    expect(await scrollsSideways(olga)).toBe(false);
    expect(await seriousViolations(olga)).toEqual([]);
    await screenshot(olga, 'change-request-list-phone');
    await olga.setViewportSize(DESKTOP);
    await olga.getByRole('region', { name: 'Waiting for me', exact: true }).getByRole('link', { name: 'Change Request #1' }).click();
    await olga.waitForURL(/\/change-requests\/1$/);
    expect(await seriousViolations(olga)).toEqual([]);
    await screenshot(olga, 'change-request-desktop');
    await olga.setViewportSize(PHONE);
    await olga.reload();
    expect(await scrollsSideways(olga)).toBe(false);
    expect(await seriousViolations(olga)).toEqual([]);
    await screenshot(olga, 'change-request-phone');
    await olga.setViewportSize(DESKTOP);

    // She approves it and schedules it a few seconds ahead (again, should the page take longer than that).
    await olga.getByRole('button', { name: 'Approve' }).click();
    await olga.waitForURL(/done=approved/);
    for (let attempt = 0; ; attempt += 1) {
      await olga.getByLabel('Apply at, date and time (UTC)').fill(inUtc(4000));
      await olga.getByRole('button', { name: 'Schedule', exact: true }).click();
      await olga.waitForLoadState();
      if (/done=scheduled/.test(olga.url()) || attempt === 3) break;
    }
    await olga.waitForURL(/done=scheduled/);
    expect(await olga.locator('.cr-schedule').textContent()).toMatch(/Scheduled for \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    await screenshot(olga, 'change-request-scheduled');

    // The scheduler applies it at its time: the flag is on, and the page says the request was applied on schedule.
    await expect.poll(async () => (await production(server)).enabled, untilState(100)).toBe(true);
    await olga.goto(`${server.base}/projects/default/change-requests/1`);
    expect(await olga.locator('.cr-state').first().textContent()).toBe('Applied');
    expect(await olga.locator('.cr-facts').textContent()).toContain('on schedule');
    await screenshot(olga, 'change-request-applied');
    await ed.goto(`${server.base}/projects/default/features/checkout`);
    expect(await ed.getByRole('switch', { name: 'checkout in production' }).getAttribute('aria-checked')).toBe('true');
    await ed.context().close();
    await olga.context().close();
  });
});
