/**
 * An export recorded from a real Unleash 6.10.1 (`test/fixtures/unleash-6.10-export-development.json`:
 * `POST /api/admin/features-batch/export {"tag":"bx-growth","environment":"development"}`) imports into
 * flagpole and exports back with every field both support, compared field by field. What differs is listed
 * (docs/api-decisions.md "Export and import"): strategy ids are new, segment ids are this installation's, and
 * the built-in `simple` tag type keeps flagpole's own colour, and a constraint's absent `inverted` and
 * `caseInsensitive` are answered as their defaults.
 */
import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import type { Harness } from '../helpers/harness.js';
import { flagPath } from '../helpers/flags.js';

const FIXTURE = new URL('../fixtures/unleash-6.10-export-development.json', import.meta.url);
const recorded = () => JSON.parse(readFileSync(FIXTURE, 'utf8'));

/** What must exist before the import: the custom strategy and the segment (an import creates neither, as in Unleash). */
async function prepare(h: Harness): Promise<number> {
  const strategy = await h.json('POST', '/api/admin/strategies', { name: 'bx-custom', description: 'bx custom strategy', parameters: [{ name: 'region', type: 'string', description: 'a region', required: true }, { name: 'percent', type: 'percentage', description: '', required: false }] });
  expect(strategy.status, JSON.stringify(strategy.body)).toBe(201);
  // Another segment first, so the local id differs from the recorded one.
  expect((await h.json('POST', '/api/admin/segments', { name: 'other', constraints: [] })).status).toBe(201);
  const segment = await h.json('POST', '/api/admin/segments', { name: 'bx-seg', description: 'bx segment', constraints: [{ contextName: 'bx-region', operator: 'IN', values: ['eu'], inverted: false, caseInsensitive: false }] });
  expect(segment.status, JSON.stringify(segment.body)).toBe(201);
  return segment.body.id;
}

const importBody = (data: unknown) => ({ project: 'default', environment: 'development', data });

describe('Unleash 6.10 export → flagpole → export', () => {
  test('validates with only the custom-strategy warning, imports, and exports back field by field', async ({ h }) => {
    const data = recorded();
    const segmentId = await prepare(h);
    const validation = await h.json('POST', '/api/admin/features-batch/validate', importBody(data));
    expect(validation.status).toBe(200);
    expect(validation.body).toEqual({
      errors: [],
      warnings: [{ message: expect.stringMatching(/strategy types will be used/), affectedItems: ['bx-custom'] }],
      permissions: [],
    });
    const imported = await h.json('POST', '/api/admin/features-batch/import', importBody(data));
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);

    const exported = await h.json('POST', '/api/admin/features-batch/export', { tag: 'bx-growth', environment: 'development' });
    expect(exported.status).toBe(200);
    const back = exported.body;
    expect(Object.keys(back)).toEqual(Object.keys(data));
    expect(back.features).toEqual(data.features);
    // Strategies: same order, every field but the id (new, as Unleash's import makes); segments by name.
    const withoutId = ({ id: _id, ...s }: Record<string, unknown>) => s;
    // A constraint's absent `inverted` and `caseInsensitive` come back as their defaults (false).
    const normalized = (s: Record<string, unknown>) => ({
      ...withoutId(s),
      constraints: (s['constraints'] as object[]).map((c) => ({ inverted: false, caseInsensitive: false, ...c })),
      segments: (s['segments'] as number[]).map(() => segmentId),
    });
    expect(back.featureStrategies.map(withoutId)).toEqual(data.featureStrategies.map(normalized));
    for (const s of back.featureStrategies) expect(data.featureStrategies.some((r: { id: string }) => r.id === s.id)).toBe(false);
    expect(back.featureEnvironments).toEqual(data.featureEnvironments);
    expect(back.contextFields).toEqual(data.contextFields);
    expect(back.featureTags).toEqual(data.featureTags);
    expect(back.segments).toEqual([{ id: segmentId, name: 'bx-seg' }]);
    expect(back.tagTypes).toEqual(data.tagTypes.map((t: { name: string }) => (t.name === 'simple' ? { ...t, color: null } : t)));
    expect(back.dependencies).toEqual(data.dependencies);
  });

  test('the imported flags are flags like any other: detail, client API, and they survive a restart', async ({ h }) => {
    await prepare(h);
    expect((await h.json('POST', '/api/admin/features-batch/import', importBody(recorded()))).status).toBe(200);
    const check = async () => {
      const child = (await h.json('GET', flagPath('bx-child'))).body;
      expect(child.dependencies).toEqual([{ feature: 'bx-checkout', enabled: true, variants: ['csvy'] }]);
      expect(child.tags).toEqual([{ type: 'bx-team', value: 'bx-growth' }]);
      const banner = (await h.json('GET', flagPath('bx-banner'))).body;
      expect(banner.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([['green', 300], ['plain', 350], ['red', 350]]);
      const dev = banner.environments.find((e: { name: string }) => e.name === 'development');
      expect(dev.enabled).toBe(true);
      expect(dev.strategies.map((s: { name: string }) => s.name)).toEqual(['default', 'flexibleRollout']);
      const prod = banner.environments.find((e: { name: string }) => e.name === 'production');
      expect(prod).toMatchObject({ enabled: false, strategies: [] });
      expect((await h.json('GET', '/api/admin/tag-types/bx-team')).body.tagType).toMatchObject({ name: 'bx-team', description: 'bx team tag' });
      const field = (await h.json('GET', '/api/admin/context/bx-region')).body;
      expect(field).toMatchObject({ name: 'bx-region', stickiness: true, legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us', description: 'USA' }, { value: 'apac' }] });
      const client = (await h.json('GET', '/api/client/features')).body;
      expect(client.features.map((f: { name: string }) => f.name).sort()).toEqual(['bx-banner', 'bx-checkout', 'bx-child', 'bx-kill']);
    };
    await check();
    expect(h.registry.project('default')!.state.meta.pendingImport).toBeUndefined();
    await h.restart();
    await check();
  });
});

/**
 * The same export as Unleash 8.x answers it (`test/fixtures/unleash-8-export-development.json`: the recorded
 * one in 8.1's shapes, read from its export service and stores): a `sunset` flag, flag `links`, and a project's
 * own context field (`project`, with its usage counts).
 */
const UNLEASH_8 = new URL('../fixtures/unleash-8-export-development.json', import.meta.url);

describe('Unleash 8.x export → flagpole', () => {
  test('validates with a warning that links are not imported, imports the sunset flag as sunset, the project field service-wide', async ({ h }) => {
    const data = JSON.parse(readFileSync(UNLEASH_8, 'utf8'));
    await prepare(h);
    const validation = await h.json('POST', '/api/admin/features-batch/validate', importBody(data));
    expect(validation.status).toBe(200);
    expect(validation.body).toEqual({
      errors: [],
      warnings: [
        { message: expect.stringMatching(/strategy types will be used/), affectedItems: ['bx-custom'] },
        { message: expect.stringMatching(/have links \(Unleash 8\), which flagpole does not import/), affectedItems: ['bx-banner'] },
      ],
      permissions: [],
    });
    const imported = await h.json('POST', '/api/admin/features-batch/import', importBody(data));
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect((await h.json('GET', flagPath('bx-kill'))).body.type).toBe('sunset');
    expect((await h.json('GET', '/api/admin/context/bx-tier')).status).toBe(200);
    const exported = (await h.json('POST', '/api/admin/features-batch/export', { tag: 'bx-growth', environment: 'development' })).body;
    expect(exported.features.find((f: { name: string }) => f.name === 'bx-kill').type).toBe('sunset');
  });
});
