/**
 * Segments as strategies use them: a strategy (add, put, patch) or a default strategy may only name a segment
 * that exists and is global or of its project (400 otherwise, nothing changes); a segment in use cannot be
 * deleted (409 naming the flags) nor moved to another project (400); deleting or moving one while strategies
 * are being added never leaves a dangling reference; segments survive a restart and travel in the dump.
 */
import { cpSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { parseDump, restoreDump, RestoreError } from '../../src/tools/restore.js';
import type { Harness } from '../helpers/harness.js';
import { expectError, expectNoChange } from '../helpers/expect.js';
import { harnessTest } from '../helpers/fixtures.js';
import { createProject } from './access/access-fixtures.js';

const SEGMENTS = '/api/admin/segments';
const flagPath = (flag: string, project = 'default') => `/api/admin/projects/${project}/features/${flag}`;
const strategies = (flag: string, env = 'development', project = 'default') => `${flagPath(flag, project)}/environments/${env}/strategies`;

/** Every test starts with project `other` and flags `f`, `g` (in `default`) and `o` (in `other`). */
const test = harnessTest({
  // The races add hundreds of strategies to a few flags.
  env: { LIMIT_STRATEGIES_PER_ENVIRONMENT: '1000' },
  arrange: async (h) => {
    await createProject(h, 'other');
    for (const [project, flag] of [['default', 'f'], ['default', 'g'], ['other', 'o']] as const) {
      expect((await h.json('POST', `/api/admin/projects/${project}/features`, { name: flag })).status).toBe(201);
    }
  },
});

async function ok(on: Harness, method: string, path: string, body?: unknown, status = 200) {
  const r = await on.json(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
}
const segment = async (on: Harness, name: string, project: string | null = null) =>
  (await ok(on, 'POST', SEGMENTS, { name, project, constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }] }, 201)).id as number;

/** Every segment id any strategy or default strategy of `on` references, with where. */
function references(on: Harness): { id: number; where: string }[] {
  const out: { id: number; where: string }[] = [];
  for (const project of on.registry.projectIds()) {
    const state = on.registry.project(project)!.state;
    for (const flag of state.flags.values()) {
      for (const [env, entry] of Object.entries(flag.environments)) {
        for (const s of entry.strategies) for (const id of s.segments) out.push({ id, where: `${project}/${flag.name}/${env}` });
      }
    }
    for (const [env, s] of Object.entries(state.meta.defaultStrategies)) for (const id of s.segments ?? []) out.push({ id, where: `${project} default ${env}` });
  }
  return out;
}

describe('strategies name segments', () => {
  test('add, put, patch and the default strategy accept a global segment and one of their own project', async ({ h }) => {
    const global = await segment(h, 'global');
    const mine = await segment(h, 'mine', 'default');
    const s = await ok(h, 'POST', strategies('f'), { name: 'default', segments: [global, mine] });
    expect(s.segments).toEqual([global, mine]);
    expect((await ok(h, 'PUT', `${strategies('f')}/${s.id}`, { name: 'default', segments: [mine] })).segments).toEqual([mine]);
    expect((await ok(h, 'PATCH', `${strategies('f')}/${s.id}`, [{ op: 'add', path: '/segments/-', value: global }])).segments).toEqual([mine, global]);
    expect((await ok(h, 'POST', '/api/admin/projects/default/environments/*/default-strategy', { name: 'default', segments: [mine] })).segments).toEqual([mine]);
    expect((await ok(h, 'POST', strategies('o', 'development', 'other'), { name: 'default', segments: [global] })).segments).toEqual([global]);
  });

  test('an unknown segment is 400 naming it on add, put, patch and default strategy; nothing changes', async ({ h }) => {
    const s = await ok(h, 'POST', strategies('f'), { name: 'default' });
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', strategies('f'), { name: 'default', segments: [7] }), 400, 'ValidationError', /"segments": segment 7 does not exist/);
      expectError(await h.json('PUT', `${strategies('f')}/${s.id}`, { name: 'default', segments: [7] }), 400, 'ValidationError', /segment 7 does not exist/);
      expectError(await h.json('PATCH', `${strategies('f')}/${s.id}`, [{ op: 'add', path: '/segments/-', value: 7 }]), 400, 'ValidationError', /segment 7 does not exist/);
      expectError(await h.json('POST', '/api/admin/projects/default/environments/development/default-strategy', { name: 'default', segments: [7] }), 400, 'ValidationError', /segment 7 does not exist/);
    }, 'f');
  });

  test("another project's segment is 400 naming its project; nothing changes", async ({ h }) => {
    const theirs = await segment(h, 'theirs', 'other');
    const s = await ok(h, 'POST', strategies('f'), { name: 'default' });
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', strategies('f'), { name: 'default', segments: [theirs] }), 400, 'ValidationError', /belongs to project "other"/);
      expectError(await h.json('PUT', `${strategies('f')}/${s.id}`, { name: 'default', segments: [theirs] }), 400, 'ValidationError', /belongs to project "other"/);
      expectError(await h.json('PATCH', `${strategies('f')}/${s.id}`, [{ op: 'replace', path: '/segments', value: [theirs] }]), 400, 'ValidationError', /"other"/);
      expectError(await h.json('POST', '/api/admin/projects/default/environments/*/default-strategy', { name: 'default', segments: [theirs] }), 400, 'ValidationError', /"other"/);
    }, 'f');
  });
});

describe('a segment in use', () => {
  test('cannot be deleted: 409 naming every flag (archived ones too) and default strategy that uses it', async ({ h }) => {
    const id = await segment(h, 'beta');
    const used = await ok(h, 'POST', strategies('f'), { name: 'default', segments: [id] });
    await ok(h, 'POST', strategies('g', 'production'), { name: 'default', segments: [id] });
    await ok(h, 'DELETE', flagPath('g'), undefined, 202);
    await ok(h, 'POST', strategies('o', 'development', 'other'), { name: 'default', segments: [id] });
    await ok(h, 'POST', '/api/admin/projects/other/environments/production/default-strategy', { name: 'default', segments: [id] });
    await expectNoChange(h, async () => {
      const r = await h.json('DELETE', `${SEGMENTS}/${id}`);
      expectError(r, 409, 'InvalidOperationError', /Segment \d+ \("beta"\) is used by 4 strategies: default\/f in development, default\/g \(archived\) in production, other\/o in development, the default strategy of project "other" in production/);
      expect(r.body.details).toHaveLength(4);
    });
    expect((await h.json('GET', `${SEGMENTS}/${id}`)).status).toBe(200);

    // Once nothing uses it, it goes.
    await ok(h, 'DELETE', `${strategies('f')}/${used.id}`);
    await ok(h, 'POST', '/api/admin/projects/default/delete', { features: ['g'] });
    await ok(h, 'PATCH', `${strategies('o', 'development', 'other')}/${(await ok(h, 'GET', strategies('o', 'development', 'other')))[0].id}`, [{ op: 'replace', path: '/segments', value: [] }]);
    await ok(h, 'POST', '/api/admin/projects/other/environments/production/default-strategy', { name: 'default' });
    expect((await h.req('DELETE', `${SEGMENTS}/${id}`)).status).toBe(204);
  });

  test('cannot move to a project while other projects use it (400 naming them); to the one that uses it, it can', async ({ h }) => {
    const id = await segment(h, 'beta');
    await ok(h, 'POST', strategies('o', 'development', 'other'), { name: 'default', segments: [id] });
    const body = { name: 'beta', constraints: [] };
    await expectNoChange(h, async () => {
      expectError(await h.json('PUT', `${SEGMENTS}/${id}`, { ...body, project: 'default' }), 400, 'ValidationError', /"project": segment \d+ is used by strategies outside project "default": other\/o in development/);
    });
    expect((await h.req('PUT', `${SEGMENTS}/${id}`, { ...body, project: 'other' })).status).toBe(204);
    expect((await h.json('GET', `${SEGMENTS}/${id}`)).body.project).toBe('other');
    expectError(await h.json('POST', strategies('f'), { name: 'default', segments: [id] }), 400, 'ValidationError', /belongs to project "other"/);
  });
});

describe('races', () => {
  test('strategies added while the segment is deleted: either it stays and is used, or it is gone and nothing names it', async ({ h }) => {
    const outcomes = new Set<number>();
    for (let round = 0; round < 12; round += 1) {
      const id = await segment(h, `race-${round}`);
      const add = (i: number) => {
        const [project, flag] = i % 3 === 2 ? ['other', 'o'] : ['default', i % 3 === 0 ? 'f' : 'g'];
        return h.json('POST', strategies(flag, i % 2 === 0 ? 'development' : 'production', project), { name: 'default', segments: [id] });
      };
      // The delete goes out a little later each round, so early rounds find it unused and later ones in use.
      const before = Array.from({ length: 30 }, (_, i) => add(i));
      for (let tick = 0; tick < round; tick += 1) await new Promise((resolve) => setImmediate(resolve));
      const deleted = h.json('DELETE', `${SEGMENTS}/${id}`);
      const after = Array.from({ length: 40 }, (_, i) => add(i + 100));
      const adds = await Promise.all([...before, ...after]);
      const { status } = await deleted;
      outcomes.add(status);
      for (const a of adds) expect([200, 400]).toContain(a.status);
      const users = references(h).filter((r) => r.id === id);
      if (status === 204) {
        expect(users).toEqual([]);
        expect((await h.json('GET', `${SEGMENTS}/${id}`)).status).toBe(404);
      } else {
        expect(status).toBe(409);
        expect(users.length).toBeGreaterThan(0);
        expect((await h.json('GET', `${SEGMENTS}/${id}`)).status).toBe(200);
      }
      // Every accepted add is still there: nothing was undone behind its back.
      expect(users.length).toBe(adds.filter((a) => a.status === 200).length);
    }
    expect(outcomes).toEqual(new Set([204, 409]));
    const known = new Set((await ok(h, 'GET', SEGMENTS)).segments.map((s: { id: number }) => s.id));
    expect(references(h).filter((r) => !known.has(r.id))).toEqual([]);
  });

  test('the mailboxes alone keep it: commands sent straight to the actors before the fence are seen, after it refused', async ({ h }) => {
    for (const sentBefore of [0, 1, 25]) {
      const id = await segment(h, `direct-${sentBefore}`);
      const send = (i: number) => {
        const [project, flag] = i % 2 === 0 ? ['default', 'f'] : ['other', 'o'];
        return h.registry.project(project)!.send({ type: 'strategy.add', feature: flag, environment: 'development', strategy: { name: 'default', segments: [id] } }, 'test');
      };
      // What the delete use case does, with sends (no use case, so no waiting for the fence) at every step.
      const before = Array.from({ length: sentBefore }, (_, i) => send(i));
      const after: ReturnType<typeof send>[] = [];
      const decision = await h.registry.withSegmentFenced(id, null, async () => {
        after.push(send(0), send(1));
        const settling = h.registry.settleProjects();
        after.push(send(2), send(3));
        await settling;
        const deleting = h.registry.service.send({ type: 'segment.delete', id }, 'test');
        after.push(send(4), send(5));
        return deleting;
      });
      expect((await Promise.all(before)).every((d) => d.ok)).toBe(true);
      for (const refused of await Promise.all(after)) expect(refused).toMatchObject({ ok: false, error: { kind: 'ValidationError', message: expect.stringMatching(/is being deleted/) } });
      expect(decision.ok).toBe(sentBefore === 0);
      expect(references(h).filter((r) => r.id === id)).toHaveLength(sentBefore);
    }
  });

  test('strategies of another project added while the segment moves: either it moved and they were refused, or it stayed', async ({ h }) => {
    for (let round = 0; round < 8; round += 1) {
      const id = await segment(h, `move-${round}`);
      const before = Array.from({ length: round * 2 }, () => h.json('POST', strategies('o', 'development', 'other'), { name: 'default', segments: [id] }));
      const moved = h.json('PUT', `${SEGMENTS}/${id}`, { name: `move-${round}`, project: 'default', constraints: [] });
      const ownAdds = Array.from({ length: 10 }, () => h.json('POST', strategies('f'), { name: 'default', segments: [id] }));
      const after = Array.from({ length: 20 }, () => h.json('POST', strategies('o', 'development', 'other'), { name: 'default', segments: [id] }));
      await Promise.all([...before, ...ownAdds, ...after]);
      const { status } = await moved;
      const inOther = references(h).filter((r) => r.id === id && r.where.startsWith('other/'));
      const project = (await ok(h, 'GET', `${SEGMENTS}/${id}`)).project;
      if (status === 204) {
        expect(project).toBe('default');
        expect(inOther).toEqual([]);
      } else {
        expect(status).toBe(400);
        expect(project).toBeNull();
        expect(inOther.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('durability', () => {
  async function populate(on: Harness): Promise<[number, number, number]> {
    const a = await segment(on, 'a');
    const b = await segment(on, 'b', 'default');
    const c = await segment(on, 'c');
    await ok(on, 'PUT', `${SEGMENTS}/${a}`, { name: 'a2', description: 'changed', constraints: [{ contextName: 'x', operator: 'STR_STARTS_WITH', values: ['y'] }] }, 204);
    await ok(on, 'DELETE', `${SEGMENTS}/${c}`, undefined, 204);
    await ok(on, 'POST', strategies('f'), { name: 'default', segments: [a, b] }, 200);
    return [a, b, c];
  }

  test('segments, their next id and their use survive a restart, and a copy of the log without a clean close', async ({ h, tempDir, openHarnessOverTempDir }) => {
    const [a, , c] = await populate(h);
    const crashCopy = tempDir('segments-crash');
    cpSync(h.dataDir, crashCopy, { recursive: true });
    const before = (await ok(h, 'GET', SEGMENTS)).segments;
    expect(before.map((s: { name: string }) => s.name)).toEqual(['a2', 'b']);

    await h.restart();
    expect((await ok(h, 'GET', SEGMENTS)).segments).toEqual(before);
    expectError(await h.json('DELETE', `${SEGMENTS}/${a}`), 409, 'InvalidOperationError', /default\/f in development/);
    expect((await ok(h, 'POST', SEGMENTS, { name: 'd', constraints: [] }, 201)).id).toBe(c + 1);

    const crashed = await openHarnessOverTempDir({}, crashCopy);
    expect((await ok(crashed, 'GET', SEGMENTS, undefined, 200)).segments).toEqual(before);
    expect((await ok(crashed, 'POST', SEGMENTS, { name: 'd', constraints: [] }, 201)).id).toBe(c + 1);
  });

  test('the dump holds them; restore keeps them, and refuses a dump whose strategy names a missing segment', async ({ h, tempDir, openHarnessOverTempDir }) => {
    const [a, b, c] = await populate(h);
    const text = await (await h.req('GET', '/api/admin/state')).text();
    const dump = JSON.parse(text);
    expect(Object.keys(dump.service.state.segments)).toEqual([String(a), String(b)]);
    expect(dump.service.state.segments[String(b)]).toMatchObject({ id: b, name: 'b', project: 'default', version: expect.any(Number) });
    expect(dump.service.state.nextSegmentId).toBe(c + 1);

    const target = tempDir('segments-restore');
    await restoreDump(target, parseDump(text));
    const restored = await openHarnessOverTempDir({}, target);
    // Everything but the tokens comes back (a dump holds no token hashes; the restored service made its own).
    const back = JSON.parse(await (await restored.req('GET', '/api/admin/state')).text());
    expect(back.projects).toEqual(dump.projects);
    expect(back.service.state.segments).toEqual(dump.service.state.segments);
    expect(back.service.state.nextSegmentId).toBe(dump.service.state.nextSegmentId);
    expect((await ok(restored, 'POST', SEGMENTS, { name: 'd', constraints: [] }, 201)).id).toBe(c + 1);

    delete dump.service.state.segments[String(a)];
    expect(() => parseDump(JSON.stringify(dump))).toThrow(RestoreError);
    expect(() => parseDump(JSON.stringify(dump))).toThrow(/flag "f" in development uses segment \d+, which the dump does not hold/);
  });
});
