/**
 * The progress bar of `flagpole backup` (`cli-progress`), as an operator sees it: the compiled bin in a real
 * terminal (a pseudo-terminal from util-linux `script`), over a backup that takes more than a second because
 * the network is slow (a server in between sends the real service's backup a line at a time). In a pipe (logs,
 * scripts) the same backup prints no bar, only its one result line.
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
const test = harnessTest({ arrange: async (h) => { for (let i = 0; i < FLAGS; i += 1) await createFlag(h, `flag-${i}`); } });
const SCRIPT = '/usr/bin/script';

/** A server that answers `GET /api/admin/backup` with `h`'s backup, one line every `lineMs`: a slow network. */
async function slowBackup(h: Harness, lineMs: number): Promise<string> {
  const response = await h.req('GET', '/api/admin/backup');
  expect(response.status).toBe(200);
  const lines = (await response.text()).split(/(?<=\n)/);
  const server = createServer((req, res) => {
    if (req.url !== '/api/admin/backup' || req.headers.authorization !== ADMIN_TOKEN) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    let next = 0;
    const send = () => {
      if (next === lines.length) {
        res.end();
        return;
      }
      res.write(lines[next]);
      next += 1;
      setTimeout(send, lineMs);
    };
    send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs `node BIN args` in a pseudo-terminal; resolves with its exit code and what the terminal showed. */
function inTerminal(args: string[], env: Record<string, string>): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((done, fail) => {
    // -q quiet, -e the command's exit code, -f flush as it comes, -c the command; the typescript goes nowhere.
    const child = spawn(SCRIPT, ['-qefc', command, '/dev/null'], { env: { ...process.env, ...env, TERM: 'xterm', COLUMNS: '120' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { screen += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { screen += d; });
    child.once('error', fail);
    child.once('close', (code) => done({ code, screen }));
  });
}

const BAR = new RegExp(`\\d+% \\| \\d+/${FLAGS} flags \\| `);

describe.skipIf(!existsSync(SCRIPT))('flagpole backup progress', { timeout: CHILD_PROCESS_TEST_MS }, () => {
  test('a backup that takes more than a second shows a progress bar on a terminal, counting the flags', async ({ h, tempDir }) => {
    const url = await slowBackup(h, 1500 / FLAGS);
    const out = join(tempDir('progress'), 'slow.backup');
    const run = await inTerminal(['backup', '--url', url, '--out', out], { FLAGPOLE_TOKEN: ADMIN_TOKEN });
    expect(run.code, run.screen).toBe(0);
    expect(run.screen).toMatch(BAR);
    // The bar reaches the end before the result line.
    expect(run.screen).toMatch(new RegExp(`100% \\| ${FLAGS}/${FLAGS} flags`));
    expect(run.screen).toContain(`backed up 1 projects (${FLAGS} flags)`);
    expect(readFileSync(out, 'utf8')).toContain('"name":"flag-39"');
  });

  test('the same backup in a pipe prints no bar, only its result line', async ({ h, tempDir }) => {
    const url = await slowBackup(h, 1500 / FLAGS);
    const run = await flagpole(['backup', '--url', url, '--out', join(tempDir('progress-pipe'), 'slow.backup')], { env: { FLAGPOLE_TOKEN: ADMIN_TOKEN } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/%|flags \|/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`backed up 1 projects (${FLAGS} flags)`);
    expect(run.stdout).toBe('');
  });
});
