/**
 * What accumulates is bounded (docs/limits.md): each limit answers 400 `ExceedsLimitError` naming the
 * limit and its variable once reached, decided in the mailbox that serializes the writes it counts (so
 * parallel writes cannot overshoot), and a refused write changes nothing.
 */
import { expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { expectError, expectNoChange } from '../helpers/expect.js';
import { harness } from '../helpers/harness.js';

const P = '/api/admin/projects/default';

test('strategies per flag environment: the default is Unleash 6.10\'s 30; /on with a default strategy counts too', async () => {
  const h = await harness();
  try {
    expect((await h.json('POST', `${P}/features`, { name: 'f' })).status).toBe(201);
    const results = await Promise.all(Array.from({ length: DEFAULT_LIMITS.strategiesPerEnvironment + 5 }, () =>
      h.json('POST', `${P}/features/f/environments/development/strategies`, { name: 'default', disabled: true })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(DEFAULT_LIMITS.strategiesPerEnvironment);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 400, 'ExceedsLimitError', /LIMIT_STRATEGIES_PER_ENVIRONMENT/);
    expect((await h.json('POST', `${P}/environments/development/default-strategy`, { name: 'default' })).status).toBe(200);
    await expectNoChange(h, async () => expectError(await h.json('POST', `${P}/features/f/environments/development/on`), 400, 'ExceedsLimitError'), 'f');
    // Another environment of the same flag has room of its own.
    expect((await h.json('POST', `${P}/features/f/environments/production/strategies`, { name: 'default' })).status).toBe(200);
  } finally {
    await h.close();
  }
});

test('flag size: a flag may not grow past LIMIT_FLAG_BYTES through strategies, variants or a clone', async () => {
  const h = await harness({ LIMIT_FLAG_BYTES: '40000' });
  try {
    expect((await h.json('POST', `${P}/features`, { name: 'f' })).status).toBe(201);
    const big = { name: 'userWithId', parameters: { userIds: 'u'.repeat(9000) } };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await h.json('POST', `${P}/features/f/environments/development/strategies`, big)).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4)).toEqual([400, 400]);
    await expectNoChange(h, async () => {
      expectError(await h.json('POST', `${P}/features/f/environments/production/strategies`, big), 400, 'ExceedsLimitError', /LIMIT_FLAG_BYTES/);
      const variants = Array.from({ length: 5 }, (_, i) => ({ name: `v${i}`, weightType: 'variable', weight: 1, payload: { type: 'string', value: 'p'.repeat(2000) } }));
      expectError(await h.json('PUT', `${P}/features/f/variants`, variants), 400, 'ExceedsLimitError');
    }, 'f');
    // The flag stays readable, clonable within the limit's room, archivable and deletable: nothing is stuck.
    expect((await h.json('GET', `${P}/features/f`)).status).toBe(200);
    expect((await h.json('DELETE', `${P}/features/f`)).status).toBe(202);
    expect((await h.json('POST', `${P}/delete`, { features: ['f'] })).status).toBe(200);
  } finally {
    await h.close();
  }
});

test('flags per project, counted in the mailbox: parallel creates stop exactly at the limit, archived flags count', async () => {
  const h = await harness({ LIMIT_FLAGS_PER_PROJECT: '10' });
  try {
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => h.json('POST', `${P}/features`, { name: `f${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 400, 'ExceedsLimitError', /LIMIT_FLAGS_PER_PROJECT/);
    const created = results.find((r) => r.status === 201)!.body.name as string;
    expect((await h.json('DELETE', `${P}/features/${created}`)).status).toBe(202);
    expectError(await h.json('POST', `${P}/features`, { name: 'more' }), 400, 'ExceedsLimitError');
    expectError(await h.json('POST', `${P}/features/${results.find((r) => r.status === 201 && r.body.name !== created)!.body.name}/clone`, { name: 'copy' }), 400, 'ExceedsLimitError');
    expect((await h.json('POST', `${P}/delete`, { features: [created] })).status).toBe(200);
    expect((await h.json('POST', `${P}/features`, { name: 'more' })).status).toBe(201);
  } finally {
    await h.close();
  }
});

test('environments, projects, members, users and tokens have their limits too', async () => {
  const h = await harness({ LIMIT_ENVIRONMENTS: '3', LIMIT_PROJECTS: '2', LIMIT_MEMBERS_PER_PROJECT: '2', LIMIT_USERS: '3', LIMIT_API_TOKENS: '3' });
  try {
    // Two environments and one project exist from the start; the harness stored one token.
    const envs = await Promise.all(['a', 'b', 'c'].map((name) => h.json('POST', '/api/admin/environments', { name })));
    expect(envs.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    expect((await h.json('POST', '/api/admin/projects', { id: 'p2', name: 'p2' })).status).toBe(201);
    expectError(await h.json('POST', '/api/admin/projects', { id: 'p3', name: 'p3' }), 400, 'ExceedsLimitError', /LIMIT_PROJECTS/);
    const users = await Promise.all(['x', 'y', 'z'].map((username) => h.json('POST', '/api/admin/user-admin', { username })));
    expect(users.map((r) => r.status).sort()).toEqual([201, 201, 400]);
    const [u1, u2] = users.filter((r) => r.status === 201).map((r) => r.body.id as number);
    expect((await h.json('POST', `${P}/users/${u1}/roles/5`)).status).toBe(200);
    const full = await h.json('POST', `${P}/users/${u2}/roles/5`);
    expect(full.status).toBe(400);
    const tokens = await Promise.all(['t1', 't2', 't3'].map((tokenName) => h.json('POST', '/api/admin/api-tokens', { tokenName, type: 'admin' })));
    expect(tokens.map((r) => r.status).sort()).toEqual([201, 201, 400]);
  } finally {
    await h.close();
  }
});

test('a bad LIMIT_* value stops the start, naming the variable', async () => {
  await expect(harness({ LIMIT_FLAGS_PER_PROJECT: 'lots' })).rejects.toThrow(/LIMIT_FLAGS_PER_PROJECT/);
  await expect(harness({ LIMIT_FLAG_BYTES: '0' })).rejects.toThrow(/LIMIT_FLAG_BYTES/);
});
