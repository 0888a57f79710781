/**
 * The real server process (`flagpole start` from the built bundle, run by node as `npm start` runs it), spoken to over a
 * socket with fetch: health, authentication, a write, SIGTERM, a second start on the same data directory;
 * and the admin token generated on a fresh directory, printed once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { BUILT_START, ROOT } from '../helpers/built.js';
import { test as base } from '../helpers/fixtures.js';
import { ADMIN_TOKEN, HARNESS_TOKEN_SECRET, harness } from '../helpers/harness.js';
import { listeningPort } from '../helpers/net.js';
import { CHILD_PROCESS_TEST_MS, START_TIMEOUT_MS, untilState } from '../helpers/wait.js';

/** A port nobody listens on: bind port 0, read what the OS chose, let it go. */
interface Server {
  child: ChildProcess;
  base: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the server on a free port and waits until it says it is listening; `running` gets the child. */
async function startServer(running: ChildProcess[], dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  // Port 0: the service binds what the kernel gives it and says which (`listeningPort`).
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env };
  for (const name of ['INIT_ADMIN_API_TOKENS', 'TOKEN_SECRET', 'TOKEN_SECRET_FILE']) if (!(name in env)) delete childEnv[name];
  const child = spawn(process.execPath, [...BUILT_START], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start in ${START_TIMEOUT_MS} ms:\n${text}`)), START_TIMEOUT_MS);
    const check = () => {
      if (listeningPort(text) !== null) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        done();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => fail(new Error(`server exited with ${code}:\n${text}`)));
  });
  return {
    child,
    base: `http://127.0.0.1:${listeningPort(text)}`,
    output: () => text,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function call(server: Server, method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers['authorization'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/** `startServer(dataDir, env)` for one test: every server it started is killed after the test. */
const test = base.extend<{ startServer: (dataDir: string, env?: Record<string, string>) => Promise<Server> }>({
  startServer: async ({}, use) => {
    const running: ChildProcess[] = [];
    try {
      await use((dataDir, env) => startServer(running, dataDir, env));
    } finally {
      for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  },
});

/** Every byte stored under `dir`, to look for a secret that must not be there. */
function storedBytes(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('');
}

test('serves over a socket, keeps a flag across SIGTERM and a second start', async ({ tempDir, startServer }) => {
  const dataDir = tempDir('process');
  const token = 'process-test-admin-token-0123456789';
  const first = await startServer(dataDir, { INIT_ADMIN_API_TOKENS: token });
  expect(first.output()).not.toMatch(/created an admin API token/);

  expect(await call(first, 'GET', '/health')).toEqual({ status: 200, body: { health: 'GOOD', status: 'serving' } });
  const denied = await call(first, 'GET', '/api/admin/projects');
  expect(denied).toMatchObject({ status: 401, body: { name: 'AuthenticationRequired' } });
  expect((await call(first, 'GET', '/api/admin/projects', 'wrong')).status).toBe(401);
  const created = await call(first, 'POST', '/api/admin/projects/default/features', token, { name: 'over-the-wire', description: 'kept' });
  expect(created.status).toBe(201);
  const viaBearer = await call(first, 'GET', '/api/admin/projects/default/features/over-the-wire', `Bearer ${token}`);
  expect(viaBearer).toMatchObject({ status: 200, body: { name: 'over-the-wire', description: 'kept' } });
  expect((await call(first, 'GET', '/api/admin/nothing', token)).body.name).toBe('NotFoundError');

  expect(await first.stop()).toBe(0);
  expect(first.output()).toMatch(/SIGTERM/);
  expect(storedBytes(dataDir)).not.toContain(token);

  const second = await startServer(dataDir, { INIT_ADMIN_API_TOKENS: token });
  const again = await call(second, 'GET', '/api/admin/projects/default/features/over-the-wire', token);
  expect(again).toEqual({ status: 200, body: viaBearer.body });
  expect(await second.stop()).toBe(0);
}, CHILD_PROCESS_TEST_MS);

test('a start builds the console\'s flag tables before it listens (the first page after a restart pays nothing for them)', async ({ tempDir, startServer }) => {
  const dataDir = tempDir('prepare');
  // A data directory with a flag in it, written in this process through the real registry (the start is what this tests).
  const h = await harness({}, dataDir);
  expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'kept-over-a-restart' })).status).toBe(201);
  await h.registry.close();
  const second = await startServer(dataDir, { INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, TOKEN_SECRET: HARNESS_TOKEN_SECRET, LOG_LEVEL: 'debug' });
  const output = second.output();
  const built = output.indexOf('start: flag tables built');
  expect(built).toBeGreaterThan(-1);
  expect(built).toBeLessThan(output.indexOf('listening on'));
  expect(await second.stop()).toBe(0);
}, CHILD_PROCESS_TEST_MS);

test('standard output: one JSON line per request (the id of its X-Request-Id), whole lines only, every one there after SIGTERM', async ({ tempDir, startServer }) => {
  const token = 'process-test-admin-token-0123456789';
  const server = await startServer(tempDir('request-log'), { INIT_ADMIN_API_TOKENS: token, LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
  // Many writes' worth of lines (each ~200 bytes, gathered a few KB a write), in parallel, with a request id sent on some.
  // A lone request on a quiet server: its line shows within the logger's quarter-second flush, not at exit.
  const lone = await fetch(`${server.base}/api/admin/projects/default/features/lone`, { headers: { authorization: token, 'x-request-id': 'lone-request' } });
  await lone.text();
  // Seen while the server runs: its line does not wait for the exit's flush.
  await expect.poll(() => server.output(), untilState()).toContain('"reqId":"lone-request"');
  const ids: string[] = ['lone-request'];
  for (let round = 0; round < 20; round += 1) {
    const answers = await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const headers: Record<string, string> = { authorization: token };
      if (i % 5 === 0) headers['x-request-id'] = `sent-${round}-${i}`;
      const response = await fetch(`${server.base}/api/admin/projects/default/features/missing-${i}`, { headers });
      await response.text();
      return response.headers.get('x-request-id')!;
    }));
    ids.push(...answers);
  }
  expect(await server.stop()).toBe(0);
  const lines = server.output().split('\n').filter((line) => line.startsWith('{'));
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const requests = parsed.filter((line) => line['msg'] === 'request');
  expect(requests.map((line) => line['reqId']).sort()).toEqual([...ids].sort());
  expect(requests[0]).toMatchObject({ level: 30, service: 'flagpole', method: 'GET', route: '/api/admin/projects/:projectId/features/:featureName', status: 404 });
  // The same keys, in the same order, as pino's own line of `log.child({ route }).info({ reqId, method, status, ms }, 'request')`.
  expect(Object.keys(requests[0]!)).toEqual(['level', 'time', 'service', 'route', 'reqId', 'method', 'status', 'ms', 'msg']);
  for (const line of requests) expect(typeof line['ms'] === 'number' && typeof line['time'] === 'number').toBe(true);
  // The logger's own lines share the output with them, whole.
  expect(parsed.some((line) => String(line['msg']).startsWith('listening on'))).toBe(true);
  expect(parsed.some((line) => line['msg'] === 'SIGTERM: stopped')).toBe(true);
  expect(server.output()).not.toContain(token);
}, CHILD_PROCESS_TEST_MS);

test('a fresh directory without INIT_ADMIN_API_TOKENS prints one generated token, once', async ({ tempDir, startServer }) => {
  const dataDir = tempDir('process');
  const first = await startServer(dataDir);
  const match = /created an admin API token[^\n]*\n\s*\n\s+(\S+)/.exec(first.output());
  expect(match, first.output()).not.toBeNull();
  const token = match![1]!;
  expect((await call(first, 'GET', '/api/admin/projects', token)).status).toBe(200);
  expect((await call(first, 'POST', '/api/admin/projects/default/features', `Bearer ${token}`, { name: 'made-with-generated' })).status).toBe(201);
  expect(await first.stop()).toBe(0);
  expect(storedBytes(dataDir)).not.toContain(token);

  const second = await startServer(dataDir);
  expect(second.output()).not.toMatch(/created an admin API token/);
  expect((await call(second, 'GET', '/api/admin/projects/default/features/made-with-generated', token)).status).toBe(200);
  expect(await second.stop()).toBe(0);
}, CHILD_PROCESS_TEST_MS);

test('the token key file: created 0600 beside the data directory on first start, kept out of it and out of the output', async ({ tempDir, startServer }) => {
  const dataDir = tempDir('token-key');
  const keyFile = `${dataDir}.token-secret`;
  const first = await startServer(dataDir, { LOG_FORMAT: 'json' });
  const key = readFileSync(keyFile, 'utf8').trim();
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  expect(first.output()).toContain('created the token key file');
  const token = /created an admin API token[^\n]*\n\s*\n\s+(\S+)/.exec(first.output())![1]!;
  const dump = await fetch(`${first.base}/api/admin/state`, { headers: { authorization: token } });
  const dumped = await dump.text();
  expect(dump.status).toBe(200);
  expect(await first.stop()).toBe(0);
  for (const text of [first.output(), storedBytes(dataDir), dumped]) expect(text).not.toContain(key.slice(0, 16));
  expect(dumped).not.toContain('"hash"');

  // Found again at the next start: the generated token still works, and no new key is made.
  const second = await startServer(dataDir, { LOG_FORMAT: 'json' });
  expect(second.output()).not.toContain('created the token key file');
  expect((await call(second, 'GET', '/api/admin/projects', token)).status).toBe(200);
  expect(await second.stop()).toBe(0);
  expect(readFileSync(keyFile, 'utf8').trim()).toBe(key);
}, CHILD_PROCESS_TEST_MS);

test('a bad token key setting stops the start with a message naming the variable, not the value', async ({ tempDir }) => {
  const dataDir = tempDir('bad-key');
  const child = spawn(process.execPath, [...BUILT_START], {
    cwd: ROOT, env: { ...process.env, PORT: '0', DATA_DIR: dataDir, TOKEN_SECRET: 'guessable-password' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  expect(code).toBe(1);
  expect(text).toContain('failed to start: TOKEN_SECRET must be at least 32 characters');
  expect(text).not.toContain('guessable-password');
  // Nothing was created: neither the data directory's files nor a key file.
  expect(readdirSync(dataDir)).toEqual([]);
}, CHILD_PROCESS_TEST_MS);
