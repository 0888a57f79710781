import { createApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { spawn } from 'node:child_process';
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { CorruptRecordError } from '../../snapshots/codec.js';
import { keys } from '../../snapshots/keys.js';
import { Registry } from '../../src/actors/registry.js';
import { dumpRegistry, stableStringify } from '../../src/actors/dumps/state-dump.js';
import { test } from '../helpers/fixtures.js';
import { harness, type Harness } from '../helpers/harness.js';
import { ok } from './fixtures.js';
import { TokenHasher } from '../../src/auth/token-hasher.js';
import { HARNESS_TOKEN_SECRET } from '../helpers/harness.js';
import { BUILT_START, ROOT } from '../helpers/built.js';
import { dumpCli } from './run-cli.js';
import { dumpDataDir } from '../../src/tools/dump.js';
import type { RecoveryNotice } from '../../snapshots/recovery.js';
import { storeOf } from '../helpers/store-of.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';

const F = '/api/admin/projects/default/features';
const DEFAULT = { project: 'default' };

/** Writes enough to get several project snapshots: flags with a strategy each, switched on. */
async function write(h: Harness, flags: number): Promise<void> {
  for (let i = 0; i < flags; i += 1) {
    await ok(h, 'POST', F, { name: `flag-${i}` });
    await ok(h, 'POST', `${F}/flag-${i}/environments/development/strategies`, { name: 'default' });
    await ok(h, 'POST', `${F}/flag-${i}/environments/development/on`);
  }
}

/** The data directory `dir` written through the real registry, stopped; returns it and the dump it held. */
async function stopped(dir: string, env: Record<string, string>, flags: number, crash = false): Promise<{ dir: string; expected: string }> {
  const h = await harness(env, dir);
  await write(h, flags);
  const expected = stableStringify(dumpRegistry(h.registry)!);
  // A crash-like stop skips the snapshot close() writes, so the tail of the log is needed at the next start.
  if (crash) await storeOf(h.registry).close();
  else await h.registry.close();
  return { dir, expected };
}

/** Edits the stored values of a stopped data directory, as damage on disk would. */
async function damage(dir: string, edit: (db: Level<string, string>) => Promise<void>): Promise<void> {
  const db = new Level<string, string>(dir, { valueEncoding: 'utf8' });
  await db.open();
  try {
    await edit(db);
  } finally {
    await db.close();
  }
}

async function snapshotHeads(db: Level<string, string>): Promise<string[]> {
  const prefix = keys.snapshotPrefix(DEFAULT);
  const found: string[] = [];
  for await (const key of db.keys({ gte: prefix, lt: `${prefix}\xff` })) if (key.endsWith('/head')) found.push(key);
  return found;
}

const flipLastJsonChar = (value: string) => `${value.slice(0, -2)}${value.at(-2) === '0' ? '1' : '0'}${value.at(-1)}`;

/**
 * What `flagpole dump --data-dir dir` prints (standard output) and warns of (each notice, a `warning: <key>: ...`
 * line on standard error), made in this process by the function the command calls (src/cli/dump.command.ts).
 */
async function dumpInProcess(dir: string): Promise<{ text: string; warnings: string[] }> {
  const notices: RecoveryNotice[] = [];
  const text = stableStringify(await dumpDataDir(dir, { notices }));
  return { text, warnings: notices.map((notice) => `warning: ${notice.key}: ${notice.message}`) };
}

const open = (dir: string) => Registry.open({ dataDir: dir, initEnvironments: ['development', 'production'] });

describe('a damaged snapshot', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  // The first case dumps through the command (its exit code and standard error); the others in this process.
  const cases: [string, (db: Level<string, string>, head: string) => Promise<void>, (head: string) => string][] = [
    ['a changed byte in the newest head', async (db, head) => db.put(head, flipLastJsonChar((await db.get(head))!)), (head) => head],
    ['an unknown format version in the newest head', async (db, head) => db.put(head, `9${(await db.get(head))!.slice(1)}`), (head) => head],
    ['a truncated chunk of the newest snapshot', async (db, head) => {
      const chunk = head.replace(/head$/, 'c000000');
      const value = (await db.get(chunk))!;
      await db.put(chunk, value.slice(0, value.length >> 1));
    }, (head) => head.replace(/head$/, 'c000000')],
    ['a missing chunk of the newest snapshot', async (db, head) => db.del(head.replace(/head$/, 'c000000')), (head) => head.replace(/head$/, 'c000000')],
  ];

  test.for(cases.map((c, i) => [...c, i === 0] as const))('%s: recovery falls back to the previous snapshot plus the log, and says so', async ([_label, edit, named, viaCommand], { tempDir }) => {
    const { dir, expected } = await stopped(tempDir('corrupt'), { SNAPSHOT_EVERY: '4' }, 6);
    let newest = '';
    await damage(dir, async (db) => {
      const heads = await snapshotHeads(db);
      expect(heads.length).toBeGreaterThanOrEqual(2);
      newest = heads.at(-1)!;
      await edit(db, newest);
    });
    const registry = await open(dir);
    try {
      expect(stableStringify(dumpRegistry(registry)!)).toBe(expected);
      expect(registry.notices.map((n) => n.key)).toEqual([named(newest)]);
      expect(registry.notices[0]!.message).toContain('falling back');
    } finally {
      await storeOf(registry).close();
    }
    if (viaCommand) {
      const cli = await dumpCli(['--data-dir', dir]);
      expect(cli.code).toBe(0);
      expect(cli.stdout).toBe(expected);
      expect(cli.stderr).toContain(`warning: ${named(newest)}`);
    } else {
      const dumped = await dumpInProcess(dir);
      expect(dumped.text).toBe(expected);
      expect(dumped.warnings.join('\n')).toContain(`warning: ${named(newest)}`);
    }
  });

  test('with every snapshot damaged, the whole log is replayed', async ({ tempDir }) => {
    const { dir, expected } = await stopped(tempDir('corrupt'), { SNAPSHOT_EVERY: '4' }, 6);
    let heads: string[] = [];
    await damage(dir, async (db) => {
      heads = await snapshotHeads(db);
      for (const head of heads) await db.put(head, flipLastJsonChar((await db.get(head))!));
    });
    const registry = await open(dir);
    try {
      expect(stableStringify(dumpRegistry(registry)!)).toBe(expected);
      expect(registry.notices.map((n) => n.key)).toEqual([...heads].reverse());
    } finally {
      await storeOf(registry).close();
    }
  });
});

describe('a damaged log record', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  const record = (seq: number) => keys.log(DEFAULT, seq);

  test.for([
    // The first case dumps through the command (exit 1, the key on standard error); the others in this process.
    ['a changed byte', 5, async (db: Level<string, string>) => db.put(record(5), flipLastJsonChar((await db.get(record(5)))!)), 'checksum mismatch', true],
    ['a truncated last record', 10, async (db: Level<string, string>) => db.put(record(10), (await db.get(record(10)))!.slice(0, 40)), 'checksum mismatch', false],
    ['a missing record (gap)', 6, async (db: Level<string, string>) => db.del(record(5)), 'expected sequence 5, found 6', false],
    ['no format header', 7, async (db: Level<string, string>) => db.put(record(7), 'garbage'), 'no format header', false],
  ] as const)('%s stops recovery of that project with an error naming the key; the others are served', async ([_label, seq, edit, reason, viaCommand], { tempDir }) => {
    const { dir } = await stopped(tempDir('corrupt'), {}, 3, true);
    await damage(dir, edit);
    const registry = await open(dir);
    try {
      const error = registry.unavailable.get('default');
      expect(error).toBeInstanceOf(CorruptRecordError);
      expect(error!.key).toBe(record(seq));
      expect(error!.message).toContain(reason);
      expect(registry.project('default')).toBeUndefined();
      // Not silently re-creatable under the same id either.
      const again = await registry.createProject({ id: 'default', name: 'x', description: '', createdAt: '', environments: [], defaultStrategies: {}, members: {} }, 'test');
      expect(again.ok).toBe(false);
      // Over HTTP: 503 naming the key, on every route of that project; other projects still answer.
      const app = createApp({ registry, config: readConfig({ AUTH_TYPE: 'none', DATA_DIR: dir }), tokenHasher: new TokenHasher(HARNESS_TOKEN_SECRET) });
      const flag = await app.request('/api/admin/projects/default/features');
      expect(flag.status).toBe(503);
      const body = await flag.json() as { name: string; message: string };
      expect(body.name).toBe('Unavailable');
      expect(body.message).toContain(record(seq));
      expect((await app.request('/api/admin/projects')).status).toBe(200);
    } finally {
      await storeOf(registry).close();
    }
    if (viaCommand) {
      const cli = await dumpCli(['--data-dir', dir]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain(record(seq));
    } else {
      // A CorruptRecordError naming the key: what the command answers with exit 1 and its message.
      const failed = dumpInProcess(dir);
      await expect(failed).rejects.toThrow(CorruptRecordError);
      await expect(failed).rejects.toThrow(record(seq));
    }
  });

  test('a damaged service record no longer stops the start: the service is read-only, naming the key (test/faults/service-read-only.test.ts)', async ({ tempDir }) => {
    const { dir } = await stopped(tempDir('corrupt'), {}, 1, true);
    await damage(dir, async (db) => db.put(keys.log('service', 1), flipLastJsonChar((await db.get(keys.log('service', 1)))!)));
    const registry = await open(dir);
    try {
      expect(registry.serviceUnavailable?.message).toContain(keys.log('service', 1));
      expect(registry.service.readOnlyReason).toContain('read-only');
    } finally {
      await registry.close();
    }
  });

  test('the real service starts, names the key, and answers 503 for that project rather than serve it without the data', async ({ tempDir }) => {
    const { dir } = await stopped(tempDir('corrupt'), {}, 2, true);
    await damage(dir, async (db) => db.put(record(4), flipLastJsonChar((await db.get(record(4)))!)));
    const child = spawn(process.execPath, [...BUILT_START], {
      cwd: ROOT, env: { ...process.env, DATA_DIR: dir, PORT: '0', INIT_ADMIN_API_TOKENS: '*:*.x', LOG_FORMAT: 'pretty', TOKEN_SECRET: HARNESS_TOKEN_SECRET }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
      const port = await new Promise<number>((resolve, reject) => {
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          stdout += d;
          const match = /listening on http:\/\/[^:]+:(\d+)/.exec(stdout);
          if (match) resolve(Number(match[1]));
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      expect(stderr).toContain(`corrupt record at key "${record(4)}"`);
      const answer = await fetch(`http://127.0.0.1:${port}/api/admin/projects/default`, { headers: { authorization: '*:*.x' } });
      expect(answer.status).toBe(503);
      expect(await answer.text()).toContain(record(4));
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('a damaged record older than the newest snapshot does not stop the start', async ({ tempDir }) => {
    const { dir, expected } = await stopped(tempDir('corrupt'), {}, 2);
    await damage(dir, async (db) => db.put(record(2), 'garbage'));
    const registry = await open(dir);
    try {
      expect(stableStringify(dumpRegistry(registry)!)).toBe(expected);
    } finally {
      await storeOf(registry).close();
    }
    // Time travel needs it, and says which record is damaged.
    const travel = await dumpCli(['--data-dir', dir, '--project', 'default', '--at', '3']);
    expect(travel.code).toBe(1);
    expect(travel.stderr).toContain(record(2));
  });
});
