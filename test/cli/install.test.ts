/**
 * Installs without devDependencies, as docs/operations.md "Install" describes them: `npm pack` of this
 * repository (dist/ built), installed with `npm install --omit=dev` into an empty directory; and a clone
 * with dist/ built, installed with `npm ci --omit=dev` and run through `npx flagpole`. No compiler, no tsx:
 * the `flagpole` bin must start the service and take a backup with the runtime dependencies alone. Uses the
 * npm cache (--prefer-offline), so it needs the network (the npm registry) only for a package not cached yet.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { ADMIN_TOKEN } from '../helpers/harness.js';
import { ROOT, call, flagpole, startFlagpole } from './run-flagpole.js';

/** Runs `command` (npm, npx) in `cwd`, resolving with its exit code, standard output and both outputs. */
function run(command: 'npm' | 'npx', args: string[], cwd: string): Promise<{ code: number | null; stdout: string; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, output }));
  });
}

const npm = (args: string[], cwd: string) => run('npm', args, cwd);

/**
 * What a fresh clone of this repository holds (the files git tracks, and new ones it does not ignore, as
 * they are in this working tree), copied into `dir`; with `dist/` as built for this run when `withDist`.
 */
function cloneInto(dir: string, withDist: boolean): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  expect(files).toContain('package-lock.json');
  for (const file of files) {
    // A tracked file deleted in this working tree is not in the clone either.
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  if (withDist) cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
}

const CI_OMIT_DEV = ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'];

// Each case installs into a directory of its own and npm's cache takes concurrent installs: the three run
// side by side, each mostly waiting on npm.
/**
 * npm pack, install and ci into fresh directories, the three tests at once: a minute or two on a quiet machine,
 * several on a loaded one.
 */
const INSTALL_TEST_MS = 900_000;

describe.concurrent('installs without devDependencies', () => {
  test('npm pack, then npm install --omit=dev: the flagpole bin starts the service and backs it up, without any devDependency', async ({ tempDir, onTestFinished }) => {
    const packs = tempDir('pack');
    // --ignore-scripts: dist/ is already built (test/global-setup.ts); `prepare` would rebuild it under other tests.
    const packed = await npm(['pack', '--ignore-scripts', '--pack-destination', packs], ROOT);
    expect(packed.code, packed.output).toBe(0);
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const tarball = join(packs, `flagpole-${version}.tgz`);
    const site = tempDir('site');
    writeFileSync(join(site, 'package.json'), '{"name":"site","private":true}\n');
    const installed = await npm(['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], site);
    expect(installed.code, installed.output).toBe(0);

    const modules = join(site, 'node_modules');
    for (const dev of ['typescript', 'tsx', 'vitest', '@types/node', 'unleash-client']) expect(existsSync(join(modules, dev)), dev).toBe(false);
    for (const runtime of ['commander', 'cli-progress', 'level', 'hono']) expect(existsSync(join(modules, runtime)), runtime).toBe(true);
    const bin = join(modules, '.bin/flagpole');
    const versionRun = await flagpole(['--version'], { bin, cwd: site, finished: onTestFinished });
    expect(versionRun.stdout, `exit ${versionRun.code}: ${versionRun.stderr}`).toBe(`${version}\n`);

    const service = await startFlagpole(join(site, 'data'), {}, bin, onTestFinished);
    onTestFinished(async () => void (await service.stop()));
    expect((await call(service.base, 'GET', '/health')).status).toBe(200);
    expect((await call(service.base, 'POST', '/api/admin/projects/default/features', { name: 'installed' })).status).toBe(201);
    const out = join(site, 'site.backup');
    const backup = await flagpole(['backup', '--url', service.base, '--out', out], { bin, cwd: site, env: { FLAGPOLE_TOKEN: ADMIN_TOKEN }, finished: onTestFinished });
    expect(backup.code, backup.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('"name":"installed"');
    expect(await service.stop()).toBe(0);
    const restored = await flagpole(['restore', '--data-dir', join(site, 'restored'), out], { bin, cwd: site, finished: onTestFinished });
    expect(restored.code, restored.stderr).toBe(0);
    const dump = await flagpole(['dump', '--data-dir', join(site, 'restored'), '--project', 'default'], { bin, cwd: site, finished: onTestFinished });
    expect(JSON.parse(dump.stdout).projects[0].flags.map((f: { name: string }) => f.name)).toEqual(['installed']);
  }, INSTALL_TEST_MS);

  test('a clone with dist/ built: npm ci --omit=dev, then npx flagpole answers --help and a usage error, and its bin --version, a command\'s help and a usage error', async ({ tempDir, onTestFinished }) => {
    const clone = tempDir('clone');
    cloneInto(clone, true);
    const installed = await npm(CI_OMIT_DEV, clone);
    expect(installed.code, installed.output).toBe(0);
    // npm installs TypeScript even so (an optional peer of valibot), but not the rest of the build: the
    // `prepare` script must use the dist/ present, not try a build that cannot work.
    for (const dev of ['@types/node', 'tsx', 'vitest', 'unleash-client']) expect(existsSync(join(clone, 'node_modules', dev)), dev).toBe(false);
    // `npx --no --`: the local bin or nothing (never a download); the options after `--` are the bin's. npx
    // once for an answer (exit 0) and once for a refusal (exit 2); the other runs start the clone's bin with
    // node, as npx does after finding it (an npx run costs ~1 s of CPU more than the bin's own).
    const npx = (args: string[]) => run('npx', ['--no', '--', 'flagpole', ...args], clone);
    const bin = async (args: string[]) => {
      const ran = await flagpole(args, { bin: join(clone, 'dist/bundle/flagpole.js'), cwd: clone, finished: onTestFinished });
      return { ...ran, output: ran.stdout + ran.stderr };
    };
    // Five independent runs of the installed bin, side by side.
    const [help, versionRun, backupHelp, missing, unknown] = await Promise.all([npx(['--help']), bin(['--version']), bin(['backup', '--help']), bin(['restore']), npx(['frobnicate'])]);
    expect(help!.code, help!.output).toBe(0);
    for (const command of ['start', 'dump', 'restore', 'backup']) expect(help!.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(help!.stdout).toContain('Exit codes: 0 done, 1 the work failed');
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(versionRun!.stdout, `exit ${versionRun!.code}: ${versionRun!.stderr}`).toBe(`${version}\n`);
    expect(backupHelp!.code).toBe(0);
    expect(backupHelp!.stdout).toContain('--out');
    expect(missing!.code).toBe(2);
    expect(missing!.output).toContain('error: give the store: --data-dir DIR (LevelDB), or --database-url URL or DATABASE_URL (PostgreSQL)');
    expect(unknown!.code).toBe(2);
    expect(unknown!.output).toContain("error: unknown command 'frobnicate'");
  }, INSTALL_TEST_MS);

  test('a clone without dist/: npm ci --omit=dev stops, saying how to build', async ({ tempDir }) => {
    const clone = tempDir('clone-unbuilt');
    cloneInto(clone, false);
    const installed = await npm(CI_OMIT_DEV, clone);
    expect(installed.code).not.toBe(0);
    expect(installed.output).toContain('[flagpole] dist/ is not built and the build tools are not installed');
    expect(installed.output).toContain('npm ci && npm run build');
    expect(existsSync(join(clone, 'dist'))).toBe(false);
  }, INSTALL_TEST_MS);
});
