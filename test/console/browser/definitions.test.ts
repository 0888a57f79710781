/**
 * The definition pages in chromium: context fields (legal values), tag types and strategy definitions (parameters)
 * created, edited and deleted, each read back through the admin API; used-by lists; refusals shown as the API's
 * message next to their field; what a Viewer sees and may post; accessibility and the phone width.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { consoleTest, createUserWithPassword, DESKTOP, PHONE, screenshot, scrollsSideways, seriousViolations, sessionCookie, signIn, useBrowser, type ConsoleServer } from './browser.js';

const browser = useBrowser();
const test = consoleTest();

/** A person of `rootRole` (1 Admin, 2 Editor, 3 Viewer) signed in, in a context of `viewport`. */
async function signedIn(server: ConsoleServer, rootRole: number, viewport: { width: number; height: number } = DESKTOP): Promise<{ page: Page; context: BrowserContext }> {
  const username = rootRole === 3 ? 'vic' : 'ann';
  await createUserWithPassword(server, username, `${username}-secret-42`, rootRole);
  const context = await browser().newContext({ viewport });
  const page = await context.newPage();
  // A step that cannot happen fails on its own locator, well before the test's timeout.
  page.setDefaultTimeout(8000);
  await signIn(page, server, username, `${username}-secret-42`);
  return { page, context };
}

/** The message an invalid field points at with `aria-describedby`. */
async function messageOf(page: Page, selector: string): Promise<string | null> {
  const field = page.locator(selector);
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  return page.locator(`#${(await field.getAttribute('aria-describedby'))!.split(' ')[0]}`).textContent();
}

/** Looks at a page: no serious accessibility violation, then a screenshot. */
async function look(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  if ((page.viewportSize()?.width ?? 0) < 500) expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, name);
}

describe('context fields', () => {
  test('an Editor creates a field with legal values; read back through the API', async ({ server }) => {
    const { page, context } = await signedIn(server, 2);
    await page.goto(`${server.base}/admin/context-fields`);
    await look(page, 'context-fields-desktop');
    await page.getByText('New context field').click();
    await page.locator('#cf-create-name').fill('region');
    await page.locator('#cf-create-description').fill('Where the user is');
    await page.getByLabel('Can be used for stickiness').check();
    await page.locator('#create-lv-0-value').fill('eu');
    await page.locator('#create-lv-0-description').fill('Europe');
    await page.getByRole('button', { name: 'Add another value' }).click();
    await page.locator('#create-lv-1-value').fill('us');
    await look(page, 'context-fields-new-desktop');
    await page.getByRole('button', { name: 'Create context field' }).click();
    await page.waitForURL(/\/admin\/context-fields\/region\?done=created/);
    const created = await server.h.json('GET', '/api/admin/context/region');
    expect(created.body).toMatchObject({ name: 'region', description: 'Where the user is', stickiness: true, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] });
    await page.goto(`${server.base}/admin/context-fields?q=reg`);
    expect(await page.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('region')]);
    await context.close();
  });

  test('an Editor edits a field, sees the strategy using it, and deletes it after a confirmation naming what goes', async ({ server }) => {
    await server.h.json('POST', '/api/admin/context', { name: 'region', description: 'Where the user is', legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] });
    await server.h.json('POST', '/api/admin/projects/default/features', { name: 'eu-banner' });
    await server.h.json('POST', '/api/admin/projects/default/features/eu-banner/environments/development/strategies', {
      name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
    });
    const { page, context } = await signedIn(server, 2);
    await page.goto(`${server.base}/admin/context-fields/region`);
    expect(await page.locator('section[aria-labelledby="cf-uses-title"]').textContent()).toContain('eu-banner');
    await look(page, 'context-field-desktop');

    // Edit: a new description, "us" removed, "apac" added.
    await page.locator('#cf-edit-description').fill('Sales region');
    await page.locator('[name="legalValues.1.remove"]').check();
    await page.locator('#edit-lv-2-value').fill('apac');
    await page.getByRole('button', { name: 'Save context field' }).click();
    await page.waitForURL(/done=saved/);
    const saved = await server.h.json('GET', '/api/admin/context/region');
    expect(saved.body).toMatchObject({ description: 'Sales region', legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'apac' }] });

    // Deleting asks first, naming the legal values and the strategy that constrains on it.
    await page.getByText('Delete region…').click();
    const confirm = page.getByRole('group', { name: 'Delete region' });
    expect(await confirm.textContent()).toContain('its 2 legal values');
    expect(await confirm.textContent()).toContain('1 strategy and 0 segments constrain on it');
    await confirm.getByRole('button', { name: 'Delete region' }).click();
    await page.waitForURL(/\/admin\/context-fields\?done=deleted/);
    expect((await server.h.json('GET', '/api/admin/context/region')).status).toBe(404);

    await page.setViewportSize(PHONE);
    await page.goto(`${server.base}/admin/context-fields/userId`);
    await look(page, 'context-field-phone');
    await context.close();
  });

  test('a refused form shows the API\'s message next to the field it names', async ({ server }) => {
    const { page, context } = await signedIn(server, 1);
    await page.goto(`${server.base}/admin/context-fields`);
    await page.getByText('New context field').click();
    await page.locator('#cf-create-name').fill('userId');
    await page.getByRole('button', { name: 'Create context field' }).click();
    await page.waitForLoadState();
    expect(await messageOf(page, '#cf-create-name')).toBe('A context field named "userId" already exists');
    // A value listed twice: the API's schema message, under the legal values.
    await page.goto(`${server.base}/admin/context-fields/appName`);
    await page.locator('#edit-lv-0-value').fill('web');
    await page.getByRole('button', { name: 'Add another value' }).click();
    await page.locator('#edit-lv-1-value').fill('web');
    const answer = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save context field' }).click();
    expect((await answer).status()).toBe(400);
    expect(await page.locator('#edit-legal-values-error').textContent()).toBe('"legalValues": must not list a value twice');
    expect(await page.locator('#edit-lv-1-value').inputValue()).toBe('web');
    expect((await server.h.json('GET', '/api/admin/context/appName')).body.legalValues).toEqual([]);
    await look(page, 'context-field-refused-desktop');
    await context.close();
  });
});

describe('tag types', () => {
  test('an Admin creates, edits and deletes a tag type; deleting one in use shows what the API answers', async ({ server }) => {
    await server.h.json('POST', '/api/admin/projects/default/features', { name: 'checkout' });
    const { page, context } = await signedIn(server, 1);
    await page.goto(`${server.base}/admin/tag-types`);
    await page.getByText('New tag type').click();
    await page.locator('#tt-create-name').fill('team');
    await page.locator('#tt-create-description').fill('Who owns it');
    await page.locator('#tt-create-color').fill('#1a7f37');
    await page.getByRole('button', { name: 'Create tag type' }).click();
    await page.waitForURL(/\/admin\/tag-types\/team\?done=created/);
    expect((await server.h.json('GET', '/api/admin/tag-types/team')).body.tagType).toEqual({ name: 'team', description: 'Who owns it', icon: null, color: '#1a7f37' });

    // A bad colour: the schema's message next to the colour field, nothing saved.
    await page.locator('#tt-edit-color').fill('green');
    await page.getByRole('button', { name: 'Save tag type' }).click();
    await page.waitForLoadState();
    expect(await messageOf(page, '#tt-edit-color')).toBe('"color": must be a colour like #1a2B3c');
    await page.locator('#tt-edit-color').fill('');
    await page.locator('#tt-edit-description').fill('The owning team');
    await page.getByRole('button', { name: 'Save tag type' }).click();
    await page.waitForURL(/done=saved/);
    expect((await server.h.json('GET', '/api/admin/tag-types/team')).body.tagType).toMatchObject({ description: 'The owning team', color: null });

    await server.h.json('POST', '/api/admin/features/checkout/tags', { type: 'team', value: 'payments' });
    await page.goto(`${server.base}/admin/tag-types`);
    expect(await page.getByRole('row', { name: /team/ }).textContent()).toContain('1 flag');
    await look(page, 'tag-types-desktop');
    await page.getByRole('link', { name: 'team' }).click();
    await page.getByText('Delete team…').click();
    expect(await page.getByRole('group', { name: 'Delete team' }).textContent()).toContain('1 flag carries a tag of this type (checkout)');
    await look(page, 'tag-type-desktop');
    await page.getByRole('button', { name: 'Delete team', exact: true }).click();
    await page.waitForLoadState();
    const after = await server.h.json('GET', '/api/admin/tag-types/team');
    if (after.status === 200) {
      // Refused: the page shows the use case's message, the one the API answers to the same request.
      const api = await server.h.json('DELETE', '/api/admin/tag-types/team');
      expect(await page.getByRole('alert').textContent()).toBe(api.body.message);
    } else {
      expect(page.url()).toContain('/admin/tag-types?done=deleted');
      expect((await server.h.json('GET', '/api/admin/features/checkout/tags')).body.tags).toEqual([]);
    }

    await server.h.json('POST', '/api/admin/tag-types', { name: 'area' });
    await page.goto(`${server.base}/admin/tag-types/area`);
    await page.getByText('Delete area…').click();
    await page.getByRole('button', { name: 'Delete area', exact: true }).click();
    await page.waitForURL(/done=deleted/);
    expect((await server.h.json('GET', '/api/admin/tag-types/area')).status).toBe(404);
    await page.setViewportSize(PHONE);
    await look(page, 'tag-types-phone');
    await context.close();
  });
});

describe('strategy definitions', () => {
  test('an Admin creates a custom strategy with parameters, edits, deprecates, reactivates and deletes it', async ({ server }) => {
    const { page, context } = await signedIn(server, 1);
    await page.goto(`${server.base}/admin/strategies`);
    await look(page, 'strategies-desktop');
    await page.getByText('New strategy').click();
    await page.locator('#sd-create-name').fill('by-region');
    await page.locator('#sd-create-title').fill('By region');
    await page.locator('#create-param-0-name').fill('regions');
    await page.locator('#create-param-0-type').selectOption('list');
    await page.locator('#create-param-0-description').fill('Regions to enable');
    await page.locator('[name="parameters.0.required"]').check();
    await page.getByRole('button', { name: 'Add another parameter' }).click();
    await page.locator('#create-param-1-name').fill('share');
    await page.locator('#create-param-1-type').selectOption('percentage');
    await page.getByRole('button', { name: 'Create strategy' }).click();
    await page.waitForURL(/\/admin\/strategies\/by-region\?done=created/);
    expect((await server.h.json('GET', '/api/admin/strategies/by-region')).body).toMatchObject({
      name: 'by-region', title: 'By region', editable: true, deprecated: false,
      parameters: [{ name: 'regions', type: 'list', description: 'Regions to enable', required: true }, { name: 'share', type: 'percentage', description: '', required: false }],
    });

    // A flag's strategy using it is listed; edit: parameter "share" removed.
    await server.h.json('POST', '/api/admin/projects/default/features', { name: 'regional' });
    await server.h.json('POST', '/api/admin/projects/default/features/regional/environments/production/strategies', { name: 'by-region', parameters: { regions: 'eu' } });
    await page.reload();
    expect(await page.locator('section[aria-labelledby="sd-uses-title"]').textContent()).toContain('regional');
    await page.locator('[name="parameters.1.remove"]').check();
    await page.locator('#sd-edit-description').fill('Only some regions');
    await page.getByRole('button', { name: 'Save strategy' }).click();
    await page.waitForURL(/done=saved/);
    const saved = (await server.h.json('GET', '/api/admin/strategies/by-region')).body;
    expect([saved.description, saved.parameters.map((p: any) => p.name)]).toEqual(['Only some regions', ['regions']]);
    await look(page, 'strategy-desktop');

    await page.getByRole('button', { name: 'Deprecate by-region' }).click();
    await page.waitForURL(/done=deprecated/);
    expect((await server.h.json('GET', '/api/admin/strategies/by-region')).body.deprecated).toBe(true);
    await page.getByRole('button', { name: 'Reactivate by-region' }).click();
    await page.waitForURL(/done=reactivated/);
    expect((await server.h.json('GET', '/api/admin/strategies/by-region')).body.deprecated).toBe(false);

    await page.getByText('Delete by-region…').click();
    expect(await page.getByRole('group', { name: 'Delete by-region' }).textContent()).toContain('1 strategy of a flag uses it');
    await page.getByRole('button', { name: 'Delete by-region', exact: true }).click();
    await page.waitForURL(/\/admin\/strategies\?done=deleted/);
    expect((await server.h.json('GET', '/api/admin/strategies/by-region')).status).toBe(404);
    await context.close();
  });

  test('a built-in strategy is read-only; a taken name is refused with the API\'s message', async ({ server }) => {
    const { page, context } = await signedIn(server, 1, PHONE);
    await page.goto(`${server.base}/admin/strategies/flexibleRollout`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Gradual rollout');
    expect(await page.locator('main form').count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Parameters' }).textContent()).toContain('stickiness');
    await look(page, 'strategy-builtin-phone');
    await page.goto(`${server.base}/admin/strategies`);
    await page.getByText('New strategy').click();
    await page.locator('#sd-create-name').fill('default');
    await page.getByRole('button', { name: 'Create strategy' }).click();
    await page.waitForLoadState();
    expect(await messageOf(page, '#sd-create-name')).toBe('Strategy with name default already exist!');
    await look(page, 'strategies-refused-phone');
    await context.close();
  });
});

describe('a Viewer', () => {
  test('sees the definitions without controls, and a post is the "You may not" page', async ({ server }) => {
    await server.h.json('POST', '/api/admin/tag-types', { name: 'team' });
    await server.h.json('POST', '/api/admin/strategies', { name: 'custom-one' });
    const { page, context } = await signedIn(server, 3, PHONE);
    for (const path of ['/admin/context-fields', '/admin/context-fields/userId', '/admin/tag-types', '/admin/tag-types/team', '/admin/strategies', '/admin/strategies/custom-one']) {
      const response = await page.goto(`${server.base}${path}`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('main form[method="post"]').count()).toBe(0);
      expect(await page.locator('main details.def-create, main details.confirm').count()).toBe(0);
    }
    await look(page, 'strategy-viewer-phone');
    const csrf = JSON.parse((await page.locator('body').getAttribute('hx-headers'))!)['X-CSRF-Token'] as string;
    const headers = { cookie: `flagpole-session=${await sessionCookie(context)}`, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' };
    for (const [path, fields] of [
      ['/admin/context-fields', { name: 'region' }],
      ['/admin/context-fields/userId/delete', {}],
      ['/admin/tag-types/team', { description: 'changed' }],
      ['/admin/strategies/custom-one/delete', {}],
    ] as const) {
      const refused = await fetch(`${server.base}${path}`, { method: 'POST', redirect: 'manual', headers, body: new URLSearchParams({ _csrf: csrf, ...fields }) });
      expect(refused.status, path).toBe(403);
      expect(await refused.text()).toContain('You may not do this');
    }
    expect((await server.h.json('GET', '/api/admin/context/region')).status).toBe(404);
    expect((await server.h.json('GET', '/api/admin/context/userId')).status).toBe(200);
    expect((await server.h.json('GET', '/api/admin/tag-types/team')).body.tagType.description).toBe('');
    expect((await server.h.json('GET', '/api/admin/strategies/custom-one')).status).toBe(200);
    await context.close();
  });
});
