import { parseArgs } from 'node:util';

/** Everything the command line can set; see `docs/benchmark.md`. */
export interface BenchOptions {
  duration: number;
  connections: number;
  /** Largest scale size; 0 skips the scale phase. */
  flags: number;
  only: string[] | undefined;
  vs: string | undefined;
  vsToken: string | undefined;
  quick: boolean;
  /** Server entry file to start (default: the production build). */
  server: string | undefined;
  /** Another build's entry file, started beside it; each scenario runs on both at once. */
  against: string | undefined;
  /** Run the abuse phase (`/health` latency while abusive requests run). */
  abuse: boolean;
  /** Run the usage phase (admin writes while 1,000 SDK instances post metrics). */
  usage: boolean;
  /** Run the addons phase (toggles while a webhook addon's receiver answers, hangs or fails). */
  addons: boolean;
  /** Numbers of SSE clients of the streaming phase, one fresh server each; empty skips it. */
  streams: number[];
  /** Toggles timed one at a time in the streaming phase. */
  streamToggles: number;
  /** Run the console phase (the project page at --flags, the past view and the comparison), in process. */
  console: boolean;
  /** `pg`: run the PostgreSQL phase (the write scenarios on LevelDB and on an embedded PostgreSQL, side by side). */
  store: 'pg' | undefined;
  /** Nodes of the phase of several nodes on one PostgreSQL (`--nodes`); 0 skips it. */
  nodes: number;
  /** Rounds of that phase (each measures everything once). */
  nodeRounds: number;
}

/** Usage text printed by `--help` and on a bad option. */
export const USAGE = `usage: npm run bench -- [options]
  --duration S        seconds per scenario (default 10; --quick: 3)
  --connections N     concurrent connections (default 32)
  --flags N           largest scale size; 10000 and N are measured (default 100000; --quick: 10000; 0 skips scale)
  --only a,b          run only these scenarios (getFlag,listFlags,overview,clientFeatures304,clientFeatures,frontend,toggle,patchFlag,addStrategy,createFlag)
  --vs URL            also run every scenario against another server of the same API, alternating
  --vs-token T        admin token for --vs (sent as the Authorization header)
  --quick             smoke run: --duration 3 --flags 10000
  --server PATH       server entry to start (default dist/src/main.js)
  --against PATH      also start another build's entry (e.g. an older commit's dist/src/main.js) and run each
                      scenario on both at once, --connections each: the server CPU per request of the two
                      builds, measured under the same machine load (the figure to compare on a shared machine);
                      with --nodes, N nodes of that build are measured in each write-rate step of the nodes phase too
  --no-abuse          skip the abuse phase (/health latency while abusive requests run)
  --no-usage          skip the usage phase (admin writes while 1,000 SDK instances post metrics)
  --no-addons         skip the addons phase (toggles while a webhook addon's receiver answers, hangs 30 s or fails)
  --streams N[,N...]  SSE clients of the streaming phase, one fresh server per size (default 5000; --quick: 1000);
                      e.g. --streams 5000,10000,20000 also reports the largest held at p99 ≤ 1 s
  --stream-toggles N  toggles timed one at a time per size (default 20)
  --no-streams        skip the streaming phase
  --no-console        skip the console phase (the project page's first page, a search and a filter at --flags
                      flags, or 10000 when --flags is 0; the past view and the comparison on a project of 10000 flags
                      and 100000 commands), timed in process
  --store pg          also run the PostgreSQL phase: toggle, addStrategy and createFlag on a server over LevelDB
                      and one over an embedded PostgreSQL (started like the tests'), alternately, each fresh
  --nodes N           also run the phase of several nodes: N processes on one embedded PostgreSQL and one alone
                      beside them; propagation of a write to the others (admin read, SDK poll, delta, SSE), server
                      CPU per SDK poll on each node and alone, the write rate of one project from all N at once and alone
  --node-rounds R     rounds of that phase, each measuring everything once (default 2)
  --help              this text`;

/**
 * Parses the benchmark's command line; throws with a readable message on a bad value.
 *
 * @example
 * parseOptions(['--quick', '--only', 'getFlag']); // { duration: 3, flags: 10000, only: ['getFlag'], ... }
 */
export function parseOptions(argv: string[], scenarioNames: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      flags: { type: 'string' },
      only: { type: 'string' },
      vs: { type: 'string' },
      'vs-token': { type: 'string' },
      quick: { type: 'boolean', default: false },
      server: { type: 'string' },
      against: { type: 'string' },
      'no-abuse': { type: 'boolean', default: false },
      'no-usage': { type: 'boolean', default: false },
      'no-addons': { type: 'boolean', default: false },
      streams: { type: 'string' },
      'stream-toggles': { type: 'string' },
      'no-streams': { type: 'boolean', default: false },
      'no-console': { type: 'boolean', default: false },
      store: { type: 'string' },
      nodes: { type: 'string' },
      'node-rounds': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const quick = values.quick ?? false;
  const only = values.only?.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = only?.filter((name) => !scenarioNames.includes(name)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${scenarioNames.join(', ')}`);
  if (values['vs-token'] !== undefined && values.vs === undefined) throw new Error('--vs-token needs --vs');
  if (values.against !== undefined && values.vs !== undefined) throw new Error('--against and --vs each give the other side: choose one');
  if (values.store !== undefined && values.store !== 'pg') throw new Error(`--store takes "pg" (LevelDB always runs), got ${values.store}`);
  if (values.nodes === '1') throw new Error('--nodes takes 2 or more (the phase compares them with one node alone)');
  if (values['no-streams'] && values.streams !== undefined) throw new Error('--streams and --no-streams contradict each other');
  return {
    duration: integer('duration', values.duration, quick ? 3 : 10, 1),
    connections: integer('connections', values.connections, 32, 1),
    flags: integer('flags', values.flags, quick ? 10_000 : 100_000, 0),
    only,
    vs: values.vs,
    vsToken: values['vs-token'],
    quick,
    server: values.server,
    against: values.against,
    abuse: !values['no-abuse'],
    usage: !values['no-usage'],
    addons: !values['no-addons'],
    streams: values['no-streams'] ? [] : (values.streams ?? (quick ? '1000' : '5000')).split(',').map((size) => integer('streams', size.trim(), 0, 1)),
    streamToggles: integer('stream-toggles', values['stream-toggles'], 20, 1),
    console: !values['no-console'],
    store: values.store === 'pg' ? 'pg' : undefined,
    nodes: integer('nodes', values.nodes, 0, 2),
    nodeRounds: integer('node-rounds', values['node-rounds'], 2, 1),
  };
}

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${raw}`);
  return value;
}

/** Scale sizes for a largest size: 10k and the largest (just the largest when it is at most 10k). */
export function scaleSizes(largest: number): number[] {
  if (largest <= 0) return [];
  return largest <= 10_000 ? [largest] : [10_000, largest];
}
