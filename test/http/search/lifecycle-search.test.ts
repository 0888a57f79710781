/**
 * The lifecycle stage in flag search and the count per stage (docs/api-decisions.md "Feature lifecycle"):
 * each search entry carries `lifecycle: {stage, status?, enteredStageAt}`, `lifecycle=OPERATOR:stages` filters
 * on it with Unleash's operators, and `GET /api/admin/lifecycle/count` counts every flag (archived ones too)
 * by the stage it is in now.
 */
import { describe, expect } from 'vitest';
import { expectError } from '../../helpers/expect.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { addStrategy, createFlag, flagPath, switchOn } from '../../helpers/flags.js';
import type { Harness } from '../../helpers/harness.js';
import { createProject } from '../access/access-fixtures.js';
import { clientToken, nodeMetricsBody, postMetrics } from '../usage/usage-fixtures.js';

const SEARCH = '/api/admin/search/features';

/**
 * One flag per stage: `fresh` (initial), `tried` (pre-live), `shipped` (live), `done` (completed, discarded),
 * `old` (archived, after being seen); and `web-fresh` (initial) in project `web`.
 */
async function oneFlagPerStage(h: Harness): Promise<void> {
  for (const flag of ['fresh', 'tried', 'shipped', 'done', 'old']) await createFlag(h, flag);
  await createProject(h, 'web');
  await createFlag(h, 'web-fresh', {}, 'web');
  await addStrategy(h, 'shipped', 'production');
  await switchOn(h, 'shipped', 'production');
  const seen = (flags: string[]) => nodeMetricsBody(Object.fromEntries(flags.map((f) => [f, { yes: 1, no: 0, variants: {} }])));
  await postMetrics(h, await clientToken(h, 'development'), seen(['tried', 'old']));
  await postMetrics(h, await clientToken(h, 'production'), seen(['shipped']));
  expect((await h.json('POST', `${flagPath('done')}/lifecycle/complete`, { status: 'discarded' })).status).toBe(200);
  expect((await h.req('DELETE', flagPath('old'))).status).toBe(202);
}

const test = harnessTest({ arrange: oneFlagPerStage });

async function found(h: Harness, query: string): Promise<{ name: string; lifecycle: { stage: string; status?: string; enteredStageAt: string } }[]> {
  const r = await h.json('GET', `${SEARCH}?limit=100&${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.features;
}
const namesOf = async (h: Harness, query = '') => (await found(h, query)).map((f) => f.name).sort();

describe('search', () => {
  test('every entry carries the stage it is in now, as the flag answer does', async ({ h }) => {
    const entries = await found(h, '');
    const stages = Object.fromEntries(entries.map((f) => [f.name, f.lifecycle.status ? `${f.lifecycle.stage}:${f.lifecycle.status}` : f.lifecycle.stage]));
    expect(stages).toEqual({ fresh: 'initial', tried: 'pre-live', shipped: 'live', done: 'completed:discarded', 'web-fresh': 'initial' });
    for (const entry of entries) {
      const project = entry.name === 'web-fresh' ? 'web' : 'default';
      expect(entry.lifecycle).toEqual((await h.json('GET', flagPath(entry.name, project))).body.lifecycle);
    }
    expect((await found(h, 'archived=IS:true')).map((f) => [f.name, f.lifecycle.stage])).toEqual([['old', 'archived']]);
  });

  test('the lifecycle filter, with each of Unleash\'s operators, combined with the others', async ({ h }) => {
    expect(await namesOf(h, 'lifecycle=IS:live')).toEqual(['shipped']);
    expect(await namesOf(h, 'lifecycle=IS:pre-live')).toEqual(['tried']);
    expect(await namesOf(h, 'lifecycle=IS_NOT:initial')).toEqual(['done', 'shipped', 'tried']);
    expect(await namesOf(h, 'lifecycle=IS_ANY_OF:initial,completed')).toEqual(['done', 'fresh', 'web-fresh']);
    expect(await namesOf(h, 'lifecycle=IS_NONE_OF:initial, live')).toEqual(['done', 'tried']);
    expect(await namesOf(h, 'lifecycle=IS:initial&project=IS:web')).toEqual(['web-fresh']);
    expect(await namesOf(h, 'lifecycle=IS:archived')).toEqual([]);
    expect(await namesOf(h, 'lifecycle=IS:archived&archived=IS:true')).toEqual(['old']);
    expect((await h.json('GET', `${SEARCH}?lifecycle=IS:live&limit=1`)).body.total).toBe(1);
  });

  test('a write moves a flag between filters at once: uncomplete, revive', async ({ h }) => {
    expect((await h.json('POST', `${flagPath('done')}/lifecycle/uncomplete`)).status).toBe(200);
    expect(await namesOf(h, 'lifecycle=IS:initial')).toEqual(['done', 'fresh', 'web-fresh']);
    expect((await h.json('POST', '/api/admin/projects/default/revive', { features: ['old'] })).status).toBe(200);
    expect(await namesOf(h, 'lifecycle=IS:initial')).toEqual(['done', 'fresh', 'old', 'web-fresh']);
    expect(await namesOf(h, 'lifecycle=IS:archived')).toEqual([]);
  });

  test('an unknown stage or a filter without an operator is a 400 naming the parameter', async ({ h }) => {
    expectError(await h.json('GET', `${SEARCH}?lifecycle=IS:released`), 400, 'ValidationError', /"lifecycle": values must be among/);
    expectError(await h.json('GET', `${SEARCH}?lifecycle=live`), 400, 'ValidationError', /"lifecycle": must be OPERATOR:value/);
  });
});

describe('GET /api/admin/lifecycle/count', () => {
  test('every flag of every project, archived ones too, counted by the stage it is in now', async ({ h }) => {
    const r = await h.json('GET', '/api/admin/lifecycle/count');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ initial: 2, preLive: 1, live: 1, completed: 1, archived: 1 });
    expect((await h.json('POST', `${flagPath('done')}/lifecycle/uncomplete`)).status).toBe(200);
    await createFlag(h, 'newer', {}, 'web');
    expect((await h.json('GET', '/api/admin/lifecycle/count')).body).toEqual({ initial: 4, preLive: 1, live: 1, completed: 0, archived: 1 });
  });

  test('an SDK token may not read it', async ({ h }) => {
    expectError(await h.json('GET', '/api/admin/lifecycle/count', undefined, { token: await clientToken(h) }), 403, 'NoAccessError');
  });
});
