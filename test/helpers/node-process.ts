/**
 * One flagpole node as a process of its own (`flagpole start` from the built bundle), on a port
 * that stays its own across restarts, so a load balancer's address for it stays right: started, killed with
 * SIGKILL, stopped with SIGTERM and started again over the same database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_START, ROOT } from './built.js';
import { freePort } from './net.js';

/** A node that can be started, killed and started again on the same port. */
export interface NodeProcess {
  readonly name: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>`: the node itself, past the load balancer. */
  readonly base: string;
  /** `127.0.0.1:<port>`, as the load balancer names it. */
  readonly address: string;
  /** Whether the process runs. */
  readonly running: boolean;
  /** Starts the process and resolves once it listens (it has caught up with the database by then). */
  start(): Promise<void>;
  /** SIGKILL: gone at once, nothing finished. */
  kill9(): Promise<void>;
  /** SIGTERM: a clean stop; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** What every run of the process wrote to stdout and stderr. */
  output(): string;
  /** Kills the process (when it runs) and removes its directory. */
  dispose(): Promise<void>;
}

/**
 * A node named `name` with `env`: the database and the token key the nodes share, and anything else (a
 * `DATABASE_URL` through a proxy of the test's own puts that proxy between this node and the database).
 *
 * @example const node = await nodeProcess('node1', { DATABASE_URL: url, TOKEN_SECRET: key }); await node.start();
 */
export async function nodeProcess(name: string, env: Record<string, string>): Promise<NodeProcess> {
  const port = await freePort();
  // The nodes keep nothing here (the database holds it all), but DATA_DIR names a place of their own.
  const dir = mkdtempSync(join(tmpdir(), `flagpole-${name}-`));
  let child: ChildProcess | null = null;
  let text = '';
  const alive = () => child !== null && child.exitCode === null && child.signalCode === null;
  const ended = (process: ChildProcess) => new Promise<number | null>((done) => {
    if (process.exitCode !== null || process.signalCode !== null) done(process.exitCode);
    else process.once('exit', (code) => done(code));
  });
  const node: NodeProcess = {
    name, port, base: `http://127.0.0.1:${port}`, address: `127.0.0.1:${port}`,
    get running() {
      return alive();
    },
    async start() {
      if (alive()) throw new Error(`${name} runs already`);
      text += `--- ${name} starts\n`;
      const started = spawn(process.execPath, [...BUILT_START], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dir, 'data'), LOG_FORMAT: 'json', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      const mark = text.length;
      started.stdout!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      started.stderr!.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      // It listens once recovered and caught up with the database: the first answer is its readiness.
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (started.exitCode !== null || started.signalCode !== null) throw new Error(`${name} exited with ${started.exitCode ?? started.signalCode}:\n${text.slice(mark)}`);
        if (await fetch(`${node.base}/health/reads`).then((r) => r.ok, () => false)) return;
        if (Date.now() > deadline) throw new Error(`${name} did not start in time:\n${text.slice(mark)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async kill9() {
      if (!child || !alive()) return;
      const exited = ended(child);
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!child) return null;
      const exited = ended(child);
      if (alive()) child.kill('SIGTERM');
      return exited;
    },
    output: () => text,
    async dispose() {
      await node.kill9();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return node;
}
