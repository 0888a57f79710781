/**
 * The `flagpole` command (`dist/bundle/flagpole.js`, built by test/global-setup.ts) run as its own process,
 * as an operator runs it: exit code, standard output and error; and the service started with `flagpole start`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BUILT_CLI, ROOT } from '../helpers/built.js';
import { killAfterTest } from '../helpers/children.js';
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
export function flagpole(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string; bin?: string } = {}): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], { cwd: options.cwd ?? ROOT, env: childEnv(options.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
    killAfterTest(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
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
export async function startFlagpole(dataDir: string, env: Record<string, string> = {}, bin = BIN): Promise<Started> {
  // Port 0: the service binds what the kernel gives it and says which (`listeningPort`).
  const child = spawn(process.execPath, [bin, 'start'], { cwd: ROOT, env: childEnv({ ...SERVICE_ENV, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  killAfterTest(child);
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
