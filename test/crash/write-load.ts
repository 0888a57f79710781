/**
 * Write load against the real server as a child process, and the check that follows a crash or an outage:
 * workers write their own flags one request at a time, so the last acknowledged value of each is known;
 * `verify` checks the server against what was acknowledged, allowing the one write per worker whose answer
 * never came (or came as a 503 that says it may have been recorded). Used by kill9.test.ts and
 * postgres-restart.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { BUILT_START, ROOT } from '../helpers/built.js';
import { killAfterTest } from '../helpers/children.js';
import { listeningPort } from '../helpers/net.js';

export const TOKEN = '*:*.crash-test-admin-token';
const WORKERS_PER_PROJECT = 8;
export const PROJECTS = ['default', 'crash'];
const ENVIRONMENT = 'development';

export interface Server {
  child: ChildProcess;
  url: string;
  output: string[];
}

/**
 * Starts the service (`flagpole start` from the built bundle) over `dataDir` (or the database `env` names) in its own node
 * process and waits until it says it listens; the child is killed after the test even when the test failed.
 */
export async function start(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(process.execPath, [...BUILT_START], {
    cwd: ROOT,
    // Port 0: the service binds whatever the kernel gives it and says which (a port chosen before the start was
    // taken by another process at load 8, and a restart failed with EADDRINUSE).
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, INIT_ADMIN_API_TOKENS: TOKEN, SNAPSHOT_EVERY: '20', LOG_RETENTION: '10', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killAfterTest(child);
  const output: string[] = [];
  const listening = new Promise<boolean>((resolve) => {
    const read = (d: string) => {
      output.push(d);
      if (listeningPort(output.join('')) !== null) resolve(true);
    };
    child.stdout!.setEncoding('utf8').on('data', read);
    child.stderr!.setEncoding('utf8').on('data', read);
    child.once('exit', () => resolve(false));
  });
  if (!(await listening)) throw new Error(`server exited with ${child.exitCode}:\n${output.join('')}`);
  return { child, url: `http://127.0.0.1:${listeningPort(output.join(''))}`, output };
}

export async function kill(server: Server, signal: NodeJS.Signals): Promise<number | null> {
  const child = server.child;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  return exited;
}

export const call = (server: Server, method: string, path: string, body?: unknown) => fetch(`${server.url}${path}`, {
  method,
  headers: { authorization: TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/** What the test knows of one flag: only acknowledged writes, plus the one write whose answer never came. */
interface Known {
  strategies: Set<string>;
  enabled: boolean;
}
type Op = { kind: 'create' | 'strategy' | 'on' | 'off'; flag: string };

export interface Worker {
  project: string;
  prefix: string;
  flags: Map<string, Known>;
  /** The write in flight when the server died: it may or may not have happened. */
  uncertain: Op | null;
  counter: number;
}

/** The workers of one run, each with nothing acknowledged yet. */
export const newWorkers = (): Worker[] => PROJECTS.flatMap((project) => Array.from({ length: WORKERS_PER_PROJECT }, (_, i) => ({
  project, prefix: `w${i}-`, flags: new Map<string, Known>(), uncertain: null, counter: 0,
})));

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;

function nextOp(w: Worker): Op {
  const names = [...w.flags.keys()];
  if (names.length === 0 || Math.random() < 0.25) return { kind: 'create', flag: `${w.prefix}${w.counter++}` };
  return { kind: pick(['strategy', 'strategy', 'on', 'off'] as const), flag: pick(names) };
}

/** What the workers were answered: writes acknowledged, 503s that recorded nothing, and 503s that may have. */
export interface Tally {
  acked: number;
  unavailable: number;
  uncertain: number;
}

/** Tells the workers to stop; `onAck` is called after each acknowledged write (a test counts them to pick its moment). */
export interface Stop {
  now: boolean;
  onAck?: () => void;
}

/**
 * One worker: its own flags, one write at a time, so the last acknowledged value of each is known. A 503
 * that recorded nothing is answered by a short pause and the next write; a 503 that says the write may have
 * been recorded (or no answer at all) ends the worker's run, that write left uncertain.
 */
export async function drive(server: Server, w: Worker, stop: Stop, tally: Tally = { acked: 0, unavailable: 0, uncertain: 0 }): Promise<number> {
  let acked = 0;
  const base = `/api/admin/projects/${w.project}/features`;
  while (!stop.now) {
    const op = nextOp(w);
    w.uncertain = op;
    let response: Response;
    try {
      if (op.kind === 'create') response = await call(server, 'POST', base, { name: op.flag });
      else if (op.kind === 'strategy') response = await call(server, 'POST', `${base}/${op.flag}/environments/${ENVIRONMENT}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '30' } });
      else response = await call(server, 'POST', `${base}/${op.flag}/environments/${ENVIRONMENT}/${op.kind}`);
    } catch {
      return acked; // the server is gone; op stays uncertain
    }
    const body = await response.text().catch(() => null);
    if (body === null) return acked;
    if (response.status === 503 && body.includes('StorageUnavailable')) {
      if (body.includes('may or may not have been recorded')) {
        tally.uncertain += 1;
        return acked;
      }
      tally.unavailable += 1;
      w.uncertain = null;
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    w.uncertain = null;
    if (!response.ok) {
      // 409 (/on without a strategy) is a definite answer: nothing changed. Anything else is a test failure.
      expect([op, response.status, body]).toEqual([op, 409, expect.stringContaining('InvalidOperationError')]);
      continue;
    }
    acked += 1;
    tally.acked += 1;
    stop.onAck?.();
    if (op.kind === 'create') w.flags.set(op.flag, { strategies: new Set(), enabled: false });
    else if (op.kind === 'strategy') w.flags.get(op.flag)!.strategies.add((JSON.parse(body) as { id: string }).id);
    else w.flags.get(op.flag)!.enabled = op.kind === 'on';
  }
  return acked;
}

interface StoredFlag {
  name: string;
  environments: Record<string, { enabled: boolean; strategies: { id: string; disabled: boolean }[] }>;
}

/** Checks the restarted server against what was acknowledged, then adopts what it holds for the uncertain writes. */
export async function verify(server: Server, workers: Worker[]): Promise<void> {
  for (const project of PROJECTS) {
    const response = await call(server, 'GET', `/api/admin/state?project=${project}`);
    expect(response.status).toBe(200);
    const dump = (await response.json()) as { projects: { meta: { environments: string[] }; flags: StoredFlag[] }[] };
    const stored = dump.projects[0]!;
    const names = stored.flags.map((f) => f.name);
    expect(new Set(names).size, 'flag names are unique').toBe(names.length);
    for (const flag of stored.flags) {
      expect(Object.keys(flag.environments).sort()).toEqual([...stored.meta.environments].sort());
      for (const [env, entry] of Object.entries(flag.environments)) {
        if (entry.enabled) expect(entry.strategies.some((s) => !s.disabled), `${project}/${flag.name}/${env}: enabled implies an enabled strategy`).toBe(true);
      }
    }
    const byName = new Map(stored.flags.map((f) => [f.name, f]));
    for (const w of workers.filter((x) => x.project === project)) {
      const u = w.uncertain;
      for (const [name, known] of w.flags) {
        const flag = byName.get(name);
        expect(flag, `acknowledged flag ${project}/${name}`).toBeDefined();
        const entry = flag!.environments[ENVIRONMENT]!;
        const ids = new Set(entry.strategies.map((s) => s.id));
        for (const id of known.strategies) expect(ids.has(id), `acknowledged strategy ${id} of ${name}`).toBe(true);
        const mayHaveOneMore = u?.kind === 'strategy' && u.flag === name;
        expect(mayHaveOneMore ? [0, 1] : [0], `strategies of ${name} nobody acknowledged`).toContain(ids.size - known.strategies.size);
        const toggled = u && (u.kind === 'on' || u.kind === 'off') && u.flag === name ? [known.enabled, u.kind === 'on'] : [known.enabled];
        expect(toggled, `enabled of ${name}`).toContain(entry.enabled);
        known.enabled = entry.enabled;
        known.strategies = ids;
      }
      const own = stored.flags.filter((f) => f.name.startsWith(w.prefix)).map((f) => f.name);
      const unknown = own.filter((name) => !w.flags.has(name));
      expect(unknown, `flags of ${project}/${w.prefix} nobody acknowledged`).toEqual(u?.kind === 'create' && unknown.length > 0 ? [u.flag] : []);
      for (const name of unknown) {
        const entry = byName.get(name)!.environments[ENVIRONMENT]!;
        w.flags.set(name, { strategies: new Set(entry.strategies.map((s) => s.id)), enabled: entry.enabled });
      }
      w.uncertain = null;
    }
  }
}

