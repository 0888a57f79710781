#!/usr/bin/env node
/**
 * Copies the console's own static files (src/console/static/: styles and scripts) beside the compiled code in dist/
 * and beside the bundle (dist/bundle/static/), where `src/console/assets.ts` reads them (a `static` folder next to
 * the module that holds it): tsc and esbuild carry only code. Run by `npm run build` and
 * scripts/build-if-possible.mjs after tsc.
 */
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'src/console/static');
for (const to of ['dist/src/console/static', 'dist/bundle/static']) cpSync(from, join(root, to), { recursive: true });
