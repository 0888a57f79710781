/**
 * A real HAProxy (Debian's `haproxy`, installed by `.ci/run`) in front of flagpole nodes, running the very
 * configuration docs/operations.md shows (`deploy/haproxy.cfg`), with its addresses from the environment.
 * A missing haproxy fails the suite with a message that says so: it never passes without one.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from './built.js';
import { freePort } from './net.js';

/** The configuration file the operator's manual shows. */
export const HAPROXY_CONFIG = resolve(ROOT, 'deploy/haproxy.cfg');

/** The path of the `haproxy` binary, or an error saying it is missing and how CI installs it. */
export function haproxyBinary(): string {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // Not here: the next place.
    }
  }
  throw new Error('HAProxy is not installed, and the end-to-end suite of several nodes needs it as its load balancer: '
    + 'install Debian\'s haproxy (`apt-get install -y haproxy`; .ci/run does). The suite fails rather than pass without it.');
}

/** A running HAProxy. */
export interface LoadBalancer {
  /** Where clients connect: `http://127.0.0.1:<port>`. */
  base: string;
  /** Runs a command on the runtime API (`show stat`, `set server flagpole/node1 state drain`). */
  command(line: string): Promise<string>;
  /** The servers' states (`UP`, `DOWN`, `MAINT`, `DRAIN`, `UP 1/2`...) by `backend/server` (`flagpole/node1`). */
  servers(): Promise<Map<string, string>>;
  output(): string;
  stop(): Promise<void>;
}

/** Starts HAProxy on a free port in front of `nodes` (three `host:port`), and waits for its runtime API. */
export async function startHaproxy(nodes: readonly string[]): Promise<LoadBalancer> {
  const binary = haproxyBinary();
  if (nodes.length !== 3) throw new Error(`deploy/haproxy.cfg names three nodes, got ${nodes.length}`);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-lb-'));
  const socket = join(dir, 'admin.sock');
  const child: ChildProcess = spawn(binary, ['-db', '-f', HAPROXY_CONFIG], {
    env: {
      ...process.env, FLAGPOLE_LB_BIND: `127.0.0.1:${port}`, FLAGPOLE_LB_SOCKET: socket,
      FLAGPOLE_NODE_1: nodes[0], FLAGPOLE_NODE_2: nodes[1], FLAGPOLE_NODE_3: nodes[2],
      // Checks four times as often as the file's 1 s: the tests wait on HAProxy seeing a node down or back (two
      // checks each) a dozen times, under writers all the while.
      FLAGPOLE_LB_CHECK_INTERVAL: '250ms',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  const command = (line: string) => runtimeCommand(socket, line);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${text}`);
    if (await command('show info').then(() => true, () => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`haproxy did not open its runtime API in time:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    base: `http://127.0.0.1:${port}`,
    command,
    async servers() {
      return serversOf(await command('show stat'));
    },
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sends one line to the runtime API on `socket` and answers what HAProxy wrote back. */
function runtimeCommand(socket: string, line: string): Promise<string> {
  return new Promise((done, fail) => {
    const connection = createConnection(socket);
    let answer = '';
    connection.setEncoding('utf8');
    connection.on('connect', () => connection.end(`${line}\n`));
    connection.on('data', (chunk: string) => { answer += chunk; });
    connection.on('error', fail);
    connection.on('close', () => done(answer));
  });
}

/** `show stat` (CSV, first line `# pxname,svname,...,status,...`) as `backend/server` → status. */
function serversOf(csv: string): Map<string, string> {
  const [head, ...rows] = csv.trim().split('\n');
  const columns = head!.replace(/^# /, '').split(',');
  const status = columns.indexOf('status');
  const servers = new Map<string, string>();
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[1] === 'FRONTEND' || cells[1] === 'BACKEND') continue;
    servers.set(`${cells[0]}/${cells[1]}`, cells[status]!);
  }
  return servers;
}
