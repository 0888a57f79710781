/**
 * The real server process and SIGTERM with SDK streams open: every stream is ended cleanly (the SDK then
 * reconnects elsewhere and resumes) and the process exits 0.
 */
import { expect, test as base } from 'vitest';
import { openSse } from '../http/client/stream-fixtures.js';
import { startServer, type ServerProcess } from '../helpers/process.js';

const CLIENT = '*:development.streaming-shutdown-0123456789';

const test = base.extend<{ server: ServerProcess }>({
  server: async ({}, use) => {
    const server = await startServer({ INIT_ADMIN_API_TOKENS: '*:*.streaming-shutdown-admin-0123456789', INIT_CLIENT_API_TOKENS: CLIENT, TOKEN_SECRET: 'streaming-shutdown-token-key-0123456789abcdef' });
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
  const exited = new Promise<number | null>((done) => server.child.once('exit', (code) => done(code)));
  server.child.kill('SIGTERM');
  expect(await Promise.all(streams.map((s) => s.ended))).toEqual(['end', 'end']);
  expect(await exited).toBe(0);
}, 30_000);
