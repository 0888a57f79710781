/**
 * The real server process and SIGTERM with OFREP event streams open: keep-alive comments while quiet, every
 * stream ended cleanly, exit 0, and the ticket never in the process's log.
 */
import { expect, test as base } from 'vitest';
import { openSse } from '../client/stream-fixtures.js';
import { startServer, type ServerProcess } from '../../helpers/process.js';
import { CHILD_PROCESS_TEST_MS } from '../../helpers/wait.js';

const FRONTEND = 'default:development.ofrep-shutdown-0123456789';

const test = base.extend<{ server: ServerProcess }>({
  server: async ({}, use) => {
    const server = await startServer({ CLIENT_STREAMING_KEEPALIVE_MS: '200', INIT_ADMIN_API_TOKENS: '*:*.ofrep-shutdown-admin-0123456789', INIT_FRONTEND_API_TOKENS: FRONTEND, TOKEN_SECRET: 'ofrep-shutdown-token-key-0123456789abcdef' });
    try {
      await use(server);
    } finally {
      await server.kill();
    }
  },
});

test('SIGTERM ends every open OFREP stream cleanly and exits 0', async ({ server }) => {
  const bulk = await fetch(`${server.base}/ofrep/v1/evaluate/flags`, { method: 'POST', headers: { authorization: FRONTEND, 'content-type': 'application/json' }, body: '{"context":{"targetingKey":"u"}}' });
  expect(bulk.status).toBe(200);
  const url = new URL(((await bulk.json()) as { eventStreams: { url: string }[] }).eventStreams[0]!.url);
  expect(url.origin).toBe(server.base);
  const streams = [await openSse(server.base, null, {}, `${url.pathname}${url.search}`), await openSse(server.base, null, {}, `${url.pathname}${url.search}`)];
  for (const stream of streams) expect((await stream.next(() => true)).comment).toBe('connected');
  for (const stream of streams) await stream.next((m) => m.comment === 'keep-alive');
  const exited = new Promise<number | null>((done) => server.child.once('exit', (code) => done(code)));
  server.child.kill('SIGTERM');
  expect(await Promise.all(streams.map((s) => s.ended))).toEqual(['end', 'end']);
  expect(await exited).toBe(0);
  // The process logged the requests (route templates) and never the ticket.
  expect(server.output()).toContain('/ofrep/v1/events');
  expect(server.output()).not.toContain(url.searchParams.get('ticket')!);
}, CHILD_PROCESS_TEST_MS);
