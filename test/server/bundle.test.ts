/**
 * The bundle the bin runs (`dist/bundle/flagpole.js`, scripts/bundle.mjs), started as `flagpole start`: it finds
 * the files it reads beside itself (the console's static files, htmx from node_modules), it opens both stores
 * (classic-level loaded from node_modules, pg bundled), and an error's stack in a log line names the TypeScript
 * sources through the source map, not lines of the one bundled file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { ROOT } from '../helpers/built.js';
import { test } from '../helpers/fixtures.js';
import { ADMIN_TOKEN } from '../helpers/harness.js';
import { freshSchema } from '../helpers/postgres.js';
import { startServer } from '../helpers/process.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';

const TOKEN = { authorization: ADMIN_TOKEN, 'content-type': 'application/json' };

describe('the bundle, as `flagpole start`', () => {
  test('serves the console\'s static files: every asset the sign-in page links, byte for byte its source', async () => {
    const server = await startServer({ INIT_ADMIN_API_TOKENS: ADMIN_TOKEN });
    try {
      const page = await (await fetch(`${server.base}/login`)).text();
      const linked = [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
      const byName = (prefix: string) => linked.find((path) => path.startsWith(`/assets/${prefix}.`));
      expect(byName('console'), page).toBeDefined();
      expect(byName('htmx'), page).toBeDefined();
      for (const path of linked) {
        const response = await fetch(`${server.base}${path}`);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('cache-control'), path).toContain('immutable');
        const body = await response.text();
        if (path === byName('console')) expect(body.startsWith(readFileSync(join(ROOT, 'src/console/static/css/base.css'), 'utf8'))).toBe(true);
        if (path === byName('htmx')) expect(body).toBe(readFileSync(createRequire(join(ROOT, 'package.json')).resolve('htmx.org/dist/htmx.min.js'), 'utf8'));
      }
    } finally {
      await server.kill();
    }
  }, CHILD_PROCESS_TEST_MS);

  test('serves from PostgreSQL; a write the store refuses logs a stack that names the TypeScript sources', async () => {
    const schema = freshSchema();
    const server = await startServer({
      INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, DATABASE_URL: schema.database.url, DATABASE_SCHEMA: schema.database.schema, LOG_FORMAT: 'json',
    });
    try {
      expect(server.output()).toMatch(/"store":"postgres/);
      const created = await fetch(`${server.base}/api/admin/projects/default/features`, { method: 'POST', headers: TOKEN, body: JSON.stringify({ name: 'bundled' }) });
      expect(created.status).toBe(201);
      // The store's tables gone under it: the next write is refused, and the cause is logged with its stack.
      await schema.drop();
      const refused = await fetch(`${server.base}/api/admin/projects/default/features`, { method: 'POST', headers: TOKEN, body: JSON.stringify({ name: 'refused' }) });
      expect(refused.status).toBe(503);
      await expect.poll(() => server.output()).toMatch(/write refused: storage unavailable/);
      const line = server.output().split('\n').find((text) => text.includes('write refused: storage unavailable'))!;
      const stack = (JSON.parse(line) as { err: { stack: string } }).err.stack;
      expect(stack).toMatch(/snapshots\/pg\/[\w-]+\.ts:\d+:\d+/);
      expect(stack).not.toContain('flagpole.bundle.js');
    } finally {
      await server.kill();
      await schema.drop();
    }
  }, CHILD_PROCESS_TEST_MS);
});
