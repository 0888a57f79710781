#!/usr/bin/env node
/**
 * Copies the console's own static files (src/http/console/static/: styles) beside the compiled code in dist/,
 * where `src/http/console/assets.ts` reads them: tsc compiles only TypeScript. Run by `npm run build` and
 * scripts/build-if-possible.mjs after tsc.
 */
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'src/http/console/static');
cpSync(from, join(root, 'dist/src/http/console/static'), { recursive: true });
