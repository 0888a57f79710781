import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_START, ROOT } from './built.js';
import { killAfterTest } from './children.js';
import { listeningPort } from './net.js';
import { START_TIMEOUT_MS } from './wait.js';

/** The real service as its own process, spoken to over a socket. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  dataDir: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Kills the process and removes its data directory (and the token key file beside it). */
  kill(): Promise<void>;
}

/**
 * Starts the service (`flagpole start` from the built bundle, see `built.ts`) on a free port over a fresh data directory and
 * waits until it listens.
 *
 * @example const s = await startServer({ INIT_ADMIN_API_TOKENS: '*:*.t' }); await fetch(`${s.base}/health`); await s.kill();
 */
export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flagpole-proc-'));
  // Port 0 unless the test names one: the service binds what the kernel gives it and says which (`listeningPort`).
  const child = spawn(process.execPath, [...BUILT_START], {
    cwd: ROOT, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_FORMAT: 'json', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  killAfterTest(child);
  let text = '';
  // It listens once it says so (a start that fails exits instead); the timer only names a start that hangs.
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`server did not start in ${START_TIMEOUT_MS} ms:\n${text}`));
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      if (listeningPort(text) === null) return;
      clearTimeout(timer);
      done();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${text}`));
    });
  });
  const port = listeningPort(text)!;
  return {
    child, port, base: `http://127.0.0.1:${port}`, dataDir, output: () => text,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      // The token key file the service created beside it.
      rmSync(`${dataDir}.token-secret`, { force: true });
    },
  };
}
