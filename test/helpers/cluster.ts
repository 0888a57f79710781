/**
 * Several flagpole nodes in one test: each a full app (`harness`) over its own registry and store, all on one
 * fresh PostgreSQL schema, as several processes behind a load balancer share a database. The real processes
 * and a real load balancer are in test/cluster/end-to-end (this is the in-process form).
 */
import { onTestFinished } from 'vitest';
import { harness, type Harness, type HarnessSeams } from './harness.js';
import { freshSchema } from './postgres.js';

export interface Cluster {
  nodes: Harness[];
  /** The schema's `DATABASE_*` settings, to start one more node on it. */
  env: Record<string, string>;
  /** Starts one more node on the same schema. */
  add(): Promise<Harness>;
  close(): Promise<void>;
}

/**
 * `count` nodes on one fresh schema, started one after the other (or `together`: all at once, as after a
 * rolling start on a new database); `env` adds settings to every node; `deliver` runs the addons' deliveries
 * (on the node holding their lease); `passwordWork` is the nodes' scrypt work (the harness's unless given).
 *
 * @example const { nodes: [a, b], close } = await cluster(2); ...; await close();
 */
export async function cluster(count: number, env: Record<string, string> = {}, options: { together?: boolean; deliver?: boolean; passwordWork?: HarnessSeams['passwordWork'] } = {}): Promise<Cluster> {
  const schema = freshSchema();
  // A read's catch-up waits until done (a test may set less): the 1 s an operator's node allows by default ran
  // out at load 6, and a sign-in on one node then missed the user made on the other.
  const shared = { DATABASE_URL: schema.database.url, DATABASE_SCHEMA: schema.database.schema, DATABASE_POOL_SIZE: '4', NODE_CATCH_UP_WAIT_MS: '30000', ...env };
  const start = () => harness(shared, undefined, { store: 'postgres', deliver: options.deliver ?? false, ...(options.passwordWork ? { passwordWork: options.passwordWork } : {}) });
  const nodes: Harness[] = [];
  if (options.together) nodes.push(...await Promise.all(Array.from({ length: count }, start)));
  else for (let i = 0; i < count; i += 1) nodes.push(await start());
  return {
    nodes,
    env: shared,
    async add() {
      const node = await start();
      nodes.push(node);
      return node;
    },
    async close() {
      for (const node of nodes) await node.close();
      await schema.drop();
    },
  };
}

/**
 * {@link cluster}, closed (its nodes, then its schema) once the running test has finished, passed or failed.
 *
 * @example const { nodes: [a, b] } = await clusterForTest(2);
 */
export async function clusterForTest(...args: Parameters<typeof cluster>): Promise<Cluster> {
  const started = await cluster(...args);
  onTestFinished(() => started.close());
  return started;
}
