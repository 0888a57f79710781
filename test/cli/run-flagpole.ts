/**
 * The `flagpole` command (`dist/bundle/flagpole.js`, built by test/global-setup.ts) run as its own process,
 * as an operator runs it: exit code, standard output and error; the same command run in the test's process
 * (`runFlagpole`, the function the bin runs); and the service started with `flagpole start`, or a harness's
 * app served over a socket.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { onTestFinished } from 'vitest';
import { runFlagpole } from '../../src/cli/run-flagpole.js';
import { serveHarness } from '../helpers/served-app.js';
import type { Harness } from '../helpers/harness.js';
import { BUILT_CLI, ROOT } from '../helpers/built.js';
import { killAfterTest, type OnTestFinished } from '../helpers/children.js';
import { START_TIMEOUT_MS } from '../helpers/wait.js';
import { listeningPort } from '../helpers/net.js';
import { ADMIN_TOKEN, HARNESS_TOKEN_SECRET } from '../helpers/harness.js';

export { ROOT };
export const BIN = BUILT_CLI;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a child: the test's, less the settings a test must not inherit by accident. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATA_DIR', 'INIT_ADMIN_API_TOKENS', 'TOKEN_SECRET', 'TOKEN_SECRET_FILE', 'FLAGPOLE_TOKEN', 'FLAGPOLE_URL', 'PORT', 'AUTH_TYPE']) delete base[name];
  return { ...base, ...env };
}

/**
 * Runs `flagpole args` (the compiled bin, through `node` as the `#!` line does), `input` on standard input.
 *
 * @example const r = await flagpole(['dump', '--data-dir', dir]); expect(r.code).toBe(0);
 */
export function flagpole(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string; bin?: string; finished?: OnTestFinished } = {}): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], { cwd: options.cwd ?? ROOT, env: childEnv(options.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
    killAfterTest(child, options.finished);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A stream that keeps what is written to it, as text. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({ write(chunk: Buffer, _encoding, done) { chunks.push(chunk); done(); } });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs `flagpole args` in the test's process through `runFlagpole` (src/cli/run-flagpole.ts), the function the
 * bin runs with its own argv, environment and streams: the same environment a child of {@link flagpole} gets,
 * `input` on its standard input, neither output a terminal. Each run costs no process start (~0.5 s of CPU);
 * what only a process shows (the bin's own argv and exit code, signals, its output streams) is run with
 * {@link flagpole} once per command.
 *
 * @example const r = await flagpoleInProcess(['dump', '--data-dir', dir]); expect(r.code).toBe(0);
 */
export async function flagpoleInProcess(args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<Ran> {
  const [stdout, stderr] = [collector(), collector()];
  const stdin = Readable.from(options.input ? [Buffer.from(options.input)] : []);
  const code = await runFlagpole(args, { env: childEnv(options.env ?? {}), stdin, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * `h`'s app served over a real socket as `flagpole start` serves it (`serveApp`), closed after the test: a
 * running service for the commands that talk to one (backup, migrate --to), without a process of its own.
 * Its log is `h.logs()` (give the harness `LOG_LEVEL: 'info'` to keep the request lines).
 */
export async function served(h: Harness): Promise<string> {
  const { base, close } = await serveHarness(h);
  onTestFinished(close);
  return base;
}

/** A service started with `flagpole start`, spoken to over a socket. */
export interface Started {
  child: ChildProcess;
  base: string;
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The settings every started service gets: a known admin token and token key, JSON logs. */
export const SERVICE_ENV = { INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, TOKEN_SECRET: HARNESS_TOKEN_SECRET, LOG_FORMAT: 'json' };

/**
 * Starts `flagpole start` on a free port over `dataDir` and waits until it listens. The caller stops it
 * (tests register `stop` with `onTestFinished`).
 */
export async function startFlagpole(dataDir: string, env: Record<string, string> = {}, bin = BIN, finished?: OnTestFinished): Promise<Started> {
  // Port 0: the service binds what the kernel gives it and says which (`listeningPort`).
  const child = spawn(process.execPath, [bin, 'start'], { cwd: ROOT, env: childEnv({ ...SERVICE_ENV, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  killAfterTest(child, finished);
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`flagpole start did not listen in ${START_TIMEOUT_MS} ms:\n${text}`)), START_TIMEOUT_MS);
    const poll = setInterval(() => {
      if (listeningPort(text) === null) return;
      clearInterval(poll);
      clearTimeout(timer);
      done();
    }, 20);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      fail(new Error(`flagpole start exited with ${code}:\n${text}`));
    });
  });
  return {
    child, base: `http://127.0.0.1:${listeningPort(text)}`, output: () => text,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A JSON request to a started service with the admin token (or `token`). */
export async function call(base: string, method: string, path: string, body?: unknown, token = ADMIN_TOKEN): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method, headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
