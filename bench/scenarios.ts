import { authHeaders, callOk, countFlags, flagPath, inParallel, projectPath, type Target } from './client.js';
import type { AutocannonRequest } from './load.js';

/**
 * The project the request-rate scenarios use. It is `default` because every server of this API has it
 * (Unleash open source cannot create other projects), so `--vs` compares like with like.
 */
export const HOT_PROJECT = 'default';

/** Number of flags the hot project holds while the read scenarios run (the "200-flag project"). */
export const HOT_FLAGS = 200;

/** How long the frontend scenario waits for the server's frontend API to show the flags it switched on. */
const FRONTEND_PROBE_MS = 60_000;
/** Enabled flags the frontend scenario evaluates per request. */
export const FRONTEND_FLAGS = 100;

/** Requests in flight while seeding; the server group-commits writes that arrive together. */
export const SEED_CONCURRENCY = 64;

const STRATEGY = { name: 'flexibleRollout', parameters: { rollout: '50' } };

/** Throughput and latency a scenario should reach at 32 connections on a 2-core machine. */
export interface Goal {
  minRps: number;
  maxP99Ms: number;
}

/** State shared by the scenarios of one target: its run id (for unique names) and the seeded flags. */
export interface ScenarioContext {
  runId: string;
  duration: number;
  warmup: number;
  /** Flags of the hot project, each with one strategy in `development`. */
  hotFlags: string[];
  /** A client (SDK) token of the hot project in `development`, created while seeding. */
  clientToken: string;
}

/** One measured scenario: `build` does its own setup on the target and returns the requests to drive. */
export interface Scenario {
  name: string;
  description: string;
  goal: Goal | undefined;
  /** The status a successful answer has, when it is not any 2xx (a conditional GET expects 304). */
  okStatus?: number;
  build(target: Target, context: ScenarioContext): Promise<AutocannonRequest[]>;
}

/**
 * Seeds the hot project: HOT_FLAGS flags named `<runId>-hot-<i>`, each with a flexibleRollout strategy in
 * `development` (so `/on` succeeds). Returns their names and how many flags the project holds afterwards
 * (more than HOT_FLAGS means the other server's database was not fresh).
 */
export async function seedHotProject(target: Target, runId: string): Promise<{ flags: string[]; projectFlags: number; clientToken: string }> {
  const flags = Array.from({ length: HOT_FLAGS }, (_, i) => `${runId}-hot-${i}`);
  await inParallel(flags.length, SEED_CONCURRENCY, async (i) => {
    const name = flags[i] as string;
    await callOk(target, 'POST', projectPath(HOT_PROJECT, '/features'), { name });
    await callOk(target, 'POST', flagPath(HOT_PROJECT, name, '/environments/development/strategies'), STRATEGY);
  });
  const token = (await callOk(target, 'POST', '/api/admin/api-tokens', {
    tokenName: `${runId}-sdk`, type: 'client', projects: [HOT_PROJECT], environment: 'development',
  })) as { secret: string };
  return { flags, projectFlags: await countFlags(target, HOT_PROJECT), clientToken: token.secret };
}

/** What a backend SDK sends when it polls: its token and its client spec. */
function sdkHeaders(context: ScenarioContext): Record<string, string> {
  return { authorization: context.clientToken, 'unleash-client-spec': '5.1.0' };
}

/** The current `ETag` of the hot project's client answer, as the SDK would hold it after its first poll. */
async function clientEtag(target: Target, context: ScenarioContext): Promise<string> {
  const response = await fetch(`${target.origin}${target.prefix}/api/client/features`, { headers: sdkHeaders(context) });
  const etag = response.headers.get('etag');
  await response.arrayBuffer();
  if (response.status !== 200 || etag === null) throw new Error(`${target.label}: GET /api/client/features answered ${response.status} with ETag ${etag}`);
  return etag;
}

function jsonRequest(target: Target, method: string, path: string, body: string): AutocannonRequest {
  return { method, path: target.prefix + path, body, headers: { ...authHeaders(target), 'content-type': 'application/json' } };
}

function pick(list: string[], k: number): string {
  return list[k % list.length] as string;
}

/**
 * The scenarios in the order they run. Reads come first so they see exactly HOT_FLAGS flags; toggles and
 * patches keep the flag count; strategy additions and creates (which grow the project) come last.
 */
export const SCENARIOS: Scenario[] = [
  {
    name: 'getFlag',
    description: 'GET one flag (with one strategy) of the 200-flag project',
    goal: { minRps: 18_000, maxP99Ms: 10 },
    build: async (target, context) => [
      { method: 'GET', path: target.prefix + flagPath(HOT_PROJECT, pick(context.hotFlags, 0)), headers: authHeaders(target) },
    ],
  },
  {
    name: 'listFlags',
    description: 'GET the flag list of the 200-flag project',
    goal: { minRps: 8_000, maxP99Ms: 10 },
    build: async (target) => [{ method: 'GET', path: target.prefix + projectPath(HOT_PROJECT, '/features'), headers: authHeaders(target) }],
  },
  {
    name: 'overview',
    description: 'GET the overview of the 200-flag project',
    goal: { minRps: 8_000, maxP99Ms: 10 },
    build: async (target) => [{ method: 'GET', path: target.prefix + projectPath(HOT_PROJECT), headers: authHeaders(target) }],
  },
  {
    name: 'clientFeatures304',
    description: 'GET /api/client/features with a client token and the current ETag in If-None-Match (an SDK poll with nothing new): 304',
    goal: { minRps: 30_000, maxP99Ms: 10 },
    okStatus: 304,
    build: async (target, context) => [
      { method: 'GET', path: `${target.prefix}/api/client/features`, headers: { ...sdkHeaders(context), 'if-none-match': await clientEtag(target, context) } },
    ],
  },
  {
    name: 'clientFeatures',
    description: 'GET /api/client/features with a client token: the full answer for the 200 flags',
    goal: { minRps: 12_000, maxP99Ms: 10 },
    build: async (target, context) => [{ method: 'GET', path: `${target.prefix}/api/client/features`, headers: sdkHeaders(context) }],
  },
  {
    name: 'frontend',
    description: 'GET /api/frontend with a frontend token: 100 enabled flags (flexibleRollout 50%) evaluated for a random userId per request',
    goal: { minRps: 10_000, maxP99Ms: 10 },
    build: async (target, context) => {
      // The first FRONTEND_FLAGS hot flags on in development (they each have a strategy); the toggle scenario
      // that follows flips all of them anyway.
      await inParallel(FRONTEND_FLAGS, SEED_CONCURRENCY, async (i) => {
        await callOk(target, 'POST', flagPath(HOT_PROJECT, pick(context.hotFlags, i), '/environments/development/on'));
      });
      const token = (await callOk(target, 'POST', '/api/admin/api-tokens', {
        tokenName: `${context.runId}-browser`, type: 'frontend', projects: [HOT_PROJECT], environment: 'development',
      })) as { secret: string };
      // A 50% rollout enables about half of them for any one user. Unleash's frontend API reads its flags from a
      // copy it refreshes every few seconds, so the probe is asked again until it sees them (flagpole: at once).
      const deadline = performance.now() + FRONTEND_PROBE_MS;
      for (;;) {
        const probe = await fetch(`${target.origin}${target.prefix}/api/frontend?userId=probe`, { headers: { authorization: token.secret } });
        const answered = (await probe.json()) as { toggles?: unknown[] };
        if (probe.status === 200 && answered.toggles && answered.toggles.length >= FRONTEND_FLAGS / 4) break;
        if (performance.now() > deadline) {
          throw new Error(`${target.label}: GET /api/frontend answered ${probe.status} with ${answered.toggles?.length} toggles`);
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return [
        {
          method: 'GET',
          path: `${target.prefix}/api/frontend`,
          headers: { authorization: token.secret },
          setupRequest: (request) => {
            request.path = `${target.prefix}/api/frontend?userId=user-${Math.floor(Math.random() * 1e9)}`;
            return request;
          },
        },
      ];
    },
  },
  {
    name: 'toggle',
    description: 'POST on / off in development, round-robin over the 200 flags (each has a strategy), alternating',
    goal: { minRps: 7_500, maxP99Ms: 10 },
    build: async (target, context) => {
      let k = 0;
      const flags = context.hotFlags;
      const headers = { ...authHeaders(target), 'content-length': '0' };
      return [
        {
          method: 'POST',
          headers,
          setupRequest: (request) => {
            const n = k++;
            // Each pass over the flags flips the action, so every request changes the flag's state.
            const action = Math.floor(n / flags.length) % 2 === 0 ? 'on' : 'off';
            request.path = target.prefix + flagPath(HOT_PROJECT, pick(flags, n), `/environments/development/${action}`);
            return request;
          },
        },
      ];
    },
  },
  {
    name: 'patchFlag',
    description: 'PATCH the description of a flag (JSON Patch replace), round-robin over the 200 flags',
    goal: undefined,
    build: async (target, context) => {
      let k = 0;
      const base = jsonRequest(target, 'PATCH', '', '');
      return [
        {
          ...base,
          setupRequest: (request) => {
            const n = k++;
            request.path = target.prefix + flagPath(HOT_PROJECT, pick(context.hotFlags, n));
            request.body = JSON.stringify([{ op: 'replace', path: '/description', value: `bench ${n}` }]);
            return request;
          },
        },
      ];
    },
  },
  {
    name: 'addStrategy',
    description: 'POST a flexibleRollout strategy to development, spread over 1,000 fresh flags per second of run',
    goal: { minRps: 5_000, maxP99Ms: 10 },
    build: async (target, context) => {
      // Enough flags that each ends with about (req/s / 1,000) strategies: realistic flags have a handful, and
      // flagpole, like Unleash, refuses a 31st strategy in one environment (LIMIT_STRATEGIES_PER_ENVIRONMENT).
      // At 300 flags a second, a run at 9,800 req/s had 5,636 answers of 400 from that limit.
      const size = Math.min(30_000, Math.max(1_000, 1_000 * (context.duration + context.warmup)));
      const pool = Array.from({ length: size }, (_, i) => `${context.runId}-strat-${i}`);
      await inParallel(pool.length, SEED_CONCURRENCY, async (i) => {
        await callOk(target, 'POST', projectPath(HOT_PROJECT, '/features'), { name: pool[i] });
      });
      let k = 0;
      return [
        {
          ...jsonRequest(target, 'POST', '', JSON.stringify(STRATEGY)),
          setupRequest: (request) => {
            request.path = target.prefix + flagPath(HOT_PROJECT, pick(pool, k++), '/environments/development/strategies');
            return request;
          },
        },
      ];
    },
  },
  {
    name: 'createFlag',
    description: 'POST a new flag with a unique name',
    goal: { minRps: 5_000, maxP99Ms: 10 },
    build: async (target, context) => {
      let k = 0;
      return [
        {
          ...jsonRequest(target, 'POST', projectPath(HOT_PROJECT, '/features'), ''),
          setupRequest: (request) => {
            request.body = JSON.stringify({ name: `${context.runId}-new-${k++}` });
            return request;
          },
        },
      ];
    },
  },
];
