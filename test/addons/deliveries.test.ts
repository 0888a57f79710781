/**
 * Deliveries that survive: retries with growing waits while a receiver is down or failing (short waits here, set
 * with ADDON_RETRY_*; the tests wait on the delivery log, never on a clock), delivery from the durable position
 * after a restart, isolation from a receiver that hangs, filters, disabled addons, and the delivery log's bound.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { harness, type Harness } from '../helpers/harness.js';
import { receiver, type Receiver } from '../helpers/receiver.js';
import { HEAVY_TEST_MS, untilState } from '../helpers/wait.js';

// Each test starts a service, receivers and deliveries: on a loaded machine that outlasts vitest's 30 s default.
vi.setConfig({ testTimeout: HEAVY_TEST_MS, hookTimeout: HEAVY_TEST_MS });

const FAST = { UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', ADDON_RETRY_FIRST_MS: '10', ADDON_RETRY_MAX_MS: '40' };

let h: Harness;
const receivers: Receiver[] = [];
afterEach(async () => {
  await h?.close();
  for (const r of receivers.splice(0)) await r.close();
});

async function start(env: Record<string, string> = {}): Promise<Harness> {
  h = await harness({ ...FAST, ...env }, undefined, { deliver: true });
  return h;
}

async function listening(reply?: Receiver['reply']): Promise<Receiver> {
  const r = await receiver(reply);
  receivers.push(r);
  return r;
}

const webhook = async (r: Receiver, more: Record<string, unknown> = {}) => {
  const created = await h.json('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: `${r.url}/hook` }, events: ['feature-created', 'feature-environment-enabled'], ...more });
  expect(created.status).toBe(201);
  return created.body.id as number;
};

const createFlag = async (name: string, project = 'default') => expect((await h.json('POST', `/api/admin/projects/${project}/features`, { name })).status).toBe(201);
const logOf = async (id: number, limit = 100) => (await h.json('GET', `/api/admin/addons/${id}/events?limit=${limit}`)).body.integrationEvents as { state: string; stateDetails: string; attempt: number; retryAt: string | null; event: { featureName: string } }[];
/** The flag names a receiver got, in order. */
const namesAt = (r: Receiver) => r.received.map((x) => (x.json as { featureName: string }).featureName);

describe('retries', () => {
  test('a receiver that is down gets the events once it is up, in order; each failed attempt is logged with the next one\'s time', async () => {
    await start();
    const r = await listening();
    const id = await webhook(r);
    await r.down();
    for (const name of ['a', 'b', 'c']) await createFlag(name);
    await expect.poll(async () => (await logOf(id)).filter((e) => e.state === 'failed').length).toBeGreaterThanOrEqual(3);
    const failing = (await logOf(id))[0]!;
    expect(failing).toMatchObject({ state: 'failed', event: { featureName: 'a' }, retryAt: expect.any(String) });
    expect(failing.stateDetails).toMatch(/^Webhook request failed with status code: ECONNREFUSED\.\nAttempt \d+ did not get through; the next is due at /);
    await r.up();
    await expect.poll(async () => (await logOf(id)).filter((e) => e.state === 'success').map((e) => e.event.featureName)).toEqual(['c', 'b', 'a']);
    expect(namesAt(r)).toEqual(['a', 'b', 'c']);
    const log = await logOf(id);
    expect(log.find((e) => e.state === 'success' && e.event.featureName === 'a')!.attempt).toBeGreaterThan(1);
  });

  test('5xx and 429 are tried again; another 4xx or a redirect fails for good and the next event goes on', async () => {
    await start();
    const answers = [503, 429, 200, 404, 302, 200];
    const r = await listening(() => ({ status: answers.shift() ?? 200, headers: { location: 'http://127.0.0.1:1/elsewhere' } }));
    const id = await webhook(r);
    for (const name of ['a', 'b', 'c', 'd']) await createFlag(name);
    await expect.poll(async () => (await logOf(id)).length).toBe(6);
    expect(namesAt(r)).toEqual(['a', 'a', 'a', 'b', 'c', 'd']);
    const log = (await logOf(id)).reverse();
    expect(log.map((e) => [e.event.featureName, e.state, e.attempt, e.retryAt === null])).toEqual([
      ['a', 'failed', 1, false], ['a', 'failed', 2, false], ['a', 'success', 3, true],
      ['b', 'failed', 1, true], ['c', 'failed', 1, true], ['d', 'success', 1, true],
    ]);
    expect(log[3]!.stateDetails).toBe('Webhook request failed with status code: 404.');
    expect(log[4]!.stateDetails).toBe('Webhook request failed with status code: 302.');
  });

  test('past ADDON_RETRY_GIVE_UP_MS an event is given up, logged so, and the next is delivered', async () => {
    await start({ ADDON_RETRY_GIVE_UP_MS: '1' });
    let fail = true;
    const r = await listening(() => ({ status: fail ? 500 : 200 }));
    const id = await webhook(r);
    await createFlag('lost');
    await expect.poll(async () => (await logOf(id))[0]?.stateDetails ?? '').toMatch(/Gave up after \d+ attempts since /);
    fail = false;
    await createFlag('next');
    await expect.poll(async () => (await logOf(id))[0]).toMatchObject({ state: 'success', event: { featureName: 'next' } });
  });

  test('the App for Slack retries only the channels that failed, and a platform error fails for good', async () => {
    let general = 0;
    const slack = await listening((req) => {
      const channel = new URLSearchParams(req.text).get('channel');
      if (channel === 'general' && general++ === 0) return { status: 503 };
      if (channel === 'nowhere') return { status: 200, body: '{"ok":false,"error":"channel_not_found"}' };
      return { status: 200, body: '{"ok":true}' };
    });
    await start({ SLACK_API_URL: slack.url });
    const created = await h.json('POST', '/api/admin/addons', { provider: 'slack-app', parameters: { accessToken: 'xoxb-1', defaultChannels: 'general,ops,nowhere' }, events: ['feature-created'] });
    await createFlag('f');
    await expect.poll(async () => { const [newest] = await logOf(created.body.id); return newest ? newest.retryAt : 'none yet'; }).toBeNull();
    const channels = slack.received.map((x) => new URLSearchParams(x.text).get('channel'));
    expect(channels).toEqual(['general', 'ops', 'nowhere', 'general']);
    const [last, first] = await logOf(created.body.id);
    expect(first!.stateDetails).toMatch(/^Some \(2 of 3\) Slack client calls failed\. Errors: An HTTP error occurred: status code 503 A platform error occurred: \{"ok":false,"error":"channel_not_found"\}\nAttempt 1/);
    expect(last).toMatchObject({ state: 'successWithErrors', stateDetails: 'Some (1 of 3) Slack client calls failed. Errors: A platform error occurred: {"ok":false,"error":"channel_not_found"}' });
  });
});

describe('durability', () => {
  test('events committed while the receiver failed are delivered after a restart, from the durable position', async () => {
    await start();
    let up = false;
    const r = await listening(() => ({ status: up ? 200 : 503 }));
    const id = await webhook(r);
    for (const name of ['a', 'b']) await createFlag(name);
    await expect.poll(async () => (await logOf(id)).length).toBeGreaterThan(0);
    await h.restart();
    await createFlag('c');
    up = true;
    await expect.poll(() => namesAt(r).filter((n, i, all) => all.indexOf(n) === i)).toEqual(['a', 'b', 'c']);
    // Once delivered (its log entry and the position after it are one write), a restart delivers nothing again.
    await expect.poll(async () => (await logOf(id))[0]).toMatchObject({ state: 'success', event: { featureName: 'c' } });
    const count = r.received.length;
    await h.restart();
    await createFlag('d');
    await expect.poll(() => namesAt(r).at(-1)).toBe('d');
    expect(namesAt(r).slice(count)).toEqual(['d']);
  });

  test('an addon starts with the events after its creation; a disabled one gets none, and enabled again only those after', async () => {
    await start();
    await createFlag('before');
    const r = await listening();
    const id = await webhook(r);
    await createFlag('after');
    await expect.poll(() => namesAt(r)).toEqual(['after']);
    const off = await h.json('PUT', `/api/admin/addons/${id}`, { provider: 'webhook', parameters: { url: '*****' }, events: ['feature-created'], enabled: false });
    expect(off.status).toBe(200);
    await expect.poll(() => h.registry.deliveries.delivering(id)).toBe(false);
    await createFlag('while-off');
    await h.json('PUT', `/api/admin/addons/${id}`, { provider: 'webhook', parameters: { url: '*****' }, events: ['feature-created'], enabled: true });
    await expect.poll(() => h.registry.deliveries.delivering(id)).toBe(true);
    await createFlag('on-again');
    await expect.poll(() => namesAt(r)).toEqual(['after', 'on-again']);
  });

  test('a deleted addon stops, and its delivery log goes with it', async () => {
    await start();
    const r = await listening();
    const id = await webhook(r);
    await createFlag('a');
    await expect.poll(async () => (await logOf(id)).length).toBe(1);
    await h.req('DELETE', `/api/admin/addons/${id}`);
    await expect.poll(async () => (await logOf(id)).length).toBe(0);
    await createFlag('b');
    const other = await webhook(r);
    await createFlag('c');
    await expect.poll(async () => (await logOf(other)).length).toBe(1);
    expect(namesAt(r)).toEqual(['a', 'c']);
  });

  test('the delivery log keeps the newest 200 entries of an addon', async () => {
    await start({ ADDON_RETRY_FIRST_MS: '1', ADDON_RETRY_MAX_MS: '1' });
    const r = await listening(() => ({ status: 500 }));
    const id = await webhook(r);
    await createFlag('a');
    await expect.poll(async () => (await logOf(id, 1))[0]?.attempt ?? 0, untilState()).toBeGreaterThan(230);
    const page = async (offset: number) => (await h.json('GET', `/api/admin/addons/${id}/events?limit=100&offset=${offset}`)).body.integrationEvents.length;
    await r.down();
    await expect.poll(async () => [await page(100), await page(199), await page(200)]).toEqual([100, 1, 0]);
  });
});

describe('filters', () => {
  test('events, projects and environments filter as in Unleash (an empty list or * takes all)', async () => {
    await start();
    expect((await h.json('POST', '/api/admin/projects', { id: 'other', name: 'other' })).status).toBe(201);
    const only = await listening();
    const star = await listening();
    await webhook(only, { projects: ['default'], environments: ['production'] });
    await webhook(star, { projects: ['*'], environments: ['*'] });
    await createFlag('in-default');
    await createFlag('in-other', 'other');
    for (const env of ['development', 'production']) {
      await h.json('POST', `/api/admin/projects/default/features/in-default/environments/${env}/strategies`, { name: 'default' });
      await h.json('POST', `/api/admin/projects/default/features/in-default/environments/${env}/on`);
    }
    const seen = (r: Receiver) => r.received.map((x) => { const e = x.json as { type: string; project: string; environment: string | null }; return `${e.type} ${e.project} ${e.environment}`; });
    await expect.poll(() => seen(star).length).toBe(4);
    await expect.poll(() => seen(only)).toEqual(['feature-created default null', 'feature-environment-enabled default production']);
  });
});

describe('isolation', () => {
  test('a receiver that hangs holds up neither writes and reads nor another addon\'s deliveries', async () => {
    await start({ ADDON_REQUEST_TIMEOUT_MS: '600000' });
    const hanging = await listening(() => 'hang');
    const healthy = await listening();
    const stuck = await webhook(hanging);
    await webhook(healthy);
    await createFlag('first');
    await expect.poll(() => hanging.received.length).toBe(1);
    for (let i = 0; i < 20; i += 1) {
      await createFlag(`f${i}`);
      expect((await h.json('POST', `/api/admin/projects/default/features/f${i}/environments/development/strategies`, { name: 'default' })).status).toBe(200);
      expect((await h.req('POST', `/api/admin/projects/default/features/f${i}/environments/development/on`)).status).toBe(200);
      expect((await h.json('GET', `/api/admin/projects/default/features/f${i}`)).status).toBe(200);
    }
    await expect.poll(() => healthy.received.length).toBe(41);
    expect(hanging.received.length).toBe(1);
    expect(await logOf(stuck)).toEqual([]);
  });
});
