/**
 * An install without devDependencies, as docs/operations.md "Install" describes it: `npm pack` of this
 * repository (dist/ built), installed with `npm install --omit=dev` into an empty directory. No compiler,
 * no tsx: the `flagpole` bin must start the service and take a backup with the runtime dependencies alone.
 * Uses the npm cache (--prefer-offline), so it needs the network only for a package not cached yet.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { test } from '../helpers/fixtures.js';
import { ADMIN_TOKEN } from '../helpers/harness.js';
import { ROOT, call, flagpole, startFlagpole } from './run-flagpole.js';

/** Runs npm in `cwd`, resolving with its exit code and output. */
function npm(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn('npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    child.once('error', fail);
    child.once('exit', (code) => done({ code, output }));
  });
}

test('npm pack, then npm install --omit=dev: the flagpole bin starts the service and backs it up, without any devDependency', async ({ tempDir }) => {
  const packs = tempDir('pack');
  // --ignore-scripts: dist/ is already built (test/global-build.ts); `prepare` would rebuild it under other tests.
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
  expect((await flagpole(['--version'], { bin, cwd: site })).stdout).toBe(`${version}\n`);

  const service = await startFlagpole(join(site, 'data'), {}, bin);
  onTestFinished(async () => void (await service.stop()));
  expect((await call(service.base, 'GET', '/health')).status).toBe(200);
  expect((await call(service.base, 'POST', '/api/admin/projects/default/features', { name: 'installed' })).status).toBe(201);
  const out = join(site, 'site.backup');
  const backup = await flagpole(['backup', '--url', service.base, '--out', out], { bin, cwd: site, env: { FLAGPOLE_TOKEN: ADMIN_TOKEN } });
  expect(backup.code, backup.stderr).toBe(0);
  expect(readFileSync(out, 'utf8')).toContain('"name":"installed"');
  expect(await service.stop()).toBe(0);
  const restored = await flagpole(['restore', '--data-dir', join(site, 'restored'), out], { bin, cwd: site });
  expect(restored.code, restored.stderr).toBe(0);
  const dump = await flagpole(['dump', '--data-dir', join(site, 'restored'), '--project', 'default'], { bin, cwd: site });
  expect(JSON.parse(dump.stdout).projects[0].flags.map((f: { name: string }) => f.name)).toEqual(['installed']);
}, 180_000);
