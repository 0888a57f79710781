/**
 * Propagation across nodes (`--nodes`): from a write's 2xx on one node to the change being served by each
 * other node, for each way a change is served — the admin read, the SDK poll (`/api/client/features`, its
 * ETag changes), the delta API, the SDK stream, and the console's live rows (the `changed:<flag>` event of the
 * project page's stream, after which the row fetches itself again: that fetch is not counted) — each measured
 * in a round of its own, so no channel's polling loads another's. The writes toggle one flag, from each node in turn, one at a time, with a short
 * pause between them: an idle installation. A poll is sent again as soon as its answer shows the old state,
 * so a figure is the end of the first answer showing the change (at most one request's time late).
 */
import { call, flagPath, projectPath, type Target } from './client.js';
import { watchSse, type SseWatch } from './sse-watch.js';

/** The ways a node serves a change. */
export const CHANNELS = ['admin read', 'SDK poll (ETag)', 'delta API', 'SSE stream', 'console live rows'] as const;
export type Channel = (typeof CHANNELS)[number];

/** One node as the propagation rounds use it: as an admin, and as an SDK of the project. */
export interface PropagationNode {
  admin: Target;
  client: Target;
}

/** What one channel's round measured, in ms from the write's 2xx. */
export interface ChannelSamples {
  channel: Channel;
  /** One per write and other node: when the first answer (or event) showing the change ended. */
  perNode: number[];
  /**
   * Polled channels: one per write and other node, when the request whose answer first showed the change was
   * sent (the node served the change between this and `perNode`: on a busy machine a poll's own round trip
   * is most of the figure). Empty for streams.
   */
  askedBy: number[];
  /** One per write: the last of the other nodes. */
  lastNode: number[];
  /** Writes some other node had not served within the time allowed. */
  missing: number;
}

const PROJECT = 'propagation';
const FLAG = 'propagated';
/** A console user of the rounds (its session, shared by every node, opens the project page's live stream). */
const USER = { username: 'bench-viewer', password: 'bench-tulip-harbour-88' };
/** Pause between two writes: the installation idles between them. */
const PAUSE_MS = 20;
/** The most a change may take to be served before it is counted missing. */
const TIMEOUT_MS = 5_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates the project and flag the rounds toggle (through the first node), with a strategy so `on` holds. */
export async function seedPropagation(node: PropagationNode): Promise<void> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await call(node.admin, method, path, body);
    if (reply.status < 200 || reply.status > 299) throw new Error(`${node.admin.label}: ${method} ${path} answered ${reply.status}: ${reply.text.slice(0, 200)}`);
  };
  await ok('POST', '/api/admin/projects', { id: PROJECT, name: PROJECT });
  await ok('POST', projectPath(PROJECT, '/features'), { name: FLAG });
  await ok('POST', flagPath(PROJECT, FLAG, '/environments/development/strategies'), { name: 'default' });
  await ok('POST', '/api/admin/user-admin', { ...USER, rootRole: 1 });
}

/** A console session's cookie (`flagpole-session=...`), signed in on `node` (a node learns sessions made on others only at its start). */
async function consoleCookie(node: PropagationNode): Promise<string> {
  const signedIn = await call({ ...node.admin, token: undefined }, 'POST', '/auth/simple/login', USER);
  const cookie = String(signedIn.headers['set-cookie']?.[0] ?? '').split(';')[0];
  if (signedIn.status !== 200 || !cookie) throw new Error(`${node.admin.label}: sign-in answered ${signedIn.status}: ${signedIn.text.slice(0, 200)}`);
  return cookie;
}

/** Whether a feature list (`features` of the SDK answer) or a delta's events show the flag `enabled`. */
const inFeatures = (text: string, enabled: boolean) =>
  (JSON.parse(text) as { features: { name: string; enabled: boolean }[] }).features.some((f) => f.name === FLAG && f.enabled === enabled);
const inEvents = (text: string, enabled: boolean) =>
  (JSON.parse(text) as { events: { type: string; feature?: { name: string; enabled: boolean } }[] }).events
    .some((e) => e.type === 'feature-updated' && e.feature?.name === FLAG && e.feature.enabled === enabled);

/** When a change was seen: the end of what showed it and, for a poll, when that request was sent. */
interface Seen {
  at: number;
  asked?: number;
}

/** Sends `ask` again until `shows` accepts its answer; when that answer was asked for and ended, or null after the timeout. */
async function pollUntil(ask: () => ReturnType<typeof call>, shows: (reply: Awaited<ReturnType<typeof call>>) => boolean): Promise<Seen | null> {
  const deadline = performance.now() + TIMEOUT_MS;
  while (performance.now() < deadline) {
    const asked = performance.now();
    const reply = await ask();
    if (shows(reply)) return { at: performance.now(), asked };
  }
  return null;
}

/** The event's arrival as a {@link Seen}, or null. */
const arrived = (event: { at: number } | null): Seen | null => (event ? { at: event.at } : null);

/** What a channel reads of a node before a write, and then how it sees the write served there. */
type Observer = (node: PropagationNode, index: number) => Promise<(enabled: boolean) => Promise<Seen | null>>;

function observer(channel: Channel, streams: SseWatch[], pages: SseWatch[]): Observer {
  const clientPath = `/api/client/features?project=${PROJECT}`;
  const deltaPath = `/api/client/delta?project=${PROJECT}`;
  switch (channel) {
    case 'admin read':
      return async (node) => (enabled) => pollUntil(() => call(node.admin, 'GET', flagPath(PROJECT, FLAG)), (reply) => reply.status === 200
        && (JSON.parse(reply.text) as { environments: { name: string; enabled: boolean }[] }).environments.some((e) => e.name === 'development' && e.enabled === enabled));
    case 'SDK poll (ETag)': {
      return async (node) => {
        const before = await call(node.client, 'GET', clientPath);
        const etag = String(before.headers.etag);
        return (enabled) => pollUntil(() => call(node.client, 'GET', clientPath, undefined, { 'if-none-match': etag }),
          (reply) => reply.status === 200 && reply.headers.etag !== etag && inFeatures(reply.text, enabled));
      };
    }
    case 'delta API':
      return async (node) => {
        const before = await call(node.client, 'GET', deltaPath);
        const etag = String(before.headers.etag);
        return (enabled) => pollUntil(() => call(node.client, 'GET', deltaPath, undefined, { 'if-none-match': etag }),
          (reply) => reply.status === 200 && inEvents(reply.text, enabled));
      };
    case 'SSE stream':
      return async (_node, index) => {
        const stream = streams[index]!;
        const from = stream.count;
        return async (enabled) => arrived(await stream.next((e) => e.event === 'unleash-updated' && inEvents(e.data, enabled), TIMEOUT_MS, from));
      };
    case 'console live rows':
      return async (_node, index) => {
        const page = pages[index]!;
        const from = page.count;
        return async () => arrived(await page.next((e) => e.event === `changed:${FLAG}`, TIMEOUT_MS, from));
      };
  }
}

/**
 * Runs one round per channel of `writes` toggles each, the writer going round the nodes, and answers the
 * samples of each channel. Every node holds an SDK stream and a console page stream of the project throughout
 * (an idle stream costs nothing between writes), so their rounds find them connected.
 */
export async function measurePropagation(nodes: PropagationNode[], writes: number): Promise<ChannelSamples[]> {
  const cookies = await Promise.all(nodes.map(consoleCookie));
  const streams = await Promise.all(nodes.map((node) => watchSse(node.client, `/api/client/streaming?project=${PROJECT}`)));
  const pages = await Promise.all(nodes.map((node, i) => watchSse({ ...node.admin, token: undefined }, `/projects/${PROJECT}/events`, { cookie: cookies[i]! })));
  try {
    for (const stream of streams) {
      if (!(await stream.next((e) => e.event === 'unleash-connected', TIMEOUT_MS))) throw new Error('an SSE stream did not connect');
    }
    const results: ChannelSamples[] = [];
    let enabled = (JSON.parse((await call(nodes[0]!.admin, 'GET', flagPath(PROJECT, FLAG))).text) as { environments: { name: string; enabled: boolean }[] })
      .environments.some((e) => e.name === 'development' && e.enabled);
    for (const channel of CHANNELS) {
      const observe = observer(channel, streams, pages);
      const samples: ChannelSamples = { channel, perNode: [], askedBy: [], lastNode: [], missing: 0 };
      for (let w = 0; w < writes; w += 1) {
        const writer = w % nodes.length;
        const others = nodes.map((node, index) => ({ node, index })).filter(({ index }) => index !== writer);
        const watchers = await Promise.all(others.map(({ node, index }) => observe(node, index)));
        enabled = !enabled;
        const written = await call(nodes[writer]!.admin, 'POST', flagPath(PROJECT, FLAG, `/environments/development/${enabled ? 'on' : 'off'}`));
        const t0 = performance.now();
        if (written.status !== 200) throw new Error(`${nodes[writer]!.admin.label}: the toggle answered ${written.status}: ${written.text.slice(0, 200)}`);
        const seen = await Promise.all(watchers.map((watch) => watch(enabled)));
        if (seen.some((one) => one === null)) samples.missing += 1;
        const found = seen.filter((one): one is Seen => one !== null);
        const delays = found.map((one) => Math.max(0, one.at - t0));
        samples.perNode.push(...delays);
        for (const one of found) if (one.asked !== undefined) samples.askedBy.push(Math.max(0, one.asked - t0));
        if (delays.length === seen.length) samples.lastNode.push(Math.max(...delays));
        await sleep(PAUSE_MS);
      }
      results.push(samples);
    }
    return results;
  } finally {
    for (const stream of [...streams, ...pages]) stream.close();
  }
}
