import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_MAIN, ROOT } from './built.js';
import { freePort } from './net.js';

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
 * Starts the service (`src/main.ts` as built, see `built.ts`) on a free port over a fresh data directory and
 * waits until it listens.
 *
 * @example const s = await startServer({ INIT_ADMIN_API_TOKENS: '*:*.t' }); await fetch(`${s.base}/health`); await s.kill();
 */
export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'flagpole-proc-'));
  const child = spawn(process.execPath, [BUILT_MAIN], {
    cwd: ROOT, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_FORMAT: 'json', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start in time:\n${text}`)), 20_000);
    const poll = setInterval(() => {
      if (!text.includes('listening on')) return;
      clearInterval(poll);
      clearTimeout(timer);
      done();
    }, 20);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${text}`));
    });
  });
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
