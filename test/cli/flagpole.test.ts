/**
 * The `flagpole` command as a user runs it: help for every command, usage errors with exit code 2, `flagpole
 * start` serving, the lock refusal of a second process on the same data directory, and the npm scripts going
 * through the compiled CLI. Help and usage errors run in the test's process through the function the bin runs
 * (`flagpoleInProcess`), the top-level help, the version and no command at all through the compiled bin (a
 * child process); the service, the lock and the npm scripts only as processes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, onTestFinished } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { ADMIN_TOKEN } from '../helpers/harness.js';
import { freePort } from '../helpers/net.js';
import { ROOT, SERVICE_ENV, call, flagpole, flagpoleInProcess, startFlagpole } from './run-flagpole.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';

/** `script` (util-linux) gives a command a pseudo-terminal; without it the terminal case cannot be run. */
const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

describe('flagpole --help and usage errors', () => {
  test('every command has --help (exit 0) naming its options; the top-level help names the commands and the exit codes', async () => {
    const top = await flagpole(['--help']);
    expect(top.code).toBe(0);
    for (const command of ['start', 'dump', 'restore', 'backup', 'copy-store']) expect(top.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(top.stdout).toContain('Exit codes: 0 done, 1 the work failed (message on standard error), 2 the command line is wrong.');
    const options: Record<string, string[]> = {
      start: [], dump: ['--data-dir <dir>', '--database-url <url>', '--project <id>', '--at <seq>'], restore: ['--data-dir <dir>', '--database-url <url>', '[file]'],
      'copy-store': ['--from <store>', '--to <store>', '--from-schema <name>', '--to-schema <name>'],
      backup: ['--url <url>', '--token <token>', '--token-file <file>', '--out <file>', '--force', '--timeout <seconds>', '(env: FLAGPOLE_TOKEN)'],
    };
    // Independent runs: side by side.
    const commands = Object.entries(options);
    const [helps, helpOf, version] = await Promise.all([
      Promise.all(commands.map(([command]) => flagpoleInProcess([command, '--help']))),
      Promise.all(commands.map(([command]) => flagpoleInProcess(['help', command]))),
      flagpole(['--version']),
    ]);
    for (const [i, [command, names]] of commands.entries()) {
      const help = helps[i]!;
      expect(help.code, command).toBe(0);
      expect(help.stdout).toContain(`Usage: flagpole ${command}`);
      for (const name of names) expect(help.stdout, `${command} --help`).toContain(name);
      expect(helpOf[i]!.stdout).toBe(help.stdout);
    }
    expect(version).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  }, CHILD_PROCESS_TEST_MS);

  test('a wrong command line exits 2 with a message naming what is wrong, and does nothing', async ({ tempDir }) => {
    const dir = tempDir('usage');
    const cases: [string[], RegExp][] = [
      [[], /Usage: flagpole \[options\] \[command\]/],
      [['frobnicate'], /error: unknown command 'frobnicate'/],
      [['--frobnicate'], /error: unknown option '--frobnicate'/],
      [['dump'], /error: give the store: --data-dir DIR \(LevelDB\), or --database-url URL or DATABASE_URL \(PostgreSQL\)/],
      [['dump', '--data-dir', dir, '--database-url', 'postgres://u:p@h/d'], /error: give the store once: --data-dir \(LevelDB\) or --database-url \(PostgreSQL\), not both/],
      [['dump', '--database-url', 'mysql://u:secret-word@h/d'], /error: --database-url must be a URL such as postgres:\/\/user:password@host:5432\/database, got one of 25 characters/],
      [['dump', '--data-dir', dir, '--at', 'x'], /error: option '--at <seq>' argument 'x' is invalid. must be a positive integer/],
      [['dump', '--data-dir', dir, '--at', '0'], /argument '0' is invalid/],
      [['dump', '--data-dir'], /error: option '--data-dir <dir>' argument missing/],
      [['restore', 'file.backup'], /error: give the store: --data-dir DIR/],
      [['restore', '--data-dir', dir, 'a', 'b'], /error: too many arguments for 'restore'/],
      [['start', 'now'], /error: too many arguments for 'start'/],
    ];
    // Independent runs: side by side. No command at all through the bin as a process (its argv, exit code 2).
    const runs = await Promise.all(cases.map(([args], i) => (i === 0 ? flagpole : flagpoleInProcess)(args)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = runs[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout, args.join(' ')).toBe('');
    }
  }, CHILD_PROCESS_TEST_MS);

  test.skipIf(!HAS_SCRIPT)('restore with nothing piped on a terminal is a usage error', async ({ tempDir }) => {
    const dir = tempDir('tty');
    const r = await new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn('script', ['-qec', `${process.execPath} dist/bundle/flagpole.js restore --data-dir ${dir}/data`, '/dev/null'], { cwd: ROOT });
      let out = '';
      child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
      child.once('exit', (code) => done({ code, out }));
    });
    expect(r.out).toContain('give the backup or dump file, or pipe it on standard input');
    expect(r.code).toBe(2);
  }, CHILD_PROCESS_TEST_MS);
});

describe('flagpole start', () => {
  test('serves on DATA_DIR; a second process on the same DATA_DIR refuses to start, naming the lock, and the first keeps serving', async ({ tempDir }) => {
    const dataDir = tempDir('lock');
    const first = await startFlagpole(dataDir);
    onTestFinished(async () => void (await first.stop()));
    expect((await call(first.base, 'POST', '/api/admin/projects/default/features', { name: 'held' })).status).toBe(201);

    const port = await freePort();
    const second = await flagpole(['start'], { env: { ...SERVICE_ENV, DATA_DIR: dataDir, PORT: String(port) } });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`[flagpole] failed to start: the data directory ${dataDir} is locked by another process (LevelDB lock file ${dataDir}/LOCK): is flagpole already running on it?`);
    expect(second.stdout + second.stderr).not.toContain(ADMIN_TOKEN);
    // Nothing listens on the second port; the first process is untouched.
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    expect((await call(first.base, 'GET', '/api/admin/projects/default/features/held')).status).toBe(200);

    // The offline dump refuses the directory in use the same way.
    const dump = await flagpole(['dump', '--data-dir', dataDir]);
    expect(dump.code).toBe(1);
    expect(dump.stderr).toContain(`is in use by another process (its LevelDB lock file ${dataDir}/LOCK is held)`);

    // Once the first stops, the directory opens again.
    expect(await first.stop()).toBe(0);
    const third = await startFlagpole(dataDir);
    onTestFinished(async () => void (await third.stop()));
    expect((await call(third.base, 'GET', '/api/admin/projects/default/features/held')).status).toBe(200);
  }, CHILD_PROCESS_TEST_MS);

  test('a bad setting stops the start with exit code 1 and the variable named', async () => {
    const r = await flagpole(['start'], { env: { PORT: 'eighty' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('PORT must be an integer from 0 to 65535, got "eighty"');
  }, CHILD_PROCESS_TEST_MS);
});

describe('the npm scripts go through the compiled CLI', () => {
  // --ignore-scripts: the pre-scripts would rebuild dist/ under the feet of the other tests running it.
  test('npm run dump and npm run restore', async ({ tempDir }) => {
    const empty = tempDir('npm-dump');
    const run = (args: string[]) => new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn('npm', ['run', '--silent', '--ignore-scripts', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
      child.once('exit', (code) => done({ code, stderr }));
    });
    // Neither writes: side by side.
    const [dump, usage] = await Promise.all([run(['dump', '--', '--data-dir', empty]), run(['restore', '--', '--data-dir', empty, 'x', 'y'])]);
    expect(dump.code).toBe(1);
    expect(dump.stderr).toContain('dump failed:');
    expect(dump.stderr).toContain('is not a flagpole data directory');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("too many arguments for 'restore'");
  }, CHILD_PROCESS_TEST_MS);
});
