/**
 * The real server keeps Node's async hooks off after rendering console pages: a render of hono/jsx would
 * otherwise run in an AsyncLocalStorage, and on Node 20 its first `run` turns async hooks on for every
 * promise and socket of the process (`src/http/console/jsx-without-async-hooks.ts`).
 *
 * What tells from outside: while async hooks track promises, every new promise carries Node's
 * `async_id_symbol`. The server is started with a preload that, on SIGUSR2, writes how many symbol keys a
 * fresh promise has (the test process itself cannot tell: its workers share modules across files).
 */
import { afterEach, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/process.js';

const PROBE = `process.on('SIGUSR2',()=>process.stdout.write('promise-symbols='+Object.getOwnPropertySymbols(Promise.resolve()).length+String.fromCharCode(10)))`;
const ADMIN = '*:*.async-hooks-test-token';

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.kill();
  server = undefined;
});

/** The count the preload reports when asked. */
async function promiseSymbols(s: ServerProcess): Promise<number> {
  const before = s.output().length;
  s.child.kill('SIGUSR2');
  let answer: RegExpExecArray | null = null;
  await expect.poll(() => (answer = /promise-symbols=(\d+)/.exec(s.output().slice(before)))).not.toBeNull();
  return Number(answer![1]);
}

it('given console pages and API requests served, when a new promise is made, then async hooks do not track it', async () => {
  server = await startServer({
    INIT_ADMIN_API_TOKENS: ADMIN,
    NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=data:text/javascript,${encodeURIComponent(PROBE)}`,
  });
  // The sign-in page and a console page render; an admin read goes through the API pipeline.
  expect((await fetch(`${server.base}/login`)).status).toBe(200);
  const page = await fetch(`${server.base}/projects/default`, { headers: { authorization: ADMIN }, redirect: 'manual' });
  await page.arrayBuffer();
  expect((await fetch(`${server.base}/api/admin/projects/default/features`, { headers: { authorization: ADMIN } })).status).toBe(200);
  expect(await promiseSymbols(server)).toBe(0);
});
