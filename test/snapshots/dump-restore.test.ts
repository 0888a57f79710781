import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { stableStringify } from '../../src/actors/dumps/state-dump.js';
import { DumpError, dumpDataDir } from '../../src/tools/dump.js';
import { RestoreError, parseDump, restoreDump } from '../../src/tools/restore.js';
import { ADMIN_TOKEN, harness, type Harness } from '../helpers/harness.js';
import { ok, populate } from './fixtures.js';
import { dumpCli, npm, restoreCli } from './run-cli.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';

/**
 * What a restore of `dump` gives back: the same document without tokens (a dump holds no token hashes, so
 * restore re-creates none; docs/storage.md "Restore"). Only the token part differs.
 */
const withoutTokens = (dump: string): string => {
  const parsed = JSON.parse(dump);
  return stableStringify({ ...parsed, service: { ...parsed.service, state: { ...parsed.service.state, tokens: {} } } });
};

/** The live dump the running service answers (admin only). */
async function liveDump(h: Harness, project?: string): Promise<string> {
  const r = await h.req('GET', `/api/admin/state${project ? `?project=${project}` : ''}`);
  expect(r.status).toBe(200);
  return r.text();
}

/**
 * What `flagpole dump` prints for `options`, made in this process by the function the command calls
 * (src/cli/dump.command.ts: `stableStringify(await dumpDataDir(...))`). The tests run the command itself where
 * what they check is the command's: its exit code, its output streams, its arguments.
 */
const dumpText = async (dataDir: string, options: { project?: string; at?: number } = {}) => stableStringify(await dumpDataDir(dataDir, options));

/** What `flagpole restore` does with a dump on standard input (its dump branch: `restoreDump(dir, parseDump(text))`), in this process. */
const restoreText = async (dataDir: string, text: string) => restoreDump(dataDir, parseDump(text));

// Each test runs the command (and npm) as child processes: long on a loaded machine.
describe('npm run dump / npm run restore', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  test('the dump of a stopped data directory equals the live dump; dump, restore, dump is byte-identical', async ({ tempDir: dir }) => {
    const source = dir('src');
    const h = await harness({}, source);
    await populate(h);
    const live = await liveDump(h);
    await h.registry.close();

    const first = await dumpCli(['--data-dir', source]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(live);
    const parsed = JSON.parse(first.stdout);
    expect(parsed.projects.map((p: { id: string }) => p.id)).toEqual(['beta', 'default']);
    expect(parsed.projects[1].flags.map((f: { name: string }) => f.name)).toEqual(['zeta', 'alpha', 'mid']);
    expect(Object.keys(parsed.service.state.tokens)).toHaveLength(1);
    expect(first.stdout).not.toContain(ADMIN_TOKEN);

    const target = dir('restored');
    const restored = await restoreCli(['--data-dir', target], first.stdout);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toContain('2 projects (4 flags)');
    expect(restored.stderr).toContain('1 token was not restored and must be re-created');
    expect(restored.stderr).toContain('"init-admin-token-1" (admin)');
    // Byte-identical but for the tokens, which restore leaves out.
    expect(await dumpText(target)).toBe(withoutTokens(first.stdout));
    // The restored directory starts at the dumped position: no earlier moment to travel to (a DumpError: the
    // command's exit 1 with its message, as 'dump explains what it cannot do' shows).
    const before = dumpText(target, { project: 'default', at: 2 });
    await expect(before).rejects.toThrow(DumpError);
    await expect(before).rejects.toThrow(`no log records are kept (trimmed by LOG_RETENTION, or the directory was restored from a dump) and no snapshot at or before seq 2 is kept; the earliest reachable position is seq ${parsed.projects[1].seq}`);

    // The restored directory serves the same data, and new commands continue the sequence.
    const again = await harness({}, target);
    try {
      const list = await ok(again, 'GET', '/api/admin/projects/default/features');
      expect(list.features.map((f: { name: string }) => f.name)).toEqual(['zeta', 'alpha']);
      const before = parsed.projects[1].seq as number;
      const created = await again.json('POST', '/api/admin/projects/default/features', { name: 'after-restore' });
      expect(created.status).toBe(201);
      expect(created.headers.get('etag')).toBe(`"${before + 1}"`);
      expect(JSON.parse(await liveDump(again, 'default')).projects[0].seq).toBe(before + 1);
    } finally {
      await again.registry.close();
    }
  });

  test('--project prints that project alone, as GET /api/admin/state?project= does', async ({ tempDir: dir }) => {
    const source = dir('src');
    const h = await harness({}, source);
    await populate(h);
    const live = await liveDump(h, 'beta');
    await h.registry.close();
    const r = await dumpCli(['--data-dir', source, '--project', 'beta']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(live);
    const parsed = JSON.parse(r.stdout);
    expect(parsed.service).toBeUndefined();
    expect(parsed.projects.map((p: { id: string }) => p.id)).toEqual(['beta']);
  });

  test('--at SEQ gives the state of that earlier moment, also across snapshots', async ({ tempDir: dir }) => {
    const source = dir('src');
    // Snapshots every few commands, so --at must pick an older snapshot or replay from the start.
    const h = await harness({ SNAPSHOT_EVERY: '3' }, source);
    const moments: { seq: number; dump: string }[] = [];
    const capture = async () => {
      const dump = await liveDump(h, 'default');
      moments.push({ seq: JSON.parse(dump).projects[0].seq, dump });
    };
    await capture();
    for (let i = 0; i < 4; i += 1) {
      await ok(h, 'POST', '/api/admin/projects/default/features', { name: `f${i}` });
      await ok(h, 'POST', `/api/admin/projects/default/features/f${i}/environments/development/strategies`, { name: 'default' });
      await capture();
      await ok(h, 'POST', `/api/admin/projects/default/features/f${i}/environments/development/on`);
      await capture();
    }
    await h.registry.close();
    expect(moments.map((m) => m.seq)).toEqual([1, 3, 4, 6, 7, 9, 10, 12, 13]);
    for (const moment of moments) expect(await dumpText(source, { project: 'default', at: moment.seq }), `--at ${moment.seq}`).toBe(moment.dump);
    // The command passes --at on; past the end: the latest state.
    const latest = await dumpCli(['--data-dir', source, '--project', 'default', '--at', '999']);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toBe(moments.at(-1)!.dump);
  });

  test('restore refuses a non-empty directory, a project-only dump and a document that is not a dump', async ({ tempDir: dir }) => {
    const source = dir('src');
    const h = await harness({}, source);
    await h.registry.close();
    const full = await dumpText(source);
    const partial = await dumpText(source, { project: 'default' });

    // The command: a refusal is exit 1 with the reason on standard error.
    const busy = dir('busy');
    writeFileSync(join(busy, 'keep.txt'), 'x');
    const refused = await restoreCli(['--data-dir', busy], full);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');

    // The other refusals are RestoreErrors too (what the command answers with exit 1), each with its reason.
    const target = dir('target');
    const refusal = (text: string) => restoreText(target, text).then(() => null, (error: unknown) => error);
    for (const [text, reason] of [
      [partial, 'no service part'],
      ['{"format": 1,', 'not JSON'],
      [JSON.stringify({ ...JSON.parse(full), format: 2 }), 'format'],
      [JSON.stringify((({ projects, ...rest }) => ({ ...rest, projects: [...projects, projects[0]] }))(JSON.parse(full))), 'appears twice'],
    ] as const) {
      const error = await refusal(text);
      expect(error, reason).toBeInstanceOf(RestoreError);
      expect((error as Error).message).toContain(reason);
    }
    // Nothing was written by the refused restores: a good one still goes through.
    const good = await restoreText(target, full);
    expect(good.projects).toBe(1);
  });

  test('dump explains what it cannot do', async ({ tempDir: dir }) => {
    const source = dir('src');
    const h = await harness({}, source);
    const locked = await dumpCli(['--data-dir', source]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain('in use');
    await h.registry.close();

    // The other refusals are DumpErrors too (what the command answers with exit 1, as above), each with its reason.
    const empty = dir('empty');
    mkdirSync(join(empty, 'sub'));
    for (const [dataDir, options, reason] of [
      [join(empty, 'nothing-here'), {}, 'not a flagpole data directory'],
      [source, { project: 'nope' }, 'no project "nope"'],
      [source, { at: 3 }, '--at needs --project'],
    ] as const) {
      const refused = dumpText(dataDir, options);
      await expect(refused, reason).rejects.toThrow(DumpError);
      await expect(refused, reason).rejects.toThrow(reason);
    }
    // Arguments the command cannot take: exit 2.
    expect((await dumpCli(['--data-dir', source, '--project', 'default', '--at', 'x'])).code).toBe(2);
    expect((await dumpCli([])).code).toBe(2);
  });

  test('npm run dump and npm run restore work as documented', async ({ tempDir: dir }) => {
    const source = dir('src');
    const h = await harness({}, source);
    await populate(h);
    await h.registry.close();
    // --ignore-scripts: the pre-scripts would rebuild dist/ under the feet of the tests running it beside this one.
    const dumped = await npm(['run', '--silent', '--ignore-scripts', 'dump', '--', '--data-dir', source]);
    expect(dumped.code, dumped.stderr).toBe(0);
    expect(dumped.stdout).toBe(await dumpText(source));
    const target = dir('target');
    const restored = await npm(['run', '--silent', '--ignore-scripts', 'restore', '--', '--data-dir', target], dumped.stdout);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await dumpText(target)).toBe(withoutTokens(dumped.stdout));
  });
});
