/**
 * The definition pages through the app: context fields (legal values), tag types and strategy definitions
 * (parameters) created, edited and deleted, read back through the admin API; used-by lists; refusals marked on the
 * field (or row) they name, nothing saved; what a Viewer sees and may post.
 */
import { describe, expect } from 'vitest';
import { pageTest } from '../page-harness.js';

const test = pageTest();

describe('context fields', () => {
  test('an Editor creates a field with legal values (rows in the order of their numbers); found by the list\'s search', async ({ h, pages }) => {
    const editor = await pages.as('ann', 2);
    const created = await editor.post('/admin/context-fields', {
      name: 'region', description: 'Where the user is', stickiness: 'on',
      'legalValues.0.value': 'eu', 'legalValues.0.description': 'Europe', 'legalValues.1.value': 'us',
    });
    expect([created.status, created.location]).toEqual([303, '/admin/context-fields/region?done=created']);
    expect((await h.json('GET', '/api/admin/context/region')).body).toMatchObject({ name: 'region', description: 'Where the user is', stickiness: true, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] });
    expect((await editor.get(created.location!)).statuses).toContain('Context field created.');
    expect((await editor.get('/admin/context-fields?q=reg')).texts('tbody tr')).toEqual([expect.stringContaining('region')]);
  });

  test('an Editor edits a field, sees the strategy using it, and deletes it after a confirmation naming what goes', async ({ h, pages }) => {
    await h.json('POST', '/api/admin/context', { name: 'region', description: 'Where the user is', legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }] });
    await h.json('POST', '/api/admin/projects/default/features', { name: 'eu-banner' });
    await h.json('POST', '/api/admin/projects/default/features/eu-banner/environments/development/strategies', { name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] });
    const editor = await pages.as('ann', 2);
    const page = await editor.get('/admin/context-fields/region');
    expect(page.text('section[aria-labelledby="cf-uses-title"]')).toContain('eu-banner');
    const saved = await editor.post('/admin/context-fields/region', { ...page.fieldsOf('/admin/context-fields/region'), description: 'Sales region', 'legalValues.1.remove': 'on', 'legalValues.2.value': 'apac' });
    expect(saved.location).toBe('/admin/context-fields/region?done=saved');
    expect((await h.json('GET', '/api/admin/context/region')).body).toMatchObject({ description: 'Sales region', legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'apac' }] });
    const confirm = (await editor.get('/admin/context-fields/region')).text('[role="group"][aria-label="Delete region"]');
    expect(confirm).toContain('its 2 legal values');
    expect(confirm).toContain('1 strategy and 0 segments constrain on it');
    expect((await editor.post('/admin/context-fields/region/delete')).location).toBe('/admin/context-fields?done=deleted');
    expect((await h.json('GET', '/api/admin/context/region')).status).toBe(404);
  });

  test('a taken name and a value listed twice are marked on their field, the rows shown as sent, nothing saved', async ({ h, pages }) => {
    const admin = await pages.admin();
    const taken = await admin.post('/admin/context-fields', { name: 'userId' });
    expect([taken.status, taken.invalid(), taken.message('name')]).toEqual([409, ['name'], 'A context field named "userId" already exists']);
    expect(taken.doc.querySelector('details.def-create')?.hasAttribute('open')).toBe(true);
    const twice = await admin.post('/admin/context-fields/appName', { 'legalValues.0.value': 'web', 'legalValues.1.value': 'web' });
    expect(twice.status).toBe(400);
    expect(twice.text('#edit-legal-values-error')).toBe('"legalValues": must not list a value twice');
    expect(twice.doc.querySelector('#edit-lv-1-value')?.getAttribute('value')).toBe('web');
    expect((await h.json('GET', '/api/admin/context/appName')).body.legalValues).toEqual([]);
    const empty = await admin.post('/admin/context-fields/appName', { 'legalValues.0.value': 'web', 'legalValues.1.description': 'no value' });
    expect(empty.invalid()).toEqual(['legalValues.1.value']);
  });
});

describe('tag types', () => {
  test('an Admin creates, edits and deletes a tag type; a bad colour is marked; deleting one in use answers as the API does', async ({ h, pages }) => {
    await h.json('POST', '/api/admin/projects/default/features', { name: 'checkout' });
    const admin = await pages.admin();
    const created = await admin.post('/admin/tag-types', { name: 'team', description: 'Who owns it', color: '#1a7f37' });
    expect(created.location).toBe('/admin/tag-types/team?done=created');
    expect((await h.json('GET', '/api/admin/tag-types/team')).body.tagType).toEqual({ name: 'team', description: 'Who owns it', icon: null, color: '#1a7f37' });
    const bad = await admin.post('/admin/tag-types/team', { description: 'Who owns it', color: 'green' });
    expect([bad.status, bad.invalid(), bad.message('color')]).toEqual([400, ['color'], '"color": must be a colour like #1a2B3c']);
    expect((await admin.post('/admin/tag-types/team', { description: 'The owning team', color: '' })).location).toBe('/admin/tag-types/team?done=saved');
    expect((await h.json('GET', '/api/admin/tag-types/team')).body.tagType).toMatchObject({ description: 'The owning team', color: null });
    await h.json('POST', '/api/admin/features/checkout/tags', { type: 'team', value: 'payments' });
    expect((await admin.get('/admin/tag-types')).texts('tbody tr').find((row) => row.startsWith('team'))).toContain('1 flag');
    expect((await admin.get('/admin/tag-types/team')).text('[role="group"][aria-label="Delete team"]')).toContain('1 flag carries a tag of this type (checkout)');
    const deleted = await admin.post('/admin/tag-types/team/delete');
    if (deleted.status === 303) expect((await h.json('GET', '/api/admin/features/checkout/tags')).body.tags).toEqual([]);
    else expect(deleted.alerts).toEqual([(await h.json('DELETE', '/api/admin/tag-types/team')).body.message]);
  });
});

describe('strategy definitions', () => {
  test('an Admin creates one with parameters, edits, deprecates, reactivates and deletes it', async ({ h, pages }) => {
    const admin = await pages.admin();
    const created = await admin.post('/admin/strategies', {
      name: 'by-region', title: 'By region',
      'parameters.0.name': 'regions', 'parameters.0.type': 'list', 'parameters.0.description': 'Regions to enable', 'parameters.0.required': 'on',
      'parameters.1.name': 'share', 'parameters.1.type': 'percentage',
    });
    expect(created.location).toBe('/admin/strategies/by-region?done=created');
    expect((await h.json('GET', '/api/admin/strategies/by-region')).body).toMatchObject({
      name: 'by-region', title: 'By region', editable: true, deprecated: false,
      parameters: [{ name: 'regions', type: 'list', description: 'Regions to enable', required: true }, { name: 'share', type: 'percentage', description: '', required: false }],
    });
    await h.json('POST', '/api/admin/projects/default/features', { name: 'regional' });
    await h.json('POST', '/api/admin/projects/default/features/regional/environments/production/strategies', { name: 'by-region', parameters: { regions: 'eu' } });
    const page = await admin.get('/admin/strategies/by-region');
    expect(page.text('section[aria-labelledby="sd-uses-title"]')).toContain('regional');
    const saved = await admin.post('/admin/strategies/by-region', { ...page.fieldsOf('/admin/strategies/by-region'), 'parameters.1.remove': 'on', description: 'Only some regions' });
    expect(saved.location).toBe('/admin/strategies/by-region?done=saved');
    const body = (await h.json('GET', '/api/admin/strategies/by-region')).body;
    expect([body.description, body.parameters.map((p: any) => p.name)]).toEqual(['Only some regions', ['regions']]);
    expect((await admin.post('/admin/strategies/by-region/deprecate')).location).toBe('/admin/strategies/by-region?done=deprecated');
    expect((await h.json('GET', '/api/admin/strategies/by-region')).body.deprecated).toBe(true);
    expect((await admin.post('/admin/strategies/by-region/reactivate')).location).toBe('/admin/strategies/by-region?done=reactivated');
    expect((await admin.get('/admin/strategies/by-region')).text('[role="group"][aria-label="Delete by-region"]')).toContain('1 strategy of a flag uses it');
    expect((await admin.post('/admin/strategies/by-region/delete')).location).toBe('/admin/strategies?done=deleted');
    expect((await h.json('GET', '/api/admin/strategies/by-region')).status).toBe(404);
  });

  test('a built-in one is read-only; a taken name is marked with the API\'s message', async ({ pages }) => {
    const admin = await pages.admin();
    const builtin = await admin.get('/admin/strategies/flexibleRollout');
    expect(builtin.title).toBe('Gradual rollout');
    expect(builtin.doc.querySelectorAll('main form').length).toBe(0);
    expect(builtin.text('table')).toContain('stickiness');
    const taken = await admin.post('/admin/strategies', { name: 'default' });
    expect([taken.status, taken.invalid(), taken.message('name')]).toEqual([409, ['name'], 'Strategy with name default already exist!']);
  });
});

describe('a Viewer', () => {
  test('sees the definitions without controls, and a post is the "You may not" page that changes nothing', async ({ h, pages }) => {
    await h.json('POST', '/api/admin/tag-types', { name: 'team' });
    await h.json('POST', '/api/admin/strategies', { name: 'custom-one' });
    const viewer = await pages.as('vic');
    for (const path of ['/admin/context-fields', '/admin/context-fields/userId', '/admin/tag-types', '/admin/tag-types/team', '/admin/strategies', '/admin/strategies/custom-one']) {
      const page = await viewer.get(path);
      expect(page.status, path).toBe(200);
      expect(page.doc.querySelectorAll('main form[method="post"], main details.def-create, main details.confirm').length, path).toBe(0);
    }
    for (const [path, fields] of [['/admin/context-fields', { name: 'region' }], ['/admin/context-fields/userId/delete', {}], ['/admin/tag-types/team', { description: 'changed' }], ['/admin/strategies/custom-one/delete', {}]] as const) {
      const refused = await viewer.post(path, fields);
      expect([refused.status, refused.title], path).toEqual([403, 'You may not do this']);
    }
    expect((await h.json('GET', '/api/admin/context/region')).status).toBe(404);
    expect((await h.json('GET', '/api/admin/context/userId')).status).toBe(200);
    expect((await h.json('GET', '/api/admin/tag-types/team')).body.tagType.description).toBe('');
    expect((await h.json('GET', '/api/admin/strategies/custom-one')).status).toBe(200);
  });
});
