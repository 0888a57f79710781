/**
 * `POST /api/admin/environments` under concurrency: the place of an environment created without `sortOrder`
 * is decided in the service mailbox, so requests that arrive together all get distinct places, after every
 * existing environment, and keep them across a restart.
 */
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import type { Harness } from '../helpers/harness.js';

const ENVIRONMENTS = '/api/admin/environments';
const PARALLEL = 40;

/** `[name, sortOrder]` of every environment, as listed. */
const listed = async (h: Harness): Promise<[string, number][]> =>
  ((await h.json('GET', ENVIRONMENTS)).body.environments as { name: string; sortOrder: number }[]).map((e) => [e.name, e.sortOrder]);

describe('POST /api/admin/environments without sortOrder', () => {
  test(`${PARALLEL} parallel creates: all 201, with distinct sortOrders after the existing ones, also after a restart`, async ({ h }) => {
    const names = Array.from({ length: PARALLEL }, (_, i) => `env-${i}`);
    const answers = await Promise.all(names.map((name) => h.json('POST', ENVIRONMENTS, { name })));
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 201));
    const orders = answers.map((a) => a.body.sortOrder as number);
    expect(new Set(orders).size).toBe(PARALLEL);
    // The new data directory holds development (1) and production (2): the new ones take 3 to 42, one each.
    expect([...orders].sort((a, b) => a - b)).toEqual(Array.from({ length: PARALLEL }, (_, i) => i + 3));
    for (const [i, answer] of answers.entries()) expect(answer.body).toMatchObject({ name: names[i], type: 'development', enabled: true });

    const before = await listed(h);
    expect(before.map(([, order]) => order)).toEqual(Array.from({ length: PARALLEL + 2 }, (_, i) => i + 1));
    expect(new Map(before)).toEqual(new Map([['development', 1], ['production', 2], ...answers.map((a) => [a.body.name, a.body.sortOrder] as [string, number])]));
    await h.restart();
    expect(await listed(h)).toEqual(before);

    // The next one still goes after all of them.
    const next = await h.json('POST', ENVIRONMENTS, { name: 'after-restart' });
    expect(next).toMatchObject({ status: 201, body: { sortOrder: PARALLEL + 3 } });
  });

  test('parallel creates mixed with explicit sortOrders: the absent ones never collide with each other', async ({ h }) => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      h.json('POST', ENVIRONMENTS, i % 4 === 0 ? { name: `fixed-${i}`, sortOrder: 100 + i } : { name: `auto-${i}` })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    const auto = answers.filter((a) => a.body.name.startsWith('auto-')).map((a) => a.body.sortOrder as number);
    expect(new Set(auto).size).toBe(auto.length);
    for (const a of answers.filter((x) => x.body.name.startsWith('fixed-'))) expect(a.body.sortOrder).toBe(100 + Number(a.body.name.slice('fixed-'.length)));
    await h.restart();
    expect(new Set((await listed(h)).filter(([name]) => name.startsWith('auto-')).map(([, order]) => order)).size).toBe(auto.length);
  });

  test('parallel creates of one name: one 201, the rest 409 NameExistsError', async ({ h }) => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => h.json('POST', ENVIRONMENTS, { name: 'staging' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.name).toBe('NameExistsError');
    expect((await listed(h)).filter(([name]) => name === 'staging')).toEqual([['staging', 3]]);
  });
});
