/**
 * Console sessions read back at start through their schema (src/actors/session-store.ts): a stored value that
 * is not a session record (not JSON, or JSON of another shape) is dropped and said so; the others come back.
 */
import { expect } from 'vitest';
import { keys } from '../../snapshots/keys.js';
import { test } from '../helpers/fixtures.js';
import { storeOf } from '../helpers/store-of.js';

test('a stored session that is not a session record is dropped at start; good ones survive the restart', async ({ h }) => {
  const now = Date.now();
  await h.registry.sessions.create('good', { userId: 1, tokenHash: null, passwordStamp: 'stamp', createdAt: now, lastUsedAt: now });
  await storeOf(h.registry).commit([
    { type: 'put', key: keys.session('not-json'), value: '{"userId":' },
    { type: 'put', key: keys.session('wrong-shape'), value: JSON.stringify({ userId: 'admin', createdAt: now, lastUsedAt: now }) },
  ]);
  await h.restart();
  expect(h.registry.sessions.size).toBe(1);
  expect(h.registry.sessions.use('good')).toMatchObject({ userId: 1, passwordStamp: 'stamp' });
  expect(await storeOf(h.registry).get(keys.session('wrong-shape'))).toBeUndefined();
  expect(await storeOf(h.registry).get(keys.session('not-json'))).toBeUndefined();
  expect(h.logs().some((line) => line['msg'] === 'dropped stored sessions that are not session records' && line['sessions'] === 2)).toBe(true);
});
