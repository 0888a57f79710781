/**
 * The progress bar of `flagpole backup` (`cli-progress`), as an operator sees it: the compiled bin in a real
 * terminal (a pseudo-terminal from util-linux `script`), over a backup that takes more than a second because
 * the network stalls (a server in between sends the first half of the real service's backup, then the rest
 * only later). In a pipe (logs, scripts) the same backup prints no bar, only its one result line.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { harnessTest } from '../helpers/fixtures.js';
import { createFlag } from '../helpers/flags.js';
import { ADMIN_TOKEN, type Harness } from '../helpers/harness.js';
import { BIN, flagpole } from './run-flagpole.js';
import { CHILD_PROCESS_TEST_MS } from '../helpers/wait.js';

const FLAGS = 40;
// One service for the file: both tests only read it (its backup).
const test = harnessTest({ scope: 'file', arrange: async (h) => { for (let i = 0; i < FLAGS; i += 1) await createFlag(h, `flag-${i}`); } });
const SCRIPT = '/usr/bin/script';

/**
 * A server that answers `GET /api/admin/backup` with the first half of `h`'s backup, and the rest once the
 * promise `release` gives (asked when the request comes) resolves: a stalled network.
 */
async function stalledBackup(h: Harness, release: () => Promise<void>): Promise<string> {
  const response = await h.req('GET', '/api/admin/backup');
  expect(response.status).toBe(200);
  const lines = (await response.text()).split(/(?<=\n)/);
  const server = createServer((req, res) => {
    if (req.url !== '/api/admin/backup' || req.headers.authorization !== ADMIN_TOKEN) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const half = lines.length >> 1;
    res.write(lines.slice(0, half).join(''));
    void release().then(() => res.end(lines.slice(half).join('')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs `node BIN args` in a pseudo-terminal; resolves with its exit code and what the terminal showed, told to `watch` as it comes. */
function inTerminal(args: string[], env: Record<string, string>, watch: (screen: string) => void): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((done, fail) => {
    // -q quiet, -e the command's exit code, -f flush as it comes, -c the command; the typescript goes nowhere.
    const child = spawn(SCRIPT, ['-qefc', command, '/dev/null'], { env: { ...process.env, ...env, TERM: 'xterm', COLUMNS: '120' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let screen = '';
    const read = (d: string) => {
      screen += d;
      watch(screen);
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.once('error', fail);
    child.once('close', (code) => done({ code, screen }));
  });
}

const BAR = new RegExp(`\\d+% \\| \\d+/${FLAGS} flags \\| `);

describe.skipIf(!existsSync(SCRIPT))('flagpole backup progress', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  test('a backup that takes more than a second shows a progress bar on a terminal, counting the flags', async ({ h, tempDir }) => {
    // The rest of the backup is sent once the terminal shows the bar, part way.
    let barShown = () => {};
    const shown = new Promise<void>((resolve) => { barShown = resolve; });
    const url = await stalledBackup(h, () => shown);
    const out = join(tempDir('progress'), 'slow.backup');
    const run = await inTerminal(['backup', '--url', url, '--out', out], { FLAGPOLE_TOKEN: ADMIN_TOKEN }, (screen) => {
      if (BAR.test(screen)) barShown();
    });
    expect(run.code, run.screen).toBe(0);
    // It counted: the bar showed part of the flags before all of them.
    const counts = [...run.screen.matchAll(new RegExp(`(\\d+)/${FLAGS} flags \\| `, 'g'))].map((m) => Number(m[1]));
    expect(counts.some((n) => n < FLAGS), run.screen).toBe(true);
    // The bar reaches the end before the result line.
    expect(run.screen).toMatch(new RegExp(`100% \\| ${FLAGS}/${FLAGS} flags`));
    expect(run.screen).toContain(`backed up 1 projects (${FLAGS} flags)`);
    expect(readFileSync(out, 'utf8')).toContain('"name":"flag-39"');
  });

  test('the same backup in a pipe prints no bar, only its result line', async ({ h, tempDir }) => {
    // No state shows that a bar was not drawn: the backup stalls past the bar's one-second delay instead.
    const url = await stalledBackup(h, () => new Promise((resolve) => setTimeout(resolve, 1500)));
    const run = await flagpole(['backup', '--url', url, '--out', join(tempDir('progress-pipe'), 'slow.backup')], { env: { FLAGPOLE_TOKEN: ADMIN_TOKEN } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/%|flags \|/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`backed up 1 projects (${FLAGS} flags)`);
    expect(run.stdout).toBe('');
  });
});
