#!/usr/bin/env node
/**
 * Bundles the compiled `flagpole` command (dist/src/cli.js, from tsc) and everything it imports into one file,
 * dist/bundle/flagpole.bundle.js, with its source map; dist/bundle/flagpole.js is the bin that runs it. A start
 * from one file skips resolving and reading ~400 modules one by one (docs/operations.md "The build").
 * Run by `npm run build` and scripts/build-if-possible.mjs after tsc; needs esbuild (a devDependency).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist/bundle');

/**
 * Packages left out of the bundle, loaded from node_modules at run time: level, whose classic-level finds its
 * native addon next to its own files (level is the dependency package.json names, so it resolves from the
 * package wherever npm put classic-level), and pg-native, an optional addon of pg that is not installed.
 */
const EXTERNAL = ['level', 'pg-native'];

await build({
  entryPoints: [join(root, 'dist/src/cli.js')],
  outfile: join(out, 'flagpole.bundle.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // The CommonJS packages inside call `require` (node's built-ins, the externals): an ES module has none of its own.
  banner: { js: "import { createRequire as __flagpoleCreateRequire } from 'node:module'; const require = __flagpoleCreateRequire(import.meta.url);" },
  // Chained through tsc's maps to the TypeScript sources; names only, no copies of the sources (stack traces need no more).
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});

// The bin: turns source maps on before the bundle loads (node reads a module's map when it compiles it), so an
// error's stack names the TypeScript files and lines; flags on a `#!` line are not portable.
mkdirSync(out, { recursive: true });
const bin = join(out, 'flagpole.js');
writeFileSync(bin, "#!/usr/bin/env node\n// The flagpole bin (written by scripts/bundle.mjs): stack traces through the source map, then the bundle.\nprocess.setSourceMapsEnabled(true);\nawait import('./flagpole.bundle.js');\n");
chmodSync(bin, 0o755);
