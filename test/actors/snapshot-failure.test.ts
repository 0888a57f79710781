/**
 * A snapshot that cannot be written (a full disk, say) costs nothing acknowledged: commands keep being
 * answered from the log, the failure is reported, not thrown into the void, and a restart recovers every
 * command from the log.
 */
import { expect, vi } from 'vitest';
import { harnessTest } from '../helpers/fixtures.js';
import { storeOf } from '../helpers/store-of.js';
import { untilState } from '../helpers/wait.js';

const test = harnessTest({ env: { SNAPSHOT_EVERY: '1' } });

test('given failing snapshot writes, when commands keep coming, then they are answered and survive a restart', async ({ h }) => {
  const store = storeOf(h.registry);
  const write = store.writeUnsynced.bind(store);
  store.writeUnsynced = async () => { throw new Error('no space left on device'); };

  for (let i = 0; i < 5; i += 1) {
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: `f${i}` })).status).toBe(201);
  }
  const errors = () => h.logs().filter((line) => line['level'] === 50);
  await vi.waitFor(() => expect(errors().length).toBeGreaterThan(0), untilState());
  expect(String(errors()[0]?.['msg'])).toContain('snapshot of {"project":"default"} failed');

  store.writeUnsynced = write;
  await h.restart();
  const list = await h.json('GET', '/api/admin/projects/default/features');
  expect(list.body.features.map((f: { name: string }) => f.name)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
});
