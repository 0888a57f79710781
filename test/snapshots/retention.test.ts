import { describe, expect } from 'vitest';
import { encode } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import { Registry } from '../../src/actors/registry.js';
import { dumpRegistry, stableStringify } from '../../src/actors/state-dump.js';
import { test } from '../helpers/fixtures.js';
import { harness, type Harness } from '../helpers/harness.js';
import { ok } from './fixtures.js';
import { dumpCli } from './run-cli.js';
import { storeOf } from '../helpers/store-of.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';

const SCOPE = { project: 'default' };
const F = '/api/admin/projects/default/features';

/** Sequence numbers of the log records and snapshot heads the store holds for project default. */
async function stored(h: Harness): Promise<{ log: number[]; heads: number[] }> {
  const log: number[] = [];
  for await (const [key] of storeOf(h.registry).entries(keys.logPrefix(SCOPE))) log.push(Number(key.slice(keys.logPrefix(SCOPE).length)));
  const heads: number[] = [];
  for await (const [key] of storeOf(h.registry).entries(keys.snapshotPrefix(SCOPE))) {
    if (key.endsWith('/head')) heads.push(Number(key.slice(keys.snapshotPrefix(SCOPE).length, -'/head'.length)));
  }
  return { log, heads };
}

/** 2 + 2 * rounds commands on project default: a new flag, a strategy, then switched on and off. */
async function churn(h: Harness, rounds: number, name = 'churn'): Promise<void> {
  await ok(h, 'POST', F, { name });
  await ok(h, 'POST', `${F}/${name}/environments/development/strategies`, { name: 'default' });
  for (let i = 0; i < rounds; i += 1) {
    await ok(h, 'POST', `${F}/${name}/environments/development/on`);
    await ok(h, 'POST', `${F}/${name}/environments/development/off`);
  }
}

describe('LOG_RETENTION', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  test('trims log records before the kept snapshots, so the log stays bounded; recovery is complete', async ({ tempDir }) => {
    const dir = tempDir('retention');
    const h = await harness({ SNAPSHOT_EVERY: '10', LOG_RETENTION: '5' }, dir);
    await churn(h, 20);
    await h.restart(); // close() waits for the snapshot and the trimming
    const after50 = await stored(h);
    await churn(h, 20, 'churn2');
    await h.restart();
    const later = await stored(h);
    // Two snapshots kept; the log starts `LOG_RETENTION` records before the older one.
    for (const { log, heads } of [after50, later]) {
      expect(heads).toHaveLength(2);
      expect(log[0]).toBe(heads[0]! - 5 + 1);
      expect(log.at(-1)).toBe(heads[1]);
    }
    // Twice the commands, about the same number of records kept.
    expect(later.log.at(-1)).toBeGreaterThan(2 * after50.log.at(-1)! - 5);
    expect(Math.abs(later.log.length - after50.log.length)).toBeLessThanOrEqual(10);

    const expected = stableStringify(dumpRegistry(h.registry)!);
    await h.registry.close();
    const registry = await Registry.open({ dataDir: dir, initEnvironments: ['development'] });
    expect(stableStringify(dumpRegistry(registry)!)).toBe(expected);
    await registry.close();

    // Time travel reaches back to the oldest kept snapshot, and says why not further.
    const oldest = later.heads[0]!;
    const reachable = await dumpCli(['--data-dir', dir, '--project', 'default', '--at', String(oldest + 1)]);
    expect(reachable.code, reachable.stderr).toBe(0);
    expect(JSON.parse(reachable.stdout).projects[0].seq).toBe(oldest + 1);
    const gone = await dumpCli(['--data-dir', dir, '--project', 'default', '--at', '3']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('trimmed');
    expect(gone.stderr).toContain(`earliest reachable position is seq ${oldest}`);

    // History lists what is retained.
    const h2 = await harness({}, dir);
    const page = await h2.json('GET', '/api/admin/events?project=default&limit=1000');
    expect(page.body.events.at(-1).seq).toBe(later.log[0]);
    await h2.registry.close();
  });

  test('chunks of a snapshot whose head was never written (a crash mid-write) are removed too', async ({ openHarness }) => {
    const h = await openHarness({ SNAPSHOT_EVERY: '10' });
    const orphan = keys.snapshotChunk(SCOPE, 2, 0);
    await storeOf(h.registry).commit([{ type: 'put', key: orphan, value: encode([{ name: 'half-written' }]) }]);
    expect(await storeOf(h.registry).get(orphan)).toBeDefined();
    await churn(h, 10);
    await h.restart();
    expect((await stored(h)).heads[0]).toBeGreaterThan(2);
    expect(await storeOf(h.registry).get(orphan)).toBeUndefined();
  });

  test('without LOG_RETENTION the whole log is kept', async ({ tempDir }) => {
    const dir = tempDir('retention-all');
    const h = await harness({ SNAPSHOT_EVERY: '10' }, dir);
    await churn(h, 20);
    await h.restart();
    const { log } = await stored(h);
    expect(log[0]).toBe(1);
    expect(log).toHaveLength(log.at(-1)!);
    await h.registry.close();
    const travel = await dumpCli(['--data-dir', dir, '--project', 'default', '--at', '3']);
    expect(travel.code).toBe(0);
    expect(JSON.parse(travel.stdout).projects[0].flags[0].environments.development.strategies).toHaveLength(1);
  });
});
