/**
 * The streaming phase: for each size, a fresh server with that many SSE clients (`GET /api/client/streaming`)
 * connected to one environment, held by separate load processes (bench/stream-clients.ts) so the clients
 * never share the server's event loop; they run at the lowest priority, standing for SDKs on other machines.
 * Measured, in this order:
 *
 * 1. the admin toggle rate and p99 with no stream connected (autocannon, the `toggle` scenario's requests);
 * 2. the server's resident memory and V8 heap before and after the clients connect, per client;
 * 3. `toggles` toggles, one at a time through the admin API: from its 200 to the LAST client's event carrying
 *    that flag, and every client's; the events never received and the streams dropped;
 * 4. the same admin toggle load with the streams connected, and the streams left open; at 5,000 streams, four more
 *    rounds of step 1 (streams closed) and step 4 (streams opened again): the p99 ratio is the median with the
 *    streams over the median without, and the median of the rounds' own ratios, since one run's p99 moves by a
 *    quarter on a shared machine;
 * 5. after the streams are gone, delta polling (`GET /api/client/delta`) by SDKs 1 to 5 changes behind: every
 *    answer checked to be events, not a hydration, then req/s; and, for contrast, hydrations (no revision).
 *
 * The largest size whose p99 (last client) stays ≤ 1 s with nothing dropped is reported at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { call, callOk, flagPath, inParallel, projectPath, targetFromUrl, type Target } from './client.js';
import { median, percentile, runLoad, type AutocannonRequest, type LoadResult } from './load.js';
import type { ScaleRow } from './scale.js';
import { SCENARIOS, SEED_CONCURRENCY } from './scenarios.js';
import { BENCH_TOKEN, cpuSeconds, freePort, machineCpu, openFileLimit, residentBytes, startServer, stopServer, withMaxFiles } from './server.js';
import { now, type LoaderReply, type LoaderRequest } from './stream-clients.js';

export interface StreamOptions {
  entry: string;
  workDir: string;
  /** Numbers of SSE clients, each measured on its own fresh server. */
  sizes: number[];
  /** Toggles timed one at a time (at least 20 for the issue's figure). */
  toggles: number;
  /** Seconds of each admin write load (without and with the streams), and of each delta polling load. */
  duration: number;
  connections: number;
}

const PROJECT = 'default';
const ENVIRONMENT = 'development';
/** Flags in the streamed environment besides the timed ones: each client's hydration carries them all. */
const FILLER_FLAGS = 50;
const STRATEGY = { name: 'flexibleRollout', parameters: { rollout: '50' } };
/** Clients one load process holds at most (its sockets, and one core's share of reading them). */
const CLIENTS_PER_LOADER = 10_000;
/** Streams being opened at once per load process (beyond the server's accept backlog, SYNs are retried after 1 s). */
const CONNECT_CONCURRENCY = 256;
/** Source addresses of the clients, so ephemeral ports (about 28,000 per address pair) are never short. */
const SOURCE_ADDRESSES = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
/** How long a toggle's event may take to reach every client before the missing ones are counted. */
const EVENT_TIMEOUT_MS = 15_000;
const SETTLE_MS = 3_000;
/** Target of the largest size held: the last client's event p99 at most this. */
const HELD_P99_MS = 1_000;
/** Scheduling priority of the stream load processes (19: the lowest). */
const LOADER_NICENESS = 19;
/** Rounds of the write load without and with the streams at the judged size (5,000): the medians' ratio and the rounds' median ratio are judged. */
const WRITE_LOAD_ROUNDS = 5;
const LOADER_FILE = fileURLToPath(new URL('./stream-clients.ts', import.meta.url));

const log = (message: string): void => void process.stderr.write(`${message}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

/** A load process and a way to wait for its next answer of a kind. */
class Loader {
  private readonly waiting: { type: LoaderReply['type']; resolve: (reply: LoaderReply) => void }[] = [];

  constructor(readonly child: ChildProcess) {
    child.on('message', (reply: LoaderReply) => {
      const index = this.waiting.findIndex((w) => w.type === reply.type);
      if (index >= 0) this.waiting.splice(index, 1)[0]?.resolve(reply);
    });
  }

  /** Starts a load process allowed `maxFiles` open files; it speaks over the IPC channel. */
  static start(maxFiles: number): Loader {
    const [command, args] = withMaxFiles(maxFiles, process.execPath, [...process.execArgv, LOADER_FILE]);
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // The clients stand for SDKs on other machines: at the lowest priority they read with the CPU the server,
    // the admin write load and its generator leave over, instead of taking a share of the two cores from them.
    if (child.pid !== undefined) setPriority(child.pid, LOADER_NICENESS);
    return new Loader(child);
  }

  /** The next answer of a kind (register before sending what causes it). */
  next<T extends LoaderReply['type']>(type: T): Promise<Extract<LoaderReply, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`stream load process exited (code ${code}) before answering ${type}`));
      this.child.once('exit', onExit);
      this.waiting.push({ type, resolve: (reply) => {
        this.child.off('exit', onExit);
        resolve(reply as Extract<LoaderReply, { type: T }>);
      } });
    });
  }

  send(request: LoaderRequest): void {
    this.child.send(request);
  }

  ask<T extends LoaderReply['type']>(request: LoaderRequest, answer: T): Promise<Extract<LoaderReply, { type: T }>> {
    const reply = this.next(answer);
    this.send(request);
    return reply;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'exit' } satisfies LoaderRequest);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** The server's V8 heap in use, from its Prometheus metrics. */
async function heapUsed(target: Target): Promise<number | undefined> {
  const reply = await call(target, 'GET', '/internal-backstage/prometheus');
  const match = /^flagpole_nodejs_heap_size_used_bytes\s+([\d.e+]+)/m.exec(reply.text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The server's histogram of commit → last stream write: its count, sum (seconds) and cumulative buckets. */
interface DeliveryHistogram {
  count: number;
  sum: number;
  buckets: [number, number][];
}

async function deliveryHistogram(target: Target): Promise<DeliveryHistogram | undefined> {
  const reply = await call(target, 'GET', '/internal-backstage/prometheus');
  const count = /^flagpole_streaming_delivery_seconds_count\s+([\d.e+-]+)/m.exec(reply.text)?.[1];
  const sum = /^flagpole_streaming_delivery_seconds_sum\s+([\d.e+-]+)/m.exec(reply.text)?.[1];
  if (count === undefined || sum === undefined) return undefined;
  const buckets = [...reply.text.matchAll(/^flagpole_streaming_delivery_seconds_bucket\{le="([\d.e+-]+)"\}\s+([\d.e+-]+)/gm)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);
  return { count: Number(count), sum: Number(sum), buckets };
}

/** Fan-outs between two scrapes: their number, mean, and the bucket bounds holding half and 99% of them. */
function describeDelivery(before: DeliveryHistogram | undefined, after: DeliveryHistogram | undefined): string {
  if (!before || !after) return 'n/a (no flagpole_streaming_delivery_seconds)';
  const n = after.count - before.count;
  if (n <= 0) return 'no fan-out observed';
  const within = (share: number): string => {
    for (const [le, total] of after.buckets) {
      const earlier = before.buckets.find(([l]) => l === le)?.[1] ?? 0;
      if (total - earlier >= share * n) return `≤ ${f1(le * 1000)} ms`;
    }
    return `> ${f1((after.buckets.at(-1)?.[0] ?? NaN) * 1000)} ms`;
  };
  return `${n} fan-outs, mean ${f1(((after.sum - before.sum) / n) * 1000)} ms; half ${within(0.5)}, 99% ${within(0.99)}`;
}

/** The revision an answer of the delta API stands at (its `ETag`), and the answer. */
async function delta(target: Target, token: string, presented?: number): Promise<{ status: number; revision: number; types: string[] }> {
  const headers: Record<string, string> = { authorization: token, 'unleash-client-spec': '5.1.0' };
  if (presented !== undefined) headers['if-none-match'] = `"${presented}"`;
  const response = await fetch(`${target.origin}${target.prefix}/api/client/delta`, { headers });
  const text = await response.text();
  const revision = Number(/^"?(\d+)"?$/.exec(response.headers.get('etag') ?? '')?.[1] ?? NaN);
  const types = response.status === 200 ? (JSON.parse(text) as { events: { type: string }[] }).events.map((e) => e.type) : [];
  return { status: response.status, revision, types };
}

/** The `toggle` scenario's requests over the given flags (on/off round-robin), for the write load. */
async function toggleRequests(target: Target, flags: string[], clientToken: string): Promise<AutocannonRequest[]> {
  const toggle = SCENARIOS.find((s) => s.name === 'toggle');
  if (!toggle) throw new Error('the toggle scenario is missing');
  return toggle.build(target, { runId: 'streams', duration: 0, warmup: 0, hotFlags: flags, clientToken });
}

/**
 * Runs `work` and returns what it returned with the CPU share (% of one core) each of `pids` used meanwhile,
 * and how busy the whole machine was (% of all its cores): on a shared machine, a low share with a busy machine
 * means the process was starved, not idle.
 */
async function withCpu<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; cpu: (number | undefined)[]; machine: number | undefined }> {
  const before = await Promise.all(pids.map(cpuSeconds));
  const machineBefore = await machineCpu();
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const after = await Promise.all(pids.map(cpuSeconds));
  const machineAfter = await machineCpu();
  const machine = machineBefore && machineAfter ? (100 * (machineAfter.busy - machineBefore.busy)) / (machineAfter.total - machineBefore.total) : undefined;
  return { result, machine, cpu: pids.map((_, i) => (before[i] === undefined || after[i] === undefined ? undefined : (100 * ((after[i] as number) - (before[i] as number))) / seconds)) };
}

const percent = (value: number | undefined): string => (value === undefined ? 'n/a' : `${Math.round(value)}%`);
/** Server CPU milliseconds per answered request, from its CPU share during a load and the load's rate. */
const cpuPerRequest = (share: number | undefined, r: LoadResult): string =>
  share === undefined || r.rps === 0 ? 'n/a' : `${((share / 100) * 1000 / r.rps).toFixed(2)} ms`;

/** The middle value (rounds are odd in number). */

/** Opens `size` streams through new load processes (added to `loaders`); what they reported. */
async function connectStreams(loaders: Loader[], size: number, url: URL, token: string) {
  const loaderCount = Math.max(1, Math.ceil(size / CLIENTS_PER_LOADER));
  const started = Array.from({ length: loaderCount }, () => Loader.start(Math.ceil(size / loaderCount) + 1_024));
  loaders.push(...started);
  const connected = await Promise.all(started.map((loader, i) => loader.ask({
    type: 'connect', host: url.hostname, port: Number(url.port), token,
    count: Math.floor(size / loaderCount) + (i < size % loaderCount ? 1 : 0), sourceAddresses: SOURCE_ADDRESSES, concurrency: CONNECT_CONCURRENCY,
  }, 'connected')));
  const statuses: Record<string, number> = {};
  const errors: Record<string, number> = {};
  for (const c of connected) {
    for (const [k, n] of Object.entries(c.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
    for (const [k, n] of Object.entries(c.errors)) errors[k] = (errors[k] ?? 0) + n;
  }
  return { loaderCount, statuses, errors, open: connected.reduce((sum, c) => sum + c.open, 0), connectMs: Math.max(...connected.map((c) => c.ms)) };
}

const loadSummary = (r: LoadResult): string =>
  `${Math.round(r.rps)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, non-2xx ${r.failures}`;

/** Runs the phase for every size; the rows of the report's streaming table. */
export async function runStreams(options: StreamOptions): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  const held: number[] = [];
  for (const size of options.sizes) {
    const result = await runSize(options, size);
    rows.push(...result.rows);
    if (result.held) held.push(size);
  }
  if (options.sizes.length > 1 || options.sizes.some((size) => size > 5_000)) {
    rows.push({
      measure: `largest number of clients held at p99 ≤ ${HELD_P99_MS} ms, none dropped (tried ${options.sizes.join(', ')})`,
      value: held.length > 0 ? Math.max(...held).toLocaleString('en-US') : 'none of those tried',
      goal: 'try 10,000 and 20,000',
      met: undefined,
    });
  }
  return rows;
}

async function runSize(options: StreamOptions, size: number): Promise<{ rows: ScaleRow[]; held: boolean }> {
  const dataDir = join(options.workDir, `streams-${size}-data`);
  await mkdir(dataDir, { recursive: true });
  const server = await startServer({
    entry: options.entry, dataDir, port: await freePort(), logFile: join(options.workDir, `streams-${size}-server.log`),
    env: { MAX_CONNECTIONS: String(size + 2_000), CLIENT_STREAMING_MAX_CONNECTIONS: String(size + 100), LOG_LEVEL: 'warn' },
    maxFiles: size + 8_192,
  });
  const loaders: Loader[] = [];
  const rows: ScaleRow[] = [];
  const at = `${size.toLocaleString('en-US')} streams`;
  const judged = size === 5_000;
  try {
    const target = targetFromUrl('flagpole', server.url, BENCH_TOKEN);
    const url = new URL(server.url);
    const runId = `s${Date.now().toString(36)}`;
    const filler = Array.from({ length: FILLER_FLAGS }, (_, i) => `${runId}-f-${i}`);
    const timed = Array.from({ length: options.toggles + 5 }, (_, i) => `${runId}-t-${i}`);
    // 1. Flags with a strategy in the streamed environment (so `/on` succeeds), all off; a client token.
    await inParallel(filler.length + timed.length, SEED_CONCURRENCY, async (i) => {
      const name = (i < filler.length ? filler[i] : timed[i - filler.length]) as string;
      await callOk(target, 'POST', projectPath(PROJECT, '/features'), { name });
      await callOk(target, 'POST', flagPath(PROJECT, name, `/environments/${ENVIRONMENT}/strategies`), STRATEGY);
    });
    const { secret: clientToken } = (await callOk(target, 'POST', '/api/admin/api-tokens', {
      tokenName: `${runId}-sdk`, type: 'client', projects: [PROJECT], environment: ENVIRONMENT,
    })) as { secret: string };

    // 2. The admin toggle load with no stream connected (the first round's baseline).
    const writeLoad = { duration: options.duration, connections: options.connections, warmup: 1 };
    const writes = async (pids: number[]) => withCpu(pids, async () => runLoad(target, await toggleRequests(target, filler, clientToken), writeLoad));
    const withoutRuns = [await writes([server.pid])];
    log(`streams ${size}: toggle load without streams: ${loadSummary(withoutRuns[0]!.result)}`);

    // 3. Memory before and after the clients connect.
    await sleep(SETTLE_MS);
    const rssBefore = await residentBytes(server.pid);
    const heapBefore = await heapUsed(target);
    const { loaderCount, open, statuses, errors, connectMs } = await connectStreams(loaders, size, url, clientToken);
    log(`streams ${size}: ${open} open in ${(connectMs / 1000).toFixed(1)} s, statuses ${JSON.stringify(statuses)}, errors ${JSON.stringify(errors)}`);
    rows.push({
      measure: `${at}: clients connected (${loaderCount} load process${loaderCount > 1 ? 'es' : ''}, server open-file limit ${await openFileLimit(server.pid)})`,
      value: `${open} of ${size} in ${(connectMs / 1000).toFixed(1)} s; answers ${JSON.stringify(statuses)}${Object.keys(errors).length ? `; socket errors ${JSON.stringify(errors)}` : ''}`,
      goal: 'all', met: open === size,
    });
    await sleep(SETTLE_MS);
    const rssAfter = await residentBytes(server.pid);
    const heapAfter = await heapUsed(target);
    const perClient = (before: number | undefined, after: number | undefined): string =>
      before === undefined || after === undefined || open === 0 ? 'n/a' : `${f1((after - before) / open / 1024)} KB`;
    rows.push({
      measure: `${at}: server memory per connected client`,
      value: `RSS ${perClient(rssBefore, rssAfter)} (${f1((rssBefore ?? NaN) / 1e6)} → ${f1((rssAfter ?? NaN) / 1e6)} MB), ` +
        `heap ${perClient(heapBefore, heapAfter)} (${f1((heapBefore ?? NaN) / 1e6)} → ${f1((heapAfter ?? NaN) / 1e6)} MB)`,
      goal: '', met: undefined,
    });

    // 4. Toggles one at a time: admin 200 → each client's event naming the flag.
    const deliveryBefore = await deliveryHistogram(target);
    const lastMs: number[] = [];
    const everyMs: number[] = [];
    let missing = 0;
    let dropped = 0;
    for (let k = 0; k < options.toggles; k++) {
      const flag = timed[k] as string;
      const seen = loaders.map((loader) => loader.next('seen'));
      await Promise.all(loaders.map((loader) => loader.ask({ type: 'expect', marker: `"name":"${flag}"`, timeoutMs: EVENT_TIMEOUT_MS }, 'armed')));
      await callOk(target, 'POST', flagPath(PROJECT, flag, `/environments/${ENVIRONMENT}/on`));
      const answered = now();
      const replies = await Promise.all(seen);
      const times = replies.flatMap((r) => r.times.map((t) => t - answered));
      for (const t of times) everyMs.push(t);
      missing += replies.reduce((sum, r) => sum + r.missing, 0);
      dropped += replies.reduce((sum, r) => sum + r.closed, 0);
      if (times.length > 0) lastMs.push(Math.max(...times));
      await sleep(50);
    }
    const last = Float64Array.from(lastMs).sort();
    const every = Float64Array.from(everyMs).sort();
    const lastP99 = percentile(last, 0.99);
    log(`streams ${size}: last client p50 ${f1(percentile(last, 0.5))} ms, p99 ${f1(lastP99)} ms, max ${f1(last.at(-1) ?? NaN)} ms; missing ${missing}, dropped ${dropped}`);
    rows.push({
      measure: `${at}: admin 200 → LAST client's event, ${options.toggles} toggles one at a time`,
      value: `p50 ${f1(percentile(last, 0.5))} ms, p99 ${f1(lastP99)} ms, max ${f1(last.at(-1) ?? NaN)} ms`,
      goal: judged ? 'p99 ≤ 100 ms at 5,000' : `p99 ≤ ${HELD_P99_MS} ms (held)`,
      met: judged ? lastP99 <= 100 && missing === 0 : lastP99 <= HELD_P99_MS && missing === 0,
    });
    rows.push({
      measure: `${at}: admin 200 → every client's event (${every.length} deliveries)`,
      value: `p50 ${f1(percentile(every, 0.5))} ms, p99 ${f1(percentile(every, 0.99))} ms, earliest ${f1(every[0] ?? NaN)} ms`,
      goal: '', met: undefined,
    });
    const deliveryAfter = await deliveryHistogram(target);
    rows.push({
      measure: `${at}: the server's part, commit → its writes handed to the sockets (flagpole_streaming_delivery_seconds over the toggles)`,
      value: describeDelivery(deliveryBefore, deliveryAfter),
      goal: '', met: undefined,
    });
    rows.push({
      measure: `${at}: events never received / streams dropped during the toggles`,
      value: `${missing} / ${dropped}`,
      goal: '0 / 0', met: missing === 0 && dropped === 0,
    });

    // 5. The same admin toggle load with the streams connected; then, for the judged size, more rounds of
    // without (streams closed) and with (streams opened again), as one run's p99 moves ±25% on a shared machine.
    const rounds = judged ? WRITE_LOAD_ROUNDS : 1;
    const withRuns: Awaited<ReturnType<typeof writes>>[] = [];
    const stillOpen: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round > 0) {
        await Promise.all(loaders.splice(0).map((loader) => loader.stop()));
        await sleep(SETTLE_MS);
        withoutRuns.push(await writes([server.pid]));
        log(`streams ${size}: round ${round + 1}, toggle load without streams: ${loadSummary(withoutRuns[round]!.result)}`);
        const again = await connectStreams(loaders, size, url, clientToken);
        if (again.open !== size) throw new Error(`round ${round + 1}: ${again.open} of ${size} streams opened again`);
        await sleep(SETTLE_MS);
      }
      const run = await writes([server.pid, ...loaders.map((loader) => loader.child.pid ?? -1)]);
      withRuns.push(run);
      const loaderCpu = run.cpu.slice(1).reduce<number | undefined>((sum, v) => (sum === undefined || v === undefined ? undefined : sum + v), 0);
      log(`streams ${size}: round ${round + 1}, toggle load with streams: ${loadSummary(run.result)}; CPU server ${percent(run.cpu[0])}, load processes ${percent(loaderCpu)}, machine busy ${percent(run.machine)}`);
      await sleep(SETTLE_MS);
      const status = await Promise.all(loaders.map((loader) => loader.ask({ type: 'status' }, 'status')));
      stillOpen.push(status.reduce((sum, r) => sum + r.open, 0));
    }
    const p99Without = median(withoutRuns.map((r) => r.result.p99Ms));
    const p99With = median(withRuns.map((r) => r.result.p99Ms));
    const ratio = p99With / p99Without;
    // Each round's own ratio too: the judgement needs both the medians and the rounds' median ratio at most 1.2×.
    const paired = withRuns.map((r, i) => r.result.p99Ms / withoutRuns[i]!.result.p99Ms);
    const pairedMedian = median(paired);
    const failures = withRuns.reduce((sum, r) => sum + r.result.failures, 0);
    const describe = (r: Awaited<ReturnType<typeof writes>>): string =>
      `${r.result.p99Ms.toFixed(2)} ms (${Math.round(r.result.rps)} req/s, server CPU ${cpuPerRequest(r.cpu[0], r.result)}/write, machine ${percent(r.machine)})`;
    rows.push({
      measure: `${at}: admin toggle load (${options.connections} connections, ${options.duration} s) p99 without → with the streams` +
        (rounds > 1 ? `, ${rounds} alternating rounds (streams closed and opened again between), median ÷ median` : ''),
      value: withRuns.map((r, i) => `${describe(withoutRuns[i]!)} → ${describe(r)}`).join('; ') +
        `: ${ratio.toFixed(2)}×` + (rounds > 1 ? ` (median ÷ median); each round ${paired.map((r) => `${r.toFixed(2)}×`).join(', ')}, median ${pairedMedian.toFixed(2)}×` : '') +
        `; non-2xx ${withoutRuns.reduce((sum, r) => sum + r.result.failures, 0)} / ${failures}`,
      goal: rounds > 1 ? '≤ 1.2× (both figures)' : '≤ 1.2×',
      met: judged ? ratio <= 1.2 && pairedMedian <= 1.2 && failures === 0 : undefined,
    });
    rows.push({
      measure: `${at}: streams still open after each such load (each was sent every change)`,
      value: stillOpen.map((n) => `${n} of ${size}`).join('; '),
      goal: '', met: undefined,
    });
    await Promise.all(loaders.splice(0).map((loader) => loader.stop()));

    // 6. Delta polling by SDKs 1 to 5 changes behind.
    rows.push(...(await deltaPolling(target, clientToken, timed.slice(options.toggles), options)));
    return { rows, held: lastP99 <= HELD_P99_MS && missing === 0 && dropped === 0 && open === size };
  } finally {
    await Promise.all(loaders.map((loader) => loader.stop()));
    await stopServer(server);
  }
}

/**
 * Delta polling: `behind.length` toggles move the revision, each revision before the last is what an SDK that
 * many changes behind presents in `If-None-Match`. Every such answer is checked to be a delta (events, no
 * hydration), then autocannon polls with those revisions in turn; hydrations (no revision) for contrast.
 */
async function deltaPolling(target: Target, token: string, behind: string[], options: StreamOptions): Promise<ScaleRow[]> {
  const revisions = [(await delta(target, token)).revision];
  for (const flag of behind) {
    await callOk(target, 'POST', flagPath(PROJECT, flag, `/environments/${ENVIRONMENT}/on`));
    revisions.push((await delta(target, token)).revision);
  }
  const presented = revisions.slice(0, -1);
  const checks = await Promise.all(presented.map((revision) => delta(target, token, revision)));
  const deltas = checks.filter((c) => c.status === 200 && c.types.length > 0 && !c.types.includes('hydration')).length;
  const eventCounts = checks.map((c) => c.types.length).join(', ');
  const headers = { authorization: token, 'unleash-client-spec': '5.1.0' };
  const polls: AutocannonRequest[] = presented.map((revision) => ({ method: 'GET', path: `${target.prefix}/api/client/delta`, headers: { ...headers, 'if-none-match': `"${revision}"` } }));
  const load = { duration: options.duration, connections: options.connections, warmup: 1 };
  const deltaLoad = await runLoad(target, polls, load);
  const hydrationLoad = await runLoad(target, [{ method: 'GET', path: `${target.prefix}/api/client/delta`, headers }], load);
  log(`delta polling: ${loadSummary(deltaLoad)}; hydrations: ${loadSummary(hydrationLoad)}`);
  const sdks = (r: LoadResult): string => `≈ ${(Math.round(r.rps * 15 / 1000) * 1000).toLocaleString('en-US')} SDKs polling every 15 s`;
  return [
    {
      measure: `delta polling, SDKs 1 to ${presented.length} changes behind (answers checked: ${deltas} of ${presented.length} deltas, events ${eventCounts})`,
      value: `${loadSummary(deltaLoad)}, ${Math.round(deltaLoad.bytesPerAnswer)} B/answer; ${sdks(deltaLoad)}`,
      goal: 'answered from the history (deltas, not hydrations)',
      met: deltas === presented.length && deltaLoad.failures === 0,
    },
    {
      measure: 'for contrast: delta polling with no revision (hydrations)',
      value: `${loadSummary(hydrationLoad)}, ${Math.round(hydrationLoad.bytesPerAnswer)} B/answer`,
      goal: '', met: undefined,
    },
  ];
}
