/**
 * People writing through a load balancer while nodes die or restart: workers that each create, extend and
 * switch flags of their own, one write at a time, keeping what was acknowledged (a 2xx) apart from what may or
 * may not have happened (a 5xx, a cut connection), and a reader that counts every read that failed. Then
 * `verify` checks a node's state against every acknowledged write.
 */
import { expect } from 'vitest';
import type { Answer } from './installation.js';

const ENVIRONMENT = 'development';

type Call = (base: string, method: string, path: string, body?: unknown) => Promise<Answer>;

/**
 * The load's rate: each worker, the reader and the sequence start their next request at least this long after
 * their last one began: about 100 requests a second together, dozens of them between a kill and HAProxy taking
 * the node out, and writes going on through every drain and restart. Unpaced, the load took all the machine's
 * CPU for as long as the test waited on HAProxy's checks and node starts, which made those waits longer too.
 */
export const REQUEST_EVERY_MS = 100;

/** Resolves once {@link REQUEST_EVERY_MS} has passed since `startedAt` (epoch ms): the rate of a loop, not a wait on a state. */
function paced(startedAt: number): Promise<void> {
  const rest = startedAt + REQUEST_EVERY_MS - Date.now();
  return rest > 0 ? new Promise((resolve) => setTimeout(resolve, rest)) : Promise.resolve();
}

/** What a worker knows of one of its flags, from acknowledged writes only. */
interface Known {
  strategies: Set<string>;
  /** The last acknowledged switch, or `unknown` after a switch whose answer never came (it may land either way). */
  enabled: boolean | 'unknown';
}

/** One write's answer, as the test saw it. */
export interface WriteOutcome {
  status: number | 'cut';
  node: string | null;
  /** When it was sent (epoch ms). */
  startedAt: number;
}

/** Workers and a reader running against `base`. */
export interface Writers {
  /** Acknowledged writes so far. */
  acknowledged(): number;
  /** Every write's answer so far, in order. */
  outcomes: WriteOutcome[];
  /** Answers no write should get (a 4xx other than a refused switch): the worker that got one stopped. */
  problems: string[];
  /** Reads that did not answer 200, with why. */
  failedReads: string[];
  /** Reads answered so far. */
  reads(): number;
  /** A copy of what is acknowledged now: by project, flag names with their strategy ids. */
  acknowledgedNow(): Map<string, Map<string, Set<string>>>;
  /** Stops every worker and the reader after their write or read in flight. */
  stop(): Promise<void>;
  /** Checks the state `base` (a node) serves of each project against every acknowledged write. */
  verify(base: string): Promise<void>;
}

/**
 * Starts `perProject` workers on each of `projects` and one reader, all through `base`; `call` sends with an
 * admin token. Their flags are named `<tag>-<project>-<worker>-<n>` (unique across projects, as an SDK holds flags by
 * name): writers started one after the other need tags of their own.
 *
 * @example const writers = startWriters(site.call, site.lb.base, ['default'], 4, 'a'); ...; await writers.stop(); await writers.verify(node.base);
 */
export function startWriters(call: Call, base: string, projects: string[], perProject: number, tag: string): Writers {
  const workers = projects.flatMap((project) => Array.from({ length: perProject }, (_, i) => ({ project, prefix: `${tag}-${project}-${i}-`, flags: new Map<string, Known>(), counter: 0 })));
  const problems: string[] = [];
  const outcomes: WriteOutcome[] = [];
  const failedReads: string[] = [];
  let acked = 0;
  let reads = 0;
  let stopping = false;
  const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;

  const drive = async (w: (typeof workers)[number]) => {
    const path = `/api/admin/projects/${w.project}/features`;
    while (!stopping) {
      const names = [...w.flags.entries()].filter(([, known]) => known.enabled !== 'unknown').map(([name]) => name);
      const kind = names.length === 0 || Math.random() < 0.3 ? 'create' : pick(['strategy', 'strategy', 'on', 'off'] as const);
      const flag = kind === 'create' ? `${w.prefix}${w.counter++}` : pick(names);
      let answer: Answer | null = null;
      const startedAt = Date.now();
      try {
        if (kind === 'create') answer = await call(base, 'POST', path, { name: flag });
        else if (kind === 'strategy') answer = await call(base, 'POST', `${path}/${flag}/environments/${ENVIRONMENT}/strategies`, { name: 'flexibleRollout', parameters: { rollout: '30' } });
        else answer = await call(base, 'POST', `${path}/${flag}/environments/${ENVIRONMENT}/${kind}`);
      } catch {
        answer = null;
      }
      outcomes.push({ status: answer?.status ?? 'cut', node: answer?.node ?? null, startedAt });
      const known = w.flags.get(flag);
      if (answer && answer.status >= 200 && answer.status < 300) {
        acked += 1;
        if (kind === 'create') w.flags.set(flag, { strategies: new Set(), enabled: false });
        else if (kind === 'strategy') known!.strategies.add((answer.body as { id: string }).id);
        else known!.enabled = kind === 'on';
      } else if (answer && answer.status === 409 && kind === 'on') {
        // Switching on without a strategy: refused, nothing changed.
      } else if (answer && answer.status < 500) {
        problems.push(`${kind} ${w.project}/${flag}: unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
        return;
      } else if (known && (kind === 'on' || kind === 'off')) {
        // No answer, or a 5xx: the switch may have landed. The flag's state is unknown from here, and it is left alone.
        known.enabled = 'unknown';
      }
      await paced(startedAt);
    }
  };
  const read = async () => {
    while (!stopping) {
      const project = pick(projects);
      const startedAt = Date.now();
      try {
        const answer = await call(base, 'GET', `/api/admin/projects/${project}/features`);
        reads += 1;
        if (answer.status !== 200) failedReads.push(`${answer.status} from ${answer.node}: ${JSON.stringify(answer.body).slice(0, 200)}`);
      } catch (error) {
        failedReads.push(String(error));
      }
      await paced(startedAt);
    }
  };
  const running = [...workers.map(drive), read()];
  return {
    acknowledged: () => acked,
    outcomes,
    problems,
    failedReads,
    reads: () => reads,
    acknowledgedNow() {
      const now = new Map<string, Map<string, Set<string>>>();
      for (const w of workers) {
        const flags = now.get(w.project) ?? new Map<string, Set<string>>();
        for (const [name, known] of w.flags) flags.set(name, new Set(known.strategies));
        now.set(w.project, flags);
      }
      return now;
    },
    async stop() {
      stopping = true;
      await Promise.all(running);
    },
    async verify(node) {
      for (const project of projects) {
        const dump = await call(node, 'GET', `/api/admin/state?project=${project}`);
        expect(dump.status).toBe(200);
        const stored = (dump.body as { projects: { flags: { name: string; environments: Record<string, { enabled: boolean; strategies: { id: string }[] }> }[] }[] }).projects[0]!;
        const names = stored.flags.map((f) => f.name);
        expect(new Set(names).size, 'flag names are unique').toBe(names.length);
        const byName = new Map(stored.flags.map((f) => [f.name, f]));
        for (const w of workers.filter((x) => x.project === project)) {
          for (const [name, known] of w.flags) {
            const flag = byName.get(name);
            expect(flag, `acknowledged flag ${project}/${name} on ${node}`).toBeDefined();
            const entry = flag!.environments[ENVIRONMENT]!;
            const ids = new Set(entry.strategies.map((s) => s.id));
            for (const id of known.strategies) expect(ids.has(id), `acknowledged strategy ${id} of ${project}/${name} on ${node}`).toBe(true);
            if (known.enabled !== 'unknown') expect(entry.enabled, `acknowledged switch of ${project}/${name} on ${node}`).toBe(known.enabled);
          }
        }
      }
    },
  };
}

/**
 * A writer that creates `<prefix>1`, `<prefix>2`, ... in `project` one after the other through `base`, each
 * until it exists (an answer that never came is asked again: 201, or 409 when the first try had landed), so
 * the sequence has no hole for an SDK to be checked against (`sdk-sequence.ts`).
 */
export function startSequence(call: Call, base: string, project: string, prefix: string): { written(): number; problems: string[]; stop(): Promise<void> } {
  let written = 0;
  let stopping = false;
  const problems: string[] = [];
  const running = (async () => {
    while (!stopping) {
      const name = `${prefix}${written + 1}`;
      const startedAt = Date.now();
      const answer = await call(base, 'POST', `/api/admin/projects/${project}/features`, { name }).catch(() => null);
      if (answer && (answer.status === 201 || answer.status === 409)) written += 1;
      else if (answer && answer.status < 500) return void problems.push(`creating ${name}: unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
      await paced(startedAt);
    }
  })();
  return {
    written: () => written,
    problems,
    async stop() {
      stopping = true;
      await running;
    },
  };
}
