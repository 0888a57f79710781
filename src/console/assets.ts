/**
 * The console's static files (styles, htmx and its SSE extension), served by flagpole itself at
 * `/assets/<name>.<content hash>.<ext>` with `Cache-Control: immutable`: a changed file gets a new name, so a
 * browser never needs to ask twice and never runs a stale copy.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console's assets by logical name. */
export type AssetName = 'console.css' | 'htmx.js' | 'htmx-sse.js' | 'flag-page.js' | 'definitions.js' | 'copy-secret.js' | 'set-password.js';

interface Asset {
  path: string;
  body: Buffer;
  type: string;
}

const require = createRequire(import.meta.url);
// A path join, not `new URL(...)`: a test DOM (happy-dom) replaces the global `URL` in its files.
const STATIC = (file: string) => join(dirname(fileURLToPath(import.meta.url)), 'static', file);

/**
 * The parts of `console.css`, in cascade order (a later part wins over an earlier one at equal specificity): one
 * file per group of pages, kept small, served joined as one stylesheet.
 */
const STYLES = ['base', 'projects', 'history', 'flag-page', 'lists', 'admin', 'phone-flag-table'].map((part) => `css/${part}.css`);

/**
 * Where each asset's bytes come from: our own files in `static/` (copied into dist/ by the build; several joined
 * in order for one asset), htmx from node_modules.
 */
const SOURCES: Record<AssetName, () => string | string[]> = {
  'console.css': () => STYLES.map(STATIC),
  'htmx.js': () => require.resolve('htmx.org/dist/htmx.min.js'),
  'htmx-sse.js': () => require.resolve('htmx-ext-sse/dist/sse.min.js'),
  'flag-page.js': () => STATIC('flag-page.js'),
  'definitions.js': () => STATIC('definitions.js'),
  'copy-secret.js': () => STATIC('copy-secret.js'),
  'set-password.js': () => STATIC('set-password.js'),
};

const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };

/** The immutable answer's headers, the same for every asset but its type. */
const CACHE = 'public, max-age=31536000, immutable';

/** The assets this process read (the files do not change under a running service: a new build is a new process). */
let loaded: ConsoleAssets | undefined;

/**
 * The assets, read once per process (the first app built reads them, every other app shares them). `url(name)` is
 * what pages link; `answer(file)` serves a requested file name (or undefined for an unknown one, which is a 404).
 *
 * @example const assets = ConsoleAssets.load(); assets.url('console.css') // '/assets/console.3f9c2a1b7d.css'
 */
export class ConsoleAssets {
  readonly #byName = new Map<AssetName, Asset>();
  readonly #byPath = new Map<string, Asset>();

  private constructor() {}

  /** Every asset, named by its content hash: read on the first call, shared after. */
  static load(): ConsoleAssets {
    loaded ??= ConsoleAssets.read();
    return loaded;
  }

  /** Reads every asset from disk and names it by its content hash. */
  private static read(): ConsoleAssets {
    const assets = new ConsoleAssets();
    for (const [name, source] of Object.entries(SOURCES) as [AssetName, () => string | string[]][]) {
      const files = source();
      const body = Array.isArray(files) ? Buffer.concat(files.flatMap((file, i) => (i === 0 ? [readFileSync(file)] : [Buffer.from('\n'), readFileSync(file)]))) : readFileSync(files);
      const dot = name.lastIndexOf('.');
      const ext = name.slice(dot + 1);
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
      const asset = { path: `/assets/${name.slice(0, dot)}.${hash}.${ext}`, body, type: TYPES[ext] ?? 'application/octet-stream' };
      assets.#byName.set(name, asset);
      assets.#byPath.set(asset.path, asset);
    }
    return assets;
  }

  /** The URL pages link for an asset. */
  url(name: AssetName): string {
    return this.#byName.get(name)!.path;
  }

  /** The answer to `GET <path>` under `/assets/`, or undefined when no asset has that name. */
  answer(path: string): Response | undefined {
    const asset = this.#byPath.get(path);
    if (!asset) return undefined;
    return new Response(new Uint8Array(asset.body), {
      status: 200,
      headers: { 'Content-Type': asset.type, 'Cache-Control': CACHE, 'X-Content-Type-Options': 'nosniff' },
    });
  }
}
