/**
 * The HTTP server itself, as its own process: a slow client holds a connection only so long (headers and
 * whole requests have deadlines), open connections are capped, and `AUTH_TYPE=none` is announced. Before,
 * slow bodies were held ~300 s and slow headers ~78 s, with no cap on connections.
 */
import { connect, type Socket } from 'node:net';
import { expect, test } from 'vitest';
import { startServer } from '../helpers/process.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';

/** Opens a socket and resolves once it is connected. */
const open = (port: number): Promise<Socket> => new Promise((resolve, reject) => {
  const socket = connect(port, '127.0.0.1', () => resolve(socket));
  socket.once('error', reject);
});

/** What the server sent on `socket` until it ended the connection. */
const answerUntilClosed = (socket: Socket): Promise<string> => new Promise((resolve) => {
  let received = '';
  socket.on('data', (d: Buffer) => { received += d.toString('latin1'); });
  socket.once('close', () => resolve(received));
  socket.on('error', () => undefined);
});

// Which deadline cut a connection is read from Node's answer to it (408 Request Timeout, sent only when
// HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS passes), not from a stopwatch; Node's own defaults (60 s and
// 300 s) are past the test's timeout, so a setting not applied fails the test.
test('slow headers and slow bodies are cut off at their deadlines; other clients are served meanwhile', { timeout: CHILD_PROCESS_TEST_MS }, async () => {
  const server = await startServer({ INIT_ADMIN_API_TOKENS: '*:*.t', HEADERS_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '2500' });
  try {
    const slowHeaders = await open(server.port);
    slowHeaders.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const slowBody = await open(server.port);
    slowBody.write('POST /api/admin/projects/default/features HTTP/1.1\r\nHost: x\r\nAuthorization: *:*.t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na');
    const headersClosed = answerUntilClosed(slowHeaders);
    const bodyClosed = answerUntilClosed(slowBody);
    expect((await fetch(`${server.base}/health`)).status).toBe(200);
    const [h, b] = await Promise.all([headersClosed, bodyClosed]);
    expect(h).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(b).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    // Nothing half-sent was written.
    const list = await fetch(`${server.base}/api/admin/projects/default/features`, { headers: { authorization: '*:*.t' } });
    expect((await list.json() as { features: unknown[] }).features).toEqual([]);
  } finally {
    await server.kill();
  }
});

test('connections beyond MAX_CONNECTIONS are refused while the ones open are served', { timeout: CHILD_PROCESS_TEST_MS }, async () => {
  const server = await startServer({ INIT_ADMIN_API_TOKENS: '*:*.t', MAX_CONNECTIONS: '3' });
  try {
    const held = await Promise.all([open(server.port), open(server.port), open(server.port)]);
    const extra = await open(server.port);
    // Closed by the server without a word: refused, not served.
    expect(await answerUntilClosed(extra)).toBe('');
    held[0]!.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const answer = await new Promise<string>((resolve) => held[0]!.once('data', (d: Buffer) => resolve(d.toString())));
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    for (const socket of held) socket.destroy();
  } finally {
    await server.kill();
  }
});

test('AUTH_TYPE=none starts with a warning on standard error', { timeout: CHILD_PROCESS_TEST_MS }, async () => {
  const server = await startServer({ AUTH_TYPE: 'none' });
  try {
    expect(server.output()).toMatch(/"level":40[^\n]*AUTH_TYPE=none/);
    expect((await fetch(`${server.base}/api/admin/projects`)).status).toBe(200);
  } finally {
    await server.kill();
  }
});
