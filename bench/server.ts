import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The production entry point that `npm run build` produces. */
export const DEFAULT_ENTRY = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));

/** Admin token the benchmark gives the server at start (format of Unleash admin tokens). */
export const BENCH_TOKEN = '*:*.bench-admin-token';

/** How to start the server: which entry file, which data directory, where its output goes. */
export interface ServerConfig {
  entry: string;
  dataDir: string;
  port: number;
  logFile: string;
  /** Extra environment for the server (the streaming phase raises `MAX_CONNECTIONS` and the stream limit). */
  env?: Record<string, string>;
  /** Open files the server may hold (`ulimit -n`, raised through a shell before the exec); default: inherited. */
  maxFiles?: number;
}

/** A running server process started by the benchmark. */
export interface RunningServer {
  pid: number;
  url: string;
  /** Milliseconds from spawning the process to the first 200 from `/health`. */
  startMs: number;
  child: ChildProcess;
}

// Servers still running, so an interrupted benchmark can stop what it started.
const live = new Set<ChildProcess>();

/** Kills (SIGKILL) every server this process started that is still running; for interrupts only. */
export function killStartedServers(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/** Asks the OS for a free loopback port (closed again at once; the server binds it right after). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts `node <entry>` as production does, configured only through its environment, and waits for
 * `/health` to answer 200. The time measured runs from just before the spawn to that first 200, so it is
 * the restart time an operator sees (process start, recovery of the data directory, listen).
 *
 * @example
 * const server = await startServer({ entry: DEFAULT_ENTRY, dataDir, port, logFile });
 * console.log(`ready after ${server.startMs} ms`);
 * await stopServer(server);
 */
export async function startServer(config: ServerConfig, timeoutMs = 180_000): Promise<RunningServer> {
  const log = openSync(config.logFile, 'a');
  const started = performance.now();
  const [command, args] = withMaxFiles(config.maxFiles, process.execPath, [config.entry]);
  const child = spawn(command, args, {
    env: {
      ...process.env,
      PORT: String(config.port),
      HOST: '127.0.0.1',
      DATA_DIR: config.dataDir,
      AUTH_TYPE: 'api-token',
      INIT_ADMIN_API_TOKENS: BENCH_TOKEN,
      ...config.env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  live.add(child);
  child.once('exit', () => live.delete(child));
  const url = `http://127.0.0.1:${config.port}`;
  try {
    await waitForHealth(url, child, timeoutMs);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n--- last lines of ${config.logFile} ---\n${tail(config.logFile)}`);
  }
  if (child.pid === undefined) throw new Error('server process has no pid');
  return { pid: child.pid, url, startMs: performance.now() - started, child };
}

/**
 * The command that runs `command args` with its open-file limit raised to `maxFiles` (or to the hard limit
 * when that is lower and the user may not raise it): a shell sets `ulimit -n` and execs, so the pid is the
 * command's own. Undefined `maxFiles`: the command as it is.
 */
export function withMaxFiles(maxFiles: number | undefined, command: string, args: string[]): [string, string[]] {
  if (maxFiles === undefined) return [command, args];
  return ['/bin/sh', ['-c', 'ulimit -n "$0" 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"', String(maxFiles), command, ...args]];
}

/** The open-file limit (soft) of a process, from /proc (Linux); undefined elsewhere. */
export async function openFileLimit(pid: number): Promise<number | undefined> {
  try {
    const limits = await readFile(`/proc/${pid}/limits`, 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    return match?.[1] === undefined ? undefined : match[1] === 'unlimited' ? Infinity : Number(match[1]);
  } catch {
    return undefined;
  }
}

/** Sends SIGTERM and waits for the process to exit; SIGKILL after `graceMs` so a hung stop cannot hang the run. */
export async function stopServer(server: RunningServer, graceMs = 30_000): Promise<number | null> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `/health` every 10 ms until it answers 200; fails if the process exits or the time runs out. */
async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited before answering /health (code ${child.exitCode}, signal ${child.signalCode})`);
    }
    if ((await healthStatus(url)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`server did not answer /health with 200 within ${timeoutMs} ms`);
}

/** Status of one GET /health, or 0 when the connection fails (not listening yet). */
function healthStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/health`, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** Resident set size of a process in bytes, from `VmRSS` in /proc (Linux); undefined elsewhere. */
export async function residentBytes(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (Linux); undefined elsewhere. */
export async function cpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** The machine's CPU time so far in seconds, busy and in all (from the first line of /proc/stat); undefined elsewhere. */
export async function machineCpu(): Promise<{ busy: number; total: number } | undefined> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    const total = ticks.reduce((sum, n) => sum + n, 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return undefined;
  }
}

/** Total size in bytes of the regular files under a directory (the data directory's footprint). */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await directoryBytes(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
