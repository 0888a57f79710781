/**
 * `POST /api/admin/features-batch/export`, `/validate` and `/import` (docs/api-decisions.md "Export and
 * import"): the success rows of each, the rules of an import (as Unleash 6.10's, or API-DECISIONS where they
 * differ), and the error rows: bad bodies, unknown ids, wrong token types, hostile values and limits, each a
 * clear 4xx that changes nothing.
 */
import { describe, expect } from 'vitest';
import { expectError, expectNoChange } from '../helpers/expect.js';
import { harnessTest, test } from '../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';
import { createProject, createUser, personalToken } from './access/access-fixtures.js';
import { clientToken } from './client/client-fixtures.js';

const BATCH = '/api/admin/features-batch';
/** The dry run's error item listing the body's schema issues. */
const SCHEMA_ISSUES = 'We detected the following parts of the import data that are not valid (where: why):';
type Data = Record<string, unknown>;

/** An import of flags `names` (bare flags, nothing else) plus `more` lists. */
const data = (names: string[], more: Data = {}): Data => ({ features: names.map((name) => ({ name })), featureStrategies: [], ...more });
const body = (d: Data, project = 'default', environment = 'development') => ({ project, environment, data: d });

const validate = (h: Harness, b: unknown, token?: string) => h.json('POST', `${BATCH}/validate`, b, token ? { token } : undefined);
const importing = (h: Harness, b: unknown, token?: string) => h.json('POST', `${BATCH}/import`, b, token ? { token } : undefined);
const exporting = (h: Harness, b: unknown, token?: string) => h.json('POST', `${BATCH}/export`, b, token ? { token } : undefined);

/** A dry run's errors (or warnings) as [message, items]. */
const byMessage = (items: { message: string; affectedItems: string[] }[]) => items.map((i) => [i.message, i.affectedItems]);

async function expectImported(h: Harness, b: unknown): Promise<void> {
  const r = await importing(h, b);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toBeNull();
}

/** Asserts that the dry run finds `message` (a pattern) with exactly `items`, and that the import is refused naming it and changes nothing. */
async function expectRefused(h: Harness, b: unknown, message: RegExp, items: string[]): Promise<void> {
  await expectNoChange(h, async () => {
    const dry = await validate(h, b);
    expect(dry.status).toBe(200);
    const found = dry.body.errors.find((e: { message: string }) => message.test(e.message));
    expect(found, JSON.stringify(dry.body)).toBeDefined();
    expect(found.affectedItems).toEqual(items);
    const r = await importing(h, b);
    expectError(r, 400, 'ValidationError', /nothing was changed/);
    expect(r.body.details.some((d: { message: string }) => message.test(d.message))).toBe(true);
  });
}

describe('export', () => {
  test('chooses flags by names, by tag value (or type:value), by project, or all; sorted by name', async ({ h }) => {
    await createProject(h, 'other');
    for (const name of ['b-flag', 'a-flag']) await createFlag(h, name);
    await createFlag(h, 'c-flag', {}, 'other');
    expect((await h.json('PUT', '/api/admin/features/b-flag/tags', { addedTags: [{ type: 'simple', value: 'web' }], removedTags: [] })).status).toBe(200);
    const names = async (b: Data) => {
      const r = await exporting(h, { environment: 'development', ...b });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.features.map((f: { name: string; project: string }) => `${f.project}/${f.name}`);
    };
    expect(await names({ features: ['c-flag', 'a-flag', 'unknown'] })).toEqual(['default/a-flag', 'other/c-flag']);
    expect(await names({ tag: 'web' })).toEqual(['default/b-flag']);
    expect(await names({ tag: 'simple:web' })).toEqual(['default/b-flag']);
    expect(await names({ tag: 'other:web' })).toEqual([]);
    expect(await names({ project: 'other' })).toEqual(['other/c-flag']);
    expect(await names({})).toEqual(['default/a-flag', 'default/b-flag', 'other/c-flag']);
    // An empty list of names is "no names", as in Unleash.
    expect(await names({ features: [], project: 'other' })).toEqual(['other/c-flag']);
  });

  test('the answer has Unleash 6.10\'s fields; strategies and the flag\'s state in the chosen environment only', async ({ h }) => {
    await createFlag(h, 'f', { description: 'one', type: 'experiment', impressionData: true });
    await addStrategy(h, 'f', 'development', { name: 'flexibleRollout', parameters: { rollout: '30', stickiness: 'userId', groupId: 'g' }, constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'] }] });
    await switchOn(h, 'f', 'development');
    await addStrategy(h, 'f', 'production', { name: 'default' });
    const dev = (await exporting(h, { environment: 'development', features: ['f'] })).body;
    expect(dev.features).toEqual([{ name: 'f', description: 'one', type: 'experiment', project: 'default', stale: false, impressionData: true, archived: false }]);
    expect(dev.featureStrategies).toEqual([{ name: 'flexibleRollout', id: expect.any(String), featureName: 'f', title: null, parameters: { rollout: '30', stickiness: 'userId', groupId: 'g' }, constraints: [{ contextName: 'appName', operator: 'IN', values: ['web'], inverted: false, caseInsensitive: false }], variants: [], disabled: false, segments: [] }]);
    expect(dev.featureEnvironments).toEqual([{ enabled: true, featureName: 'f', environment: 'development', variants: [], name: 'f' }]);
    // Only the context fields the strategies use (stickiness and constraints), as Unleash.
    expect(dev.contextFields.map((f: { name: string }) => f.name)).toEqual(['appName', 'userId']);
    expect(dev).toMatchObject({ featureTags: [], segments: [], tagTypes: [], dependencies: [] });
    const prod = (await exporting(h, { environment: 'production', features: ['f'] })).body;
    expect(prod.featureStrategies.map((s: { name: string }) => s.name)).toEqual(['default']);
    expect(prod.featureEnvironments[0].enabled).toBe(false);
  });

  test('archived flags: exported when named (archived: true), not with their project', async ({ h }) => {
    await createFlag(h, 'gone');
    await createFlag(h, 'kept');
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    expect((await exporting(h, { environment: 'development', features: ['gone'] })).body.features).toMatchObject([{ name: 'gone', archived: true }]);
    expect((await exporting(h, { environment: 'development', project: 'default' })).body.features.map((f: { name: string }) => f.name)).toEqual(['kept']);
  });

  test('downloadFile: answered as an attachment', async ({ h }) => {
    const r = await h.req('POST', `${BATCH}/export`, { environment: 'development', downloadFile: true });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="export-development.json"');
    expect((await h.req('POST', `${BATCH}/export`, { environment: 'development' })).headers.get('content-disposition')).toBeNull();
  });

  test('errors: unknown environment or project 404; a bad body 400; no token 401; client and frontend tokens 403', async ({ h }) => {
    expectError(await exporting(h, { environment: 'staging' }), 404, 'NotFoundError', /staging/);
    expectError(await exporting(h, { environment: 'development', project: 'nope' }), 404, 'NotFoundError', /nope/);
    for (const bad of [{}, { environment: 1 }, { environment: 'development', features: 'a' }, { environment: 'development', features: [''] }, { environment: 'development', surprise: 1 }, { environment: 'development', downloadFile: 'yes' }, [], { environment: 'development', tag: '' }, { environment: 'development', features: Array.from({ length: 1001 }, (_, i) => `f${i}`) }]) {
      expectError(await exporting(h, bad), 400, 'ValidationError');
    }
    expectError(await h.json('POST', `${BATCH}/export`, { environment: 'development' }, { token: null }), 401, 'AuthenticationRequired');
    for (const type of ['client', 'frontend']) expectError(await exporting(h, { environment: 'development' }, await clientToken(h, ['*'], 'development', type)), 403, 'NoAccessError');
  });
});

describe('import', () => {
  test('creates new flags with their strategies, state, variants, tags and parents; other environments untouched', async ({ h }) => {
    await expectImported(h, body(data(['parent', 'child'], {
      features: [{ name: 'parent', description: null, type: 'operational', stale: true, impressionData: true, project: 'elsewhere', archived: false }, { name: 'child' }],
      featureStrategies: [
        { featureName: 'parent', name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }] },
        { featureName: 'parent', name: 'userWithId', parameters: { userIds: 'a' }, disabled: true },
        { featureName: 'child', name: 'flexibleRollout', parameters: { rollout: 20 } },
      ],
      featureEnvironments: [{ featureName: 'parent', enabled: true, variants: [{ name: 'v', weightType: 'variable', weight: 0 }] }, { featureName: 'child', enabled: false }],
      featureTags: [{ featureName: 'child', tagType: 'simple', tagValue: 'web' }],
      dependencies: [{ feature: 'child', dependencies: [{ feature: 'parent' }] }],
    })));
    const parent = (await h.json('GET', flagPath('parent'))).body;
    expect(parent).toMatchObject({ name: 'parent', description: '', type: 'operational', stale: true, impressionData: true, project: 'default' });
    expect(parent.variants).toMatchObject([{ name: 'v', weight: 1000 }]);
    const dev = parent.environments.find((e: { name: string }) => e.name === 'development');
    expect(dev.enabled).toBe(true);
    expect(dev.strategies.map((s: { name: string; sortOrder: number; disabled: boolean }) => [s.name, s.sortOrder, s.disabled])).toEqual([['default', 0, false], ['userWithId', 1, true]]);
    expect(parent.environments.find((e: { name: string }) => e.name === 'production')).toMatchObject({ enabled: false, strategies: [] });
    const child = (await h.json('GET', flagPath('child'))).body;
    expect(child.dependencies).toEqual([{ feature: 'parent', enabled: true, variants: [] }]);
    expect(child.tags).toEqual([{ type: 'simple', value: 'web' }]);
    expect(child.environments.find((e: { name: string }) => e.name === 'development').strategies[0].parameters).toEqual({ rollout: '20', stickiness: 'default', groupId: 'child' });
  });

  test('an existing flag is overwritten in the environment (strategies, state, metadata, tags replaced; parents added); the dry run warns', async ({ h }) => {
    await createFlag(h, 'f', { description: 'old', type: 'release' });
    await addStrategy(h, 'f', 'development', { name: 'default' });
    await switchOn(h, 'f', 'development');
    await addStrategy(h, 'f', 'production', { name: 'default' });
    await createFlag(h, 'p');
    await createFlag(h, 'q');
    expect((await h.json('POST', `${flagPath('f')}/dependencies`, { feature: 'p' })).status).toBe(200);
    expect((await h.json('PUT', '/api/admin/features/f/tags', { addedTags: [{ type: 'simple', value: 'old' }], removedTags: [] })).status).toBe(200);
    const b = body(data([], {
      features: [{ name: 'f', description: 'new', type: 'kill-switch' }],
      featureStrategies: [{ featureName: 'f', name: 'userWithId', parameters: { userIds: 'x' } }],
      featureEnvironments: [{ featureName: 'f', enabled: false }],
      featureTags: [{ featureName: 'f', tagType: 'simple', tagValue: 'new' }],
      dependencies: [{ feature: 'f', dependencies: [{ feature: 'q', enabled: false }] }],
    }));
    const dry = await validate(h, b);
    expect(dry.body).toEqual({ errors: [], warnings: [{ message: expect.stringMatching(/already exist in this project and will be overwritten/), affectedItems: ['f'] }], permissions: [] });
    await expectImported(h, b);
    const f = (await h.json('GET', flagPath('f'))).body;
    expect(f).toMatchObject({ description: 'new', type: 'kill-switch' });
    expect(f.tags).toEqual([{ type: 'simple', value: 'new' }]);
    expect(f.dependencies).toEqual([{ feature: 'p', enabled: true, variants: [] }, { feature: 'q', enabled: false }]);
    const dev = f.environments.find((e: { name: string }) => e.name === 'development');
    expect(dev.enabled).toBe(false);
    expect(dev.strategies.map((s: { name: string }) => s.name)).toEqual(['userWithId']);
    expect(f.environments.find((e: { name: string }) => e.name === 'production').strategies.map((s: { name: string }) => s.name)).toEqual(['default']);
    // The history names the import, with the flag before and after.
    const history = (await h.json('GET', '/api/admin/events?project=default&feature=f')).body;
    expect(history.events[0]).toMatchObject({ type: 'flag.imported', feature: 'f', before: { description: 'old' }, after: { description: 'new' } });
  });

  test('archived flags are left alone, with a warning (as Unleash)', async ({ h }) => {
    await createFlag(h, 'gone', { description: 'kept' });
    expect((await h.req('DELETE', flagPath('gone'))).status).toBe(202);
    const b = body(data(['gone', 'fresh'], {
      features: [{ name: 'gone', description: 'changed' }, { name: 'fresh' }],
      featureStrategies: [{ featureName: 'gone', name: 'nowhere' }],
      featureTags: [{ featureName: 'gone', tagType: 'team', tagValue: 'core' }],
      tagTypes: [{ name: 'team' }],
    }));
    expect(byMessage((await validate(h, b)).body.warnings)).toEqual([[expect.stringMatching(/will not be imported as they are currently archived/), ['gone']]]);
    await expectImported(h, b);
    expect((await h.json('GET', flagPath('gone'))).body).toMatchObject({ archived: true, description: 'kept' });
    expect((await h.json('GET', flagPath('fresh'))).status).toBe(200);
    // Nothing of the archived flag counts: its strategy's definition is not needed, its tag's type not created.
    expect((await h.json('GET', '/api/admin/tag-types/team')).status).toBe(404);
  });

  test('enabled without an enabled strategy: the environment\'s default strategy is added; without one, imported disabled with a warning', async ({ h }) => {
    const b = body(data(['bare']), 'default', 'development');
    (b.data as Data)['featureEnvironments'] = [{ featureName: 'bare', enabled: true }];
    expect(byMessage((await validate(h, b)).body.warnings)).toEqual([[expect.stringMatching(/enabled in the import without an enabled strategy/), ['bare']]]);
    await expectImported(h, b);
    expect((await h.json('GET', flagPath('bare'))).body.environments[0]).toMatchObject({ name: 'development', enabled: false, strategies: [] });
    expect((await h.json('POST', '/api/admin/projects/default/environments/development/default-strategy', { name: 'flexibleRollout', parameters: { rollout: '40', groupId: 'x' } })).status).toBe(200);
    await expectImported(h, b);
    const dev = (await h.json('GET', flagPath('bare'))).body.environments[0];
    expect(dev.enabled).toBe(true);
    expect(dev.strategies).toMatchObject([{ name: 'flexibleRollout', parameters: { rollout: '40', groupId: 'bare' } }]);
  });

  test('creates the tag types and context fields it brings; present ones are kept as they are', async ({ h }) => {
    expect((await h.json('POST', '/api/admin/context', { name: 'region', description: 'mine', legalValues: [{ value: 'eu' }, { value: 'us' }] })).status).toBe(201);
    await expectImported(h, body(data(['f'], {
      featureTags: [{ featureName: 'f', tagType: 'team', tagValue: 'core' }],
      tagTypes: [{ name: 'team', description: 'teams', icon: 'T', color: '#112233' }, { name: 'unused', description: 'not used by a tag' }],
      contextFields: [{ name: 'region', description: 'theirs', legalValues: [{ value: 'eu' }] }, { name: 'tier', description: 'new', stickiness: true, legalValues: [{ value: 'gold' }] }],
    })));
    expect((await h.json('GET', '/api/admin/tag-types/team')).body.tagType).toEqual({ name: 'team', description: 'teams', icon: 'T', color: '#112233' });
    expect((await h.json('GET', '/api/admin/tag-types/unused')).status).toBe(404);
    expect((await h.json('GET', '/api/admin/context/region')).body).toMatchObject({ description: 'mine', legalValues: [{ value: 'eu' }, { value: 'us' }] });
    expect((await h.json('GET', '/api/admin/context/tier')).body).toMatchObject({ description: 'new', stickiness: true, legalValues: [{ value: 'gold' }] });
    expect(h.registry.project('default')!.state.meta.pendingImport).toBeUndefined();
  });

  test('into another project and environment; an empty import changes nothing', async ({ h }) => {
    await createProject(h, 'team');
    await expectImported(h, body(data(['t'], { featureStrategies: [{ featureName: 't', name: 'default' }], featureEnvironments: [{ featureName: 't', enabled: true }] }), 'team', 'production'));
    const t = (await h.json('GET', flagPath('t', 'team'))).body;
    expect(t.environments.find((e: { name: string }) => e.name === 'production')).toMatchObject({ enabled: true, strategies: [{ name: 'default' }] });
    await expectNoChange(h, () => expectImported(h, body(data([]))));
  });
});

describe('what an import refuses (the dry run lists it, the import answers 400 and changes nothing)', () => {
  test('a strategy no definition names', async ({ h }) => {
    await expectRefused(h, body(data(['f'], { featureStrategies: [{ featureName: 'f', name: 'mystery' }] })), /custom strategy that needs to be created first/, ['mystery']);
  });

  test('a context field whose legal values lack imported ones; a constraint value not legal', async ({ h }) => {
    expect((await h.json('POST', '/api/admin/context', { name: 'region', legalValues: [{ value: 'eu' }] })).status).toBe(201);
    await expectRefused(h, body(data(['f'], { contextFields: [{ name: 'region', legalValues: [{ value: 'mars' }] }] })), /do not have matching legal values/, ['region']);
    await expectRefused(h, body(data(['f'], { featureStrategies: [{ featureName: 'f', name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu', 'moon'] }] }] })), /not legal values/, ['f: region=moon']);
    // A field the import creates is checked with its own legal values.
    await expectRefused(h, body(data(['f'], {
      contextFields: [{ name: 'tier', legalValues: [{ value: 'gold' }] }],
      featureStrategies: [{ featureName: 'f', name: 'default', constraints: [{ contextName: 'tier', operator: 'IN', values: ['tin'] }] }],
    })), /not legal values/, ['f: tier=tin']);
  });

  test('a segment missing here, or one of another project', async ({ h }) => {
    await expectRefused(h, body(data(['f'], { segments: [{ id: 7, name: 'absent' }], featureStrategies: [{ featureName: 'f', name: 'default', segments: [7] }] })), /segments that need to be created first/, ['absent']);
    await createProject(h, 'other');
    expect((await h.json('POST', '/api/admin/segments', { name: 'theirs', project: 'other', constraints: [] })).status).toBe(201);
    await expectRefused(h, body(data(['f'], { segments: [{ id: 1, name: 'theirs' }], featureStrategies: [{ featureName: 'f', name: 'default', segments: [1] }] })), /segments that need to be created first/, ['theirs']);
    await expectRefused(h, body(data(['f'], { featureStrategies: [{ featureName: 'f', name: 'default', segments: [3] }] })), /segment ids the import does not list/, ['3']);
  });

  test('a tag type neither here nor in the import', async ({ h }) => {
    await expectRefused(h, body(data(['f'], { featureTags: [{ featureName: 'f', tagType: 'nowhere', tagValue: 'x1' }] })), /tag types that need to be created first/, ['nowhere']);
  });

  test('a flag of the same name in another project; a flag listed twice', async ({ h }) => {
    await createProject(h, 'other');
    await createFlag(h, 'taken', {}, 'other');
    await expectRefused(h, body(data(['taken'])), /already exist in other projects/, ['taken (in project other)']);
    await expectRefused(h, body(data(['twice', 'twice'])), /duplicate/, ['twice']);
  });

  test('entries of flags the import does not list', async ({ h }) => {
    await expectRefused(h, body(data(['f'], {
      featureStrategies: [{ featureName: 'ghost', name: 'default' }],
      featureEnvironments: [{ featureName: 'ghost2', enabled: true }],
      featureTags: [{ featureName: 'ghost3', tagType: 'simple', tagValue: 'x1' }],
    })), /features the import does not list/, ['ghost', 'ghost2', 'ghost3']);
  });

  test('dependencies: a parent neither here nor imported, itself, a chain, an archived parent', async ({ h }) => {
    const deps = (feature: string, parent: string) => ({ feature, dependencies: [{ feature: parent }] });
    await expectRefused(h, body(data(['c'], { dependencies: [deps('c', 'missing')] })), /dependencies that need to be created first/, ['missing']);
    await expectRefused(h, body(data(['c'], { dependencies: [deps('c', 'c')] })), /break the dependency rules/, ['c: depends on itself']);
    await expectRefused(h, body(data(['a', 'b', 'c'], { dependencies: [deps('c', 'b'), deps('b', 'a')] })), /break the dependency rules/, ['c: parent "b" has a parent of its own']);
    await createFlag(h, 'old-parent');
    await createFlag(h, 'old-child');
    expect((await h.json('POST', `${flagPath('old-child')}/dependencies`, { feature: 'old-parent' })).status).toBe(200);
    await expectRefused(h, body(data(['c'], { dependencies: [deps('c', 'old-child')] })), /break the dependency rules/, ['c: parent "old-child" has a parent of its own', 'old-child: is a parent and has a parent of its own']);
    await expectRefused(h, body(data(['old-parent'], { dependencies: [deps('old-parent', 'c2')] , features: [{ name: 'old-parent' }, { name: 'c2' }] })), /break the dependency rules/, ['old-child: depends on a flag the import gives a parent']);
    await createFlag(h, 'archived-parent');
    expect((await h.req('DELETE', flagPath('archived-parent'))).status).toBe(202);
    await expectRefused(h, body(data(['c'], { dependencies: [deps('c', 'archived-parent')] })), /dependencies that need to be created first/, ['archived-parent']);
  });

  test('an environment the project does not use', async ({ h }) => {
    expect((await h.json('POST', '/api/admin/environments', { name: 'staging', type: 'test' })).status).toBe(201);
    await expectRefused(h, body(data(['f']), 'default', 'staging'), /not enabled for project/, ['staging']);
  });

  test('unknown project: 404 for both; nothing changes', async ({ h }) => {
    await expectNoChange(h, async () => {
      expectError(await validate(h, body(data(['f']), 'nope')), 404, 'NotFoundError', /nope/);
      expectError(await importing(h, body(data(['f']), 'nope')), 404, 'NotFoundError', /nope/);
    });
  });

  test('bad bodies and hostile values: the import answers 400 naming the property; the dry run 200 listing where each is; nothing changes', async ({ h }) => {
    const bad: [unknown, string][] = [
      [{}, 'project'], [{ project: 'default', environment: 'development' }, 'data'],
      [body({ featureStrategies: [] }), 'data.features'], [body({ features: [] }), 'data.featureStrategies'], [body({ features: {}, featureStrategies: [] }), 'data.features'],
      [{ ...body(data(['f'])), extra: 1 }, 'extra'],
      [body(data(['f'], { surprise: [] })), 'data.surprise'],
      [body({ features: [{ name: 'bad name' }], featureStrategies: [] }), 'data.features.0.name'],
      [body({ features: [{ name: '__proto__', type: 'bogus' }], featureStrategies: [] }), 'data.features.0.name'],
      [body({ features: [{ name: 'f', stale: 'yes' }], featureStrategies: [] }), 'data.features.0.stale'],
      [JSON.parse('{"project":"default","environment":"development","data":{"features":[{"name":"f"}],"featureStrategies":[{"featureName":"f","name":"default","parameters":{"__proto__":"x"}}]}}'), 'data.featureStrategies.0.parameters'],
      [body(data(['f'], { featureStrategies: [{ featureName: 'f', name: 'flexibleRollout', parameters: { rollout: '101' } }] })), 'data.featureStrategies.0'],
      [body(data(['f'], { featureStrategies: [{ featureName: 'f', name: 'default', constraints: [{ contextName: 'a', operator: 'LIKE', values: ['x'] }] }] })), 'data.featureStrategies.0.constraints.0.operator'],
      [body(data(['f'], { featureEnvironments: [{ featureName: 'f', enabled: true, variants: [{ name: 'a', weightType: 'fix', weight: 1000 }] }] })), 'data.featureEnvironments.0.variants'],
      [body(data(['f'], { featureTags: [{ featureName: 'f', tagType: 'simple', tagValue: 'x' }] })), 'data.featureTags.0.tagValue'],
      [body(data(['f'], { tagTypes: [{ name: 'constructor' }] })), 'data.tagTypes.0.name'],
      [body(data(['f'], { contextFields: [{ name: 'toString' }] })), 'data.contextFields.0.name'],
      [body(data(['f'], { contextFields: [{ name: 'x', legalValues: [{ value: 'a' }, { value: 'a' }] }] })), 'data.contextFields.0.legalValues'],
      [body(data(['f'], { dependencies: [{ feature: 'f', dependencies: 'p' }] })), 'data.dependencies.0.dependencies'],
      [body(data(['f'], { segments: [{ id: -1, name: 's' }] })), 'data.segments.0.id'],
      [body(data(['f']), '*'), 'project'], [body(data(['f']), 'default', ''), 'environment'],
    ];
    await expectNoChange(h, async () => {
      for (const [i, [b, where]] of bad.entries()) {
        const dry = await validate(h, b);
        expect(dry.status, `body ${i}: ${JSON.stringify(dry.body)}`).toBe(200);
        const schemaItems = dry.body.errors.find((e: { message: string }) => e.message === SCHEMA_ISSUES)?.affectedItems as string[] | undefined;
        expect(schemaItems?.some((item) => item.startsWith(`${where}:`) || item.startsWith(`${where}.`)), `body ${i} names ${where}: ${JSON.stringify(dry.body.errors)}`).toBe(true);
        expectError(await importing(h, b), 400, 'ValidationError');
      }
      // Only a body that is not an object at all is a 400 for the dry run too.
      for (const b of [[], 'x', 3]) expectError(await validate(h, b), 400, 'ValidationError');
      const notJson = await h.json('POST', `${BATCH}/import`, '{"project":', {});
      expectError(notJson, 400, 'ValidationError');
      expectError(await h.json('POST', `${BATCH}/import`, 'x', { headers: { 'content-type': 'text/plain' } }), 415, 'ContentTypeError');
    });
  });

  test('the dry run lists every problem at once: schema issues in nested parts beside what the valid parts would meet', async ({ h }) => {
    await createFlag(h, 'existing');
    const b = body({
      features: [{ name: 'ok' }, { name: 'existing' }, { name: 'broken', stale: 'no' }, { name: 'variants' }],
      featureStrategies: [
        // Strategy variants without a `variable` one, and a rollout past 100: both reported, each where it is.
        { featureName: 'variants', name: 'flexibleRollout', parameters: { rollout: '50' }, variants: [{ name: 'a', weightType: 'fix', weight: 500, stickiness: 'default' }] },
        { featureName: 'ok', name: 'flexibleRollout', parameters: { rollout: '150' } },
        { featureName: 'ok', name: 'no-such-strategy' },
        // The parts of an invalid flag are not checked again: this unknown strategy is not reported.
        { featureName: 'broken', name: 'unknown-too' },
      ],
      featureTags: [{ featureName: 'ok', tagType: 'missing-type', tagValue: 'vv' }],
      dependencies: [{ feature: 'ok', dependencies: [{ feature: 'nowhere' }] }],
    });
    await expectNoChange(h, async () => {
      const dry = await validate(h, b);
      expect(dry.status, JSON.stringify(dry.body)).toBe(200);
      const errors = Object.fromEntries(byMessage(dry.body.errors));
      expect(errors[SCHEMA_ISSUES]).toEqual([
        'data.features.2.stale: must be a boolean, got "no"',
        expect.stringMatching(/^data\.featureStrategies\.0\.variants: .*variable/),
        expect.stringMatching(/^data\.featureStrategies\.1.*rollout/),
      ]);
      expect(Object.entries(errors).filter(([message]) => message !== SCHEMA_ISSUES)).toEqual(expect.arrayContaining([
        [expect.stringMatching(/custom strategy that needs to be created first/), ['no-such-strategy']],
        [expect.stringMatching(/tag types that need to be created first/), ['missing-type']],
        [expect.stringMatching(/dependencies that need to be created first/), ['nowhere']],
      ]));
      expect(JSON.stringify(dry.body.errors)).not.toContain('unknown-too');
      expect(byMessage(dry.body.warnings)).toEqual([[expect.stringMatching(/already exist in this project and will be overwritten/), ['existing']]]);
      expectError(await importing(h, b), 400, 'ValidationError');
    });
  });

  test('many invalid entries: the dry run lists the first 100 issues and counts the rest', async ({ h }) => {
    const names = Array.from({ length: 150 }, (_, i) => `f${i}`);
    const dry = await validate(h, body({ features: names.map((name) => ({ name, stale: 'no' })), featureStrategies: [] }));
    expect(dry.status).toBe(200);
    const items = dry.body.errors.find((e: { message: string }) => e.message === SCHEMA_ISSUES).affectedItems as string[];
    expect(items).toHaveLength(101);
    expect(items[0]).toBe('data.features.0.stale: must be a boolean, got "no"');
    expect(items[100]).toBe('and 50 more issues not listed');
  });

  test('more flags than one import takes: 400', async ({ h }) => {
    const names = Array.from({ length: 20_001 }, (_, i) => `f${i}`);
    await expectNoChange(h, async () => expectError(await importing(h, body(data(names))), 400, 'ValidationError', /at most 20000/));
  });

  test('tokens: none 401; client and frontend 403; a root Viewer may dry-run (told what it lacks) but not import; an Editor may', async ({ h }) => {
    const b = body(data(['f']));
    const tokens = [await clientToken(h, ['*'], 'development', 'client'), await clientToken(h, ['*'], 'development', 'frontend')];
    const viewer = await personalToken(h, await createUser(h, { email: 'v@example.com', rootRole: 3 }));
    const editor = await personalToken(h, await createUser(h, { email: 'e@example.com', rootRole: 2 }));
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', `${BATCH}/import`, b, { token: null }), 401, 'AuthenticationRequired');
      expectError(await h.json('POST', `${BATCH}/validate`, b, { token: null }), 401, 'AuthenticationRequired');
      for (const token of tokens) {
        expectError(await importing(h, b, token), 403, 'NoAccessError');
        expectError(await validate(h, b, token), 403, 'NoAccessError');
      }
      const dry = await validate(h, b, viewer);
      expect(dry.status).toBe(200);
      expect(dry.body.permissions).toEqual([{ message: 'We detected you are missing the following permissions:', affectedItems: ['UPDATE_DEFINITIONS'] }]);
      expectError(await importing(h, b, viewer), 403, 'NoAccessError', /UPDATE_DEFINITIONS/);
    });
    expect((await validate(h, b, editor)).body.permissions).toEqual([]);
    const r = await importing(h, b, editor);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await h.json('GET', flagPath('f'))).status).toBe(200);
  });
});

const smallBody = harnessTest({ env: { IMPORT_BODY_LIMIT: '2048', LIMIT_STRATEGIES_PER_ENVIRONMENT: '2', LIMIT_FLAGS_PER_PROJECT: '3', LIMIT_TAG_TYPES: '2', LIMIT_TAGS_PER_FLAG: '1' } });

describe('limits', () => {
  smallBody('IMPORT_BODY_LIMIT: 413; the other routes keep BODY_LIMIT', async ({ h }) => {
    const big = body(data(Array.from({ length: 200 }, (_, i) => `flag-${i}`)));
    await expectNoChange(h, async () => {
      expectError(await importing(h, big), 413, 'PayloadTooLarge');
      expectError(await validate(h, big), 413, 'PayloadTooLarge');
    });
    // 2 KB is far below BODY_LIMIT's 1 MiB: a flag with a long description is still created.
    await createFlag(h, 'long', { description: 'x'.repeat(5000) });
  });

  smallBody('strategies per environment, flags per project, tag types, tags per flag: listed, refused, nothing changes', async ({ h }) => {
    await expectRefused(h, body(data(['f'], { featureStrategies: [1, 2, 3].map(() => ({ featureName: 'f', name: 'default' })) })), /limits that the import would pass/, [expect.stringMatching(/strategies of flag "f".*LIMIT_STRATEGIES_PER_ENVIRONMENT/) as unknown as string]);
    await expectRefused(h, body(data(['a', 'b', 'c', 'd'])), /limits that the import would pass/, [expect.stringMatching(/flags in project "default".*LIMIT_FLAGS_PER_PROJECT/) as unknown as string]);
    await expectRefused(h, body(data(['f'], { featureTags: [{ featureName: 'f', tagType: 't1', tagValue: 'v1' }, { featureName: 'f', tagType: 't2', tagValue: 'v2' }], tagTypes: [{ name: 't1' }, { name: 't2' }] })), /limits that the import would pass/, [expect.stringMatching(/tag types.*LIMIT_TAG_TYPES/) as unknown as string, expect.stringMatching(/tags of flag "f".*LIMIT_TAGS_PER_FLAG/) as unknown as string]);
  });
});
