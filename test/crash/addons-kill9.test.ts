import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { BUILT_START, ROOT } from '../helpers/built.js';
import { freePort } from '../helpers/net.js';
import { receiver, type Receiver } from '../helpers/receiver.js';
import { CHILD_PROCESS_TEST_MS, START_TIMEOUT_MS, untilState } from '../helpers/wait.js';

/**
 * The real server, killed with SIGKILL while an addon's receiver is failing and events are pending, then started
 * again on the same data directory with the receiver back: every event acknowledged before the kill reaches the
 * receiver (at least once), from the addon's durable position, not from anything held in memory.
 */

const TOKEN = '*:*.addons-crash-admin-token';

interface Server {
  child: ChildProcess;
  url: string;
  output: string[];
}

const dirs: string[] = [];
const children: ChildProcess[] = [];
let hook: Receiver | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await hook?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...BUILT_START], {
    cwd: ROOT,
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, INIT_ADMIN_API_TOKENS: TOKEN, LOG_LEVEL: 'warn',
      UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', ADDON_RETRY_FIRST_MS: '20', ADDON_RETRY_MAX_MS: '100',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => output.push(d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => output.push(d));
  const url = `http://127.0.0.1:${port}`;
  await expect.poll(async () => {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output.join('')}`);
    return fetch(`${url}/health`).then((r) => r.ok, () => false);
  }, { timeout: START_TIMEOUT_MS, interval: 50 }).toBe(true);
  return { child, url, output };
}

const call = (server: Server, method: string, path: string, body?: unknown) => fetch(`${server.url}${path}`, {
  method,
  headers: { authorization: TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

test('events pending for a failing receiver survive a kill -9 and are all delivered after the restart', async () => {
  let up = false;
  hook = await receiver(() => ({ status: up ? 200 : 503 }));
  const dataDir = join(mkdtempSync(join(tmpdir(), 'flagpole-addons-crash-')), 'data');
  dirs.push(join(dataDir, '..'));
  const first = await start(dataDir);
  expect((await call(first, 'POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: `${hook.url}/hook` }, events: ['feature-created', 'feature-environment-enabled'] })).status).toBe(201);
  const acknowledged: string[] = [];
  for (let i = 0; i < 12; i += 1) {
    const name = `k${i}`;
    const created = await call(first, 'POST', '/api/admin/projects/default/features', { name });
    expect(created.status).toBe(201);
    acknowledged.push(name);
  }
  // The receiver has refused some attempts already: the events are pending, not delivered.
  await expect.poll(() => hook!.received.length, untilState()).toBeGreaterThan(2);
  const exited = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL');
  await exited;

  up = true;
  const second = await start(dataDir);
  const delivered = () => [...new Set(hook!.received.map((x) => (x.json as { featureName: string }).featureName))];
  await expect.poll(delivered, untilState()).toEqual(acknowledged);
  // Each event keeps its id across the restart: a receiver can drop the duplicates at-least-once brings.
  const ids = new Map<string, Set<number>>();
  for (const x of hook.received) {
    const e = x.json as { featureName: string; id: number };
    ids.set(e.featureName, (ids.get(e.featureName) ?? new Set()).add(e.id));
  }
  expect([...ids.values()].every((set) => set.size === 1)).toBe(true);
  second.child.kill('SIGTERM');
  await new Promise((resolve) => second.child.once('exit', resolve));
}, CHILD_PROCESS_TEST_MS); // two starts of the service as a child process
