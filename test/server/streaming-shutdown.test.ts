/**
 * The real server process and SIGTERM with SDK streams open: every stream is ended cleanly (the SDK then
 * reconnects elsewhere and resumes) and the process exits 0; before that, streams outlive the request deadlines.
 */
import { expect, test as base } from 'vitest';
import { openSse } from '../http/client/stream-fixtures.js';
import { startServer, type ServerProcess } from '../helpers/process.js';
import { CHILD_PROCESS_TEST_MS, untilState } from '../helpers/wait.js';

const CLIENT = '*:development.streaming-shutdown-0123456789';

const test = base.extend<{ server: ServerProcess }>({
  server: async ({}, use) => {
    // The shortest request deadlines: a stream outlives them (they bound receiving a request, not answering it).
    const server = await startServer({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1000', CLIENT_STREAMING_KEEPALIVE_MS: '200', INIT_ADMIN_API_TOKENS: '*:*.streaming-shutdown-admin-0123456789', INIT_CLIENT_API_TOKENS: CLIENT, TOKEN_SECRET: 'streaming-shutdown-token-key-0123456789abcdef' });
    try {
      await use(server);
    } finally {
      await server.kill();
    }
  },
});

test('SIGTERM ends every open stream cleanly and exits 0', async ({ server }) => {
  const streams = [await openSse(server.base, CLIENT), await openSse(server.base, CLIENT)];
  for (const stream of streams) expect((await stream.next(() => true)).event).toBe('unleash-connected');
  // Past both request deadlines (1 s, checked every second), the streams are still open and kept alive: the
  // server's own keep-alives, 200 ms apart at least, count out 2.6 s on each stream.
  const keepAlives = (stream: (typeof streams)[number]) => stream.messages.filter((m) => m.comment === 'keep-alive').length;
  for (const stream of streams) await expect.poll(() => keepAlives(stream), untilState(50)).toBeGreaterThanOrEqual(13);
  const exited = new Promise<number | null>((done) => server.child.once('exit', (code) => done(code)));
  server.child.kill('SIGTERM');
  expect(await Promise.all(streams.map((s) => s.ended))).toEqual(['end', 'end']);
  expect(await exited).toBe(0);
}, CHILD_PROCESS_TEST_MS);
