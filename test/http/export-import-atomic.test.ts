/**
 * An import applies all of it or nothing, also across actors (docs/architecture.md "Export and import"): the
 * project's record is the commit point, the tag types and context fields it brings are created after it, and
 * a crash between the two is finished at the next start. Concurrent writes that would invalidate an import
 * (a segment or tag type deleted, a flag created) are serialized with it. Restart and the dump keep it.
 */
import { describe, expect } from 'vitest';
import type { WriteGate } from '../../snapshots/disk-faults.js';
import { diskError } from '../../snapshots/disk-faults.js';
import { harnessTest, test } from '../helpers/fixtures.js';
import { flagPath } from '../helpers/flags.js';
import { harness } from '../helpers/harness.js';

const BATCH = '/api/admin/features-batch';

/** Lets `allowed` more writes through once armed, then fails every write like a dying disk, until healed. */
class CrashAfter implements WriteGate {
  private left: number | null = null;
  arm(allowed: number): void { this.left = allowed; }
  heal(): void { this.left = null; }
  beforeWrite(): Promise<void> | undefined {
    if (this.left === null) return undefined;
    if (this.left > 0) { this.left -= 1; return undefined; }
    return Promise.reject(diskError('EIO'));
  }
}

/** An import that brings a tag type and a context field the service does not have. */
const bringing = (flag: string) => ({
  project: 'default', environment: 'development',
  data: {
    features: [{ name: flag }],
    featureStrategies: [{ featureName: flag, name: 'default', constraints: [{ contextName: 'tier', operator: 'IN', values: ['gold'] }] }],
    featureEnvironments: [{ featureName: flag, enabled: true }],
    featureTags: [{ featureName: flag, tagType: 'team', tagValue: 'core' }],
    tagTypes: [{ name: 'team', description: 'teams' }],
    contextFields: [{ name: 'tier', description: 'tiers', legalValues: [{ value: 'gold' }] }],
  },
});

describe('a crash between the project\'s record and the service\'s', () => {
  test('the flags are committed with the mark; the next start creates the tag type and context field and clears it', async ({ tempDir }) => {
    const dataDir = `${tempDir('crash')}/data`;
    const gate = new CrashAfter();
    const h = await harness({}, dataDir, { writeGate: gate });
    try {
      gate.arm(1);
      const r = await h.json('POST', `${BATCH}/import`, bringing('f'));
      // The project's record is on disk; the service's write failed: the answer is not a success.
      expect(r.status).toBeGreaterThanOrEqual(500);
      expect(h.registry.project('default')!.state.meta.pendingImport).toMatchObject({ tagTypes: [{ name: 'team' }], contextFields: [{ name: 'tier' }] });
      expect(h.registry.service.state.tagTypes.some((t) => t.name === 'team')).toBe(false);
      gate.heal();
      await h.restart();
      expect(h.registry.project('default')!.state.meta.pendingImport).toBeUndefined();
      expect((await h.json('GET', '/api/admin/tag-types/team')).body.tagType).toMatchObject({ name: 'team', description: 'teams' });
      expect((await h.json('GET', '/api/admin/context/tier')).body).toMatchObject({ name: 'tier', legalValues: [{ value: 'gold' }] });
      const f = (await h.json('GET', flagPath('f'))).body;
      expect(f.tags).toEqual([{ type: 'team', value: 'core' }]);
      expect(f.environments[0]).toMatchObject({ name: 'development', enabled: true });
      // Settled once: a second start changes nothing.
      const seq = h.registry.project('default')!.seq;
      await h.restart();
      expect(h.registry.project('default')!.seq).toBe(seq);
    } finally {
      await h.close();
    }
  });

  test('without a restart, the next import of the project finishes what the failed one left', async ({ tempDir }) => {
    const gate = new CrashAfter();
    const h = await harness({}, `${tempDir('crash')}/data`, { writeGate: gate });
    try {
      gate.arm(1);
      expect((await h.json('POST', `${BATCH}/import`, bringing('f'))).status).toBeGreaterThanOrEqual(500);
      gate.heal();
      const next = { project: 'default', environment: 'development', data: { features: [{ name: 'g' }], featureStrategies: [], featureTags: [{ featureName: 'g', tagType: 'other', tagValue: 'x1' }], tagTypes: [{ name: 'other' }] } };
      expect((await h.json('POST', `${BATCH}/import`, next)).status).toBe(200);
      expect(h.registry.project('default')!.state.meta.pendingImport).toBeUndefined();
      expect(h.registry.service.state.tagTypes.map((t) => t.name)).toEqual(['simple', 'team', 'other']);
      expect(h.registry.service.state.contextFields.some((f) => f.name === 'tier')).toBe(true);
    } finally {
      await h.close();
    }
  });

  test('a failed project record leaves nothing at all', async ({ tempDir }) => {
    const gate = new CrashAfter();
    const h = await harness({}, `${tempDir('crash')}/data`, { writeGate: gate });
    try {
      gate.arm(0);
      expect((await h.json('POST', `${BATCH}/import`, bringing('f'))).status).toBeGreaterThanOrEqual(500);
      gate.heal();
      await h.restart();
      expect((await h.json('GET', flagPath('f'))).status).toBe(404);
      expect((await h.json('GET', '/api/admin/tag-types/team')).status).toBe(404);
      expect((await h.json('GET', '/api/admin/context/tier')).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});

describe('concurrent writes', () => {
  test('a segment delete and an import naming it: one of them wins, never both', async ({ h }) => {
    const segment = (await h.json('POST', '/api/admin/segments', { name: 'beta', constraints: [] })).body.id;
    const b = { project: 'default', environment: 'development', data: { features: [{ name: 'f' }], featureStrategies: [{ featureName: 'f', name: 'default', segments: [9] }], segments: [{ id: 9, name: 'beta' }] } };
    const [imported, deleted] = await Promise.all([h.json('POST', `${BATCH}/import`, b), h.req('DELETE', `/api/admin/segments/${segment}`)]);
    const flag = await h.json('GET', flagPath('f'));
    if (imported.status === 200) {
      expect(deleted.status).toBe(409);
      expect(flag.body.environments[0].strategies[0].segments).toEqual([segment]);
    } else {
      expect(imported.status).toBe(400);
      expect(deleted.status).toBe(204);
      expect(flag.status).toBe(404);
    }
  });

  test('a tag type delete and an import tagging with it: in either order, no flag keeps a tag of the deleted type', async ({ h }) => {
    expect((await h.json('POST', '/api/admin/tag-types', { name: 'team' })).status).toBe(201);
    const b = { project: 'default', environment: 'development', data: { features: [{ name: 'f' }], featureStrategies: [], featureTags: [{ featureName: 'f', tagType: 'team', tagValue: 'core' }] } };
    const [imported, deleted] = await Promise.all([h.json('POST', `${BATCH}/import`, b), h.req('DELETE', '/api/admin/tag-types/team')]);
    expect((await h.json('GET', '/api/admin/tag-types/team')).status).toBe(404);
    if (imported.status === 200) {
      // The import came first; the delete then removed the tag it brought.
      expect(deleted.status).toBe(200);
      expect((await h.json('GET', flagPath('f'))).body.tags).toEqual([]);
    } else {
      expect(imported.status).toBe(400);
      expect(deleted.status).toBe(200);
      expect((await h.json('GET', flagPath('f'))).status).toBe(404);
    }
  });

  test('many flag writes during an import of many flags: each flag is the import\'s whole or the write\'s, every write answered', async ({ h }) => {
    const names = Array.from({ length: 300 }, (_, i) => `f${i}`);
    const b = { project: 'default', environment: 'development', data: { features: names.map((name) => ({ name, description: 'imported' })), featureStrategies: names.map((featureName) => ({ featureName, name: 'default' })) } };
    const creates = names.filter((_, i) => i % 30 === 0).map((name) => h.json('POST', '/api/admin/projects/default/features', { name, description: 'created' }));
    const [imported, ...created] = await Promise.all([h.json('POST', `${BATCH}/import`, b), ...creates]);
    expect(imported.status).toBe(200);
    for (const r of created) expect([201, 409]).toContain(r.status);
    for (const name of names) {
      const flag = (await h.json('GET', flagPath(name))).body;
      expect(flag.description).toBe('imported');
      expect(flag.environments[0].strategies).toHaveLength(1);
    }
  });
});

const snapshotted = harnessTest({ env: { SNAPSHOT_EVERY: '1' } });

describe('restart and the dump', () => {
  snapshotted('the imported flags come back from a snapshot; the dump lists them with their tags and parents', async ({ h }) => {
    const b = bringing('f');
    (b.data.features as { name: string }[]).push({ name: 'g' });
    (b.data as Record<string, unknown>)['dependencies'] = [{ feature: 'g', dependencies: [{ feature: 'f' }] }];
    expect((await h.json('POST', `${BATCH}/import`, b)).status).toBe(200);
    const before = (await h.json('GET', flagPath('g'))).body;
    await h.restart();
    expect((await h.json('GET', flagPath('g'))).body).toEqual(before);
    const dump = JSON.parse(await (await h.req('GET', '/api/admin/state?project=default')).text());
    const flags = dump.projects[0].flags as { name: string; tags?: unknown; dependencies?: unknown }[];
    expect(flags.find((f) => f.name === 'f')).toMatchObject({ tags: [{ type: 'team', value: 'core' }] });
    expect(flags.find((f) => f.name === 'g')).toMatchObject({ dependencies: [{ feature: 'f', enabled: true, variants: [] }] });
    expect(JSON.stringify(dump)).toContain('"tier"');
  });
});
