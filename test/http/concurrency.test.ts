/**
 * Requests that arrive together: the project mailbox decides them one at a time, so races have exactly one
 * winner, nothing is lost, and what was answered survives a restart.
 */
import { expect } from 'vitest';
import { test } from '../helpers/fixtures.js';

const P = '/api/admin/projects/default';

const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort();

test('20 parallel creates of one name: exactly one 201 and nineteen 409 NameExistsError', async ({ h }) => {
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => h.json('POST', `${P}/features`, { name: 'race', description: `attempt ${i}` })));
  expect(statuses(results)).toEqual([201, ...Array(19).fill(409)]);
  for (const r of results.filter((x) => x.status === 409)) expect(r.body.name).toBe('NameExistsError');
  const winner = results.find((r) => r.status === 201)!;
  const detail = await h.json('GET', `${P}/features/race`);
  expect(detail.body.description).toBe(winner.body.description);
  expect((await h.json('GET', `${P}/features`)).body.features).toHaveLength(1);
});

test('parallel creates of distinct names all succeed and are all present after restart', async ({ h }) => {
  const names = Array.from({ length: 40 }, (_, i) => `flag-${i}`);
  const results = await Promise.all(names.map((name) => h.json('POST', `${P}/features`, { name })));
  expect(statuses(results)).toEqual(Array(40).fill(201));
  // Every create got its own version (the ETag): none overwrote another.
  expect(new Set(results.map((r) => r.headers.get('etag'))).size).toBe(40);
  const listed = async () => ((await h.json('GET', `${P}/features`)).body.features as { name: string }[]).map((f) => f.name).sort();
  expect(await listed()).toEqual([...names].sort());
  await h.restart();
  expect(await listed()).toEqual([...names].sort());
});

test('parallel writes with the same If-Match: one 200, the rest 412, and the winner is what is stored', async ({ h }) => {
  const created = await h.json('POST', `${P}/features`, { name: 'f' });
  const etag = created.headers.get('etag')!;
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
    h.json('PUT', `${P}/features/f`, { name: 'f', description: `writer ${i}` }, { headers: { 'if-match': etag } })));
  expect(statuses(results)).toEqual([200, ...Array(9).fill(412)]);
  const winner = results.find((r) => r.status === 200)!;
  expect((await h.json('GET', `${P}/features/f`)).body.description).toBe(winner.body.description);
});

test('parallel strategy adds get distinct ids and sortOrders; parallel on/off ends consistent', async ({ h }) => {
  await h.json('POST', `${P}/features`, { name: 'f' });
  const path = `${P}/features/f/environments/development`;
  const added = await Promise.all(Array.from({ length: 15 }, () => h.json('POST', `${path}/strategies`, { name: 'default' })));
  expect(statuses(added)).toEqual(Array(15).fill(200));
  expect(new Set(added.map((r) => r.body.id)).size).toBe(15);
  expect(added.map((r) => r.body.sortOrder).sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i));
  // Toggles interleaved with deletes of every strategy: whatever the order, enabled implies an enabled strategy.
  const mixed = await Promise.all([
    ...added.map((r) => h.req('DELETE', `${path}/strategies/${r.body.id}`)),
    ...Array.from({ length: 10 }, (_, i) => h.req('POST', `${path}/${i % 2 === 0 ? 'on' : 'off'}`)),
  ]);
  for (const r of mixed) expect([200, 409]).toContain(r.status);
  const env = (await h.json('GET', `${P}/features/f`)).body.environments[0];
  expect(env.strategies).toEqual([]);
  expect(env.enabled).toBe(false);
});

test('20 parallel creates of one project id: one 201, nineteen 409', async ({ h }) => {
  const results = await Promise.all(Array.from({ length: 20 }, () => h.json('POST', '/api/admin/projects', { id: 'p', name: 'P' })));
  expect(statuses(results)).toEqual([201, ...Array(19).fill(409)]);
  await h.restart();
  expect(((await h.json('GET', '/api/admin/projects')).body.projects as { id: string }[]).map((p) => p.id)).toEqual(['default', 'p']);
});
