#!/usr/bin/env node
/**
 * Builds dist/ (tsc, then the bundle the bin runs: scripts/bundle.mjs) when the build tools are installed;
 * otherwise (an install with `npm ci --omit=dev`) uses the dist/ already built, and says so. Run by `prepare`
 * (npm install / npm ci in a clone, npm pack) and before `npm start`, `npm run dump` and `npm run restore`.
 * Writes only to standard error: a dump's standard output stays the dump. Exit 1 when there is neither a
 * compiler nor a built dist/.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist/bundle/flagpole.js');
/**
 * The bin must be executable: `npx flagpole` in a clone runs `dist/bundle/flagpole.js` itself (through its `#!`
 * line). (npm sets the bit only on bins of installed packages; a dist/ copied in may have lost it.)
 */
function executable() {
  chmodSync(built, 0o755);
}

const require = createRequire(join(root, 'package.json'));
/**
 * The compiler, when the build can run: TypeScript alone is not enough, since `npm ci --omit=dev` installs it
 * too (an optional peer of valibot) but not the type definitions the build needs (`@types/node`), nor the bundler.
 */
let tsc;
try {
  const pkg = require.resolve('typescript/package.json');
  require.resolve('@types/node/package.json');
  require.resolve('esbuild');
  tsc = join(dirname(pkg), 'bin/tsc');
} catch {
  tsc = undefined;
}

if (tsc === undefined || !existsSync(join(root, 'tsconfig.build.json'))) {
  if (existsSync(built)) {
    executable();
    process.exit(0);
  }
  process.stderr.write('[flagpole] dist/ is not built and the build tools are not installed (an install without devDependencies).\n'
    + '[flagpole] Build it where devDependencies are installed (npm ci && npm run build, or npm pack for a tarball with dist/): see docs/operations.md.\n');
  process.exit(1);
}
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] });
if (result.status !== 0) process.exit(result.status ?? 1);
// tsc compiles only TypeScript: the console's static files are copied beside the compiled code and the bundle.
for (const step of ['scripts/copy-static.mjs', 'scripts/bundle.mjs']) {
  const done = spawnSync(process.execPath, [join(root, step)], { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] });
  if (done.status !== 0) process.exit(done.status ?? 1);
}
executable();
