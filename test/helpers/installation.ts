/**
 * A whole installation of several nodes as an operator runs it (docs/operations.md "Several nodes"): three
 * flagpole processes from the built dist/ on one PostgreSQL schema, with the same `DATABASE_URL` and
 * `TOKEN_SECRET`, and a real HAProxy in front running deploy/haproxy.cfg. The in-process form is
 * `cluster.ts`.
 */
import { haproxyBinary, startHaproxy, type LoadBalancer } from './haproxy.js';
import { nodeProcess, type NodeProcess } from './node-process.js';
import { freshSchema, type TestSchema } from './postgres.js';

/** The admin token every node is started with (`INIT_ADMIN_API_TOKENS`). */
export const E2E_ADMIN_TOKEN = '*:*.e2e-admin-token-0123456789abcdef';
/** A client token for every project in development (`INIT_CLIENT_API_TOKENS`). */
export const E2E_CLIENT_TOKEN = '*:development.e2e-client-token-0123456789abcdef';
/** The key of every node's token hashes: the same on each, or a token made on one is unknown to the others. */
const TOKEN_SECRET = 'e2e-token-key-shared-by-every-node-0123456789abcdef';

/** An answer read whole: status, JSON body (or null), headers. */
export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** The node that answered, from the load balancer's `X-Flagpole-Node` (null when asked of a node directly). */
  node: string | null;
}

export interface Installation {
  nodes: NodeProcess[];
  lb: LoadBalancer;
  schema: TestSchema;
  /** Sends a request to `base` (the load balancer's or a node's) with the admin token unless `token` is given. */
  call<T = any>(base: string, method: string, path: string, body?: unknown, options?: { token?: string; headers?: Record<string, string> }): Promise<Answer<T>>;
  /** The revision node `node` serves (the `ETag` of its delta hydration: `"<revision>"`). */
  revisionOf(node: NodeProcess): Promise<number>;
  /** Waits until every running node serves at least the highest revision any of them serves; answers it. */
  converged(): Promise<number>;
  /** Waits until HAProxy sees each of `states` (`node1` → `UP`, `DOWN`...) in the main backend. */
  balancerSees(states: Record<string, string>): Promise<void>;
  /** Every node's output and HAProxy's, for a failure's message. */
  output(): string;
  close(): Promise<void>;
}

/**
 * Waits until `check` answers true, asking every 25 ms (usable in hooks, where `expect.poll` is not); fails
 * after `ms` naming `what` and the last value `describe` gives.
 */
export async function until(what: string, check: () => Promise<boolean>, ms = 15_000, describe: () => Promise<unknown> = async () => undefined): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}; last seen: ${JSON.stringify(await describe().catch((e: unknown) => String(e)))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** What an installation starts with. */
export interface InstallationOptions {
  /** The database's URL (default: the tests' server). */
  databaseUrl?: string;
  /** The URL node `index` (0 to 2) connects with, when not `url` itself: a proxy of the test's in between. */
  nodeUrl?: (index: number, url: string) => string;
  /** Settings every node gets. */
  env?: Record<string, string>;
}

/**
 * Three nodes (`node1` first, then `node2` and `node3` together) on a fresh schema and HAProxy in front,
 * every server seen `UP` before it answers. Fails at once, saying so, when haproxy is not installed.
 *
 * @example const site = await installation(); await site.call(site.lb.base, 'GET', '/api/admin/projects'); await site.close();
 */
export async function installation(options: InstallationOptions = {}): Promise<Installation> {
  haproxyBinary();
  const schema = freshSchema(options.databaseUrl);
  const urlOf = (index: number) => options.nodeUrl?.(index, schema.database.url) ?? schema.database.url;
  const nodes = await Promise.all([0, 1, 2].map((i) => nodeProcess(`node${i + 1}`, {
    DATABASE_URL: urlOf(i), DATABASE_SCHEMA: schema.database.schema, DATABASE_POOL_SIZE: '4', TOKEN_SECRET,
    INIT_ADMIN_API_TOKENS: E2E_ADMIN_TOKEN, INIT_CLIENT_API_TOKENS: E2E_CLIENT_TOKEN, LOG_LEVEL: 'warn',
    ...options.env,
  })));
  let lb: LoadBalancer | null = null;
  const output = () => [...nodes.map((node) => node.output()), lb?.output() ?? ''].join('\n');
  const dispose = async () => {
    await lb?.stop();
    for (const node of nodes) await node.dispose();
    await schema.drop();
  };
  try {
    await nodes[0]!.start();
    await Promise.all(nodes.slice(1).map((node) => node.start()));
    lb = await startHaproxy(nodes.map((node) => node.address));
  } catch (error) {
    await dispose();
    throw error;
  }
  const balancer = lb;
  const call = async <T>(base: string, method: string, path: string, body?: unknown, opts: { token?: string; headers?: Record<string, string> } = {}): Promise<Answer<T>> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: opts.token ?? E2E_ADMIN_TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed as T, headers: response.headers, node: response.headers.get('x-flagpole-node') };
  };
  const revisionOf = async (node: NodeProcess) => {
    // Not /api/client/features: its ETag names the revision its content last changed at as this node saw it.
    const answer = await call(node.base, 'GET', '/api/client/delta', undefined, { token: E2E_CLIENT_TOKEN });
    const revision = /^"(\d+)"$/.exec(answer.headers.get('etag') ?? '');
    if (answer.status !== 200 || !revision) throw new Error(`${node.name} answered ${answer.status} with ETag ${answer.headers.get('etag')}`);
    return Number(revision[1]);
  };
  const site: Installation = {
    nodes, lb: balancer, schema, call, revisionOf, output,
    async converged() {
      const running = nodes.filter((node) => node.running);
      const head = Math.max(...await Promise.all(running.map(revisionOf)));
      const revisions = () => Promise.all(running.map(revisionOf));
      await until(`every node at revision ${head}`, async () => (await revisions()).every((revision) => revision >= head), 15_000, revisions);
      return head;
    },
    async balancerSees(states) {
      const wanted = Object.fromEntries(Object.entries(states).map(([name, state]) => [`flagpole/${name}`, state]));
      const seen = async () => {
        const servers = await balancer.servers();
        return Object.fromEntries(Object.keys(wanted).map((key) => [key, servers.get(key)]));
      };
      await until(`HAProxy to see ${JSON.stringify(states)}`, async () => JSON.stringify(await seen()) === JSON.stringify(wanted), 20_000, seen);
    },
    close: dispose,
  };
  await site.balancerSees({ node1: 'UP', node2: 'UP', node3: 'UP' });
  return site;
}
