#!/usr/bin/env node
/**
 * Copies the console's own static files (src/console/static/: styles and scripts) beside the compiled code in dist/,
 * where `src/console/assets.ts` reads them: tsc compiles only TypeScript. Run by `npm run build` and
 * scripts/build-if-possible.mjs after tsc.
 */
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'src/console/static');
cpSync(from, join(root, 'dist/src/console/static'), { recursive: true });
