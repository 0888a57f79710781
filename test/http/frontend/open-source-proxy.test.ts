/**
 * The open-source `@unleash/proxy` in front of flagpole: it reads `/api/client/features` with a client token
 * and evaluates in its own SDK; the browser SDK reading through it must get the same answers (`isEnabled`,
 * `getVariant`) as the browser SDK reading flagpole's own `/api/frontend` with a frontend token.
 *
 * The proxy needs `GET /api/client/features`, which is built on another branch: until that route is in
 * ROUTES this test is skipped (it waits for `/api/client/features`); after the merge it runs by itself.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, createProxyConfig } from '@unleash/proxy';
import { createNewClient } from '@unleash/proxy/dist/create-client.js';
import { LogLevel } from '@unleash/proxy/dist/logger.js';
import { UnleashClient } from 'unleash-proxy-client';
import { expect } from 'vitest';
import { ROUTES } from '../../../src/app.js';
import { closeGracefully } from '../../helpers/close-server.js';
import { countedFetch } from '../../helpers/counted-fetch.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { envPath } from '../../helpers/flags.js';
import { buildWorld, frontendToken, tokenOf } from './frontend-fixtures.js';
import { serveHarness } from './served.js';
import { untilState } from '../../helpers/wait.js';

const test = harnessTest({ arrange: buildWorld });
const hasClientFeatures = ROUTES.some((r) => r.method === 'get' && r.path === '/api/client/features');

/** Starts the proxy on a free port over flagpole at `base` with a client token; `close` stops its SDK and server. */
async function startProxy(base: string, clientToken: string): Promise<{ url: string; close(): Promise<void> }> {
  const options = {
    unleashUrl: `${base}/api`, unleashApiToken: clientToken, clientKeys: ['proxy-secret'], refreshInterval: 200,
    metricsInterval: 600_000, logLevel: LogLevel.error, unleashAppName: 'flagpole-proxy-test', environment: 'development',
  };
  const config = { ...createProxyConfig(options), disableMetrics: true };
  const sdk = createNewClient(config);
  const app = createApp(options, sdk);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const close = closeGracefully(server);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/proxy`,
    close: async () => {
      sdk.destroy();
      await close();
    },
  };
}

/** The browser SDKs' requests, counted: a test stops them and waits for `settled()` before it closes the servers. */
const browsers = countedFetch();

function browser(url: string, clientKey: string, userId: string): UnleashClient {
  return new UnleashClient({ url, clientKey, appName: 'browser-test', refreshInterval: 1, disableMetrics: true, fetch: browsers.fetch, context: { userId, properties: { plan: 'pro', country: 'no' } } });
}

async function started(client: UnleashClient): Promise<void> {
  const ready = new Promise<void>((resolve) => client.on('ready', () => resolve()));
  await client.start();
  await ready;
}

test.skipIf(!hasClientFeatures)('the browser SDK through @unleash/proxy answers as it does from /api/frontend', async ({ h }) => {
  const served = await serveHarness(h);
  const proxy = await startProxy(served.base, await tokenOf(h, { type: 'client', projects: ['default'], environment: 'development' }));
  const token = await frontendToken(h, ['default']);
  const clients: UnleashClient[] = [];
  try {
    // The proxy answers 503 until its SDK has read the flags.
    await expect.poll(async () => (await fetch(`${proxy.url}?userId=a`, { headers: { authorization: 'proxy-secret' } })).status, { message: 'the proxy to be ready', ...untilState() }).toBe(200);
    const viaProxy = browser(proxy.url, 'proxy-secret', 'alice');
    const direct = browser(`${served.base}/api/frontend`, token, 'alice');
    clients.push(viaProxy, direct);
    await Promise.all([started(viaProxy), started(direct)]);
    const names = ['on', 'off', 'only-alice', 'pro', 'half', 'segmented', 'archived', 'prod-only', 'other-on'];
    const answers = (c: UnleashClient) => names.map((n) => [n, c.isEnabled(n), c.getVariant(n)]);
    for (let i = 0; i < 20; i++) {
      const userId = i === 0 ? 'alice' : `user-${i}`;
      await Promise.all([viaProxy.updateContext({ userId, sessionId: '7', properties: { plan: 'pro', country: 'no' } }), direct.updateContext({ userId, sessionId: '7', properties: { plan: 'pro', country: 'no' } })]);
      expect(answers(viaProxy), userId).toEqual(answers(direct));
    }
    // A change reaches both: the proxy on its next fetch, the browser SDKs on their next poll.
    expect((await h.req('POST', `${envPath('off', 'development')}/on`)).status).toBe(200);
    await expect.poll(() => viaProxy.isEnabled('off') && direct.isEnabled('off'), { message: 'both to see "off" on', ...untilState() }).toBe(true);
  } finally {
    for (const c of clients) c.stop();
    await browsers.settled();
    await proxy.close();
    await served.close();
  }
});

test('the browser SDK reads /api/frontend directly (the half of the comparison that needs no proxy)', async ({ h }) => {
  const served = await serveHarness(h);
  const client = browser(`${served.base}/api/frontend`, await frontendToken(h, ['default']), 'alice');
  try {
    await started(client);
    expect(['on', 'only-alice', 'pro', 'segmented'].every((n) => client.isEnabled(n))).toBe(true);
    expect(['off', 'archived', 'prod-only', 'other-on'].some((n) => client.isEnabled(n))).toBe(false);
  } finally {
    client.stop();
    await browsers.settled();
    await served.close();
  }
});
