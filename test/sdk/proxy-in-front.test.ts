/**
 * A read tier in front of flagpole (docs/scaling.md): the real open-source `@unleash/proxy`, reading flagpole's
 * `GET /api/client/features` over a real socket with a client token, serving the real browser SDK
 * (`unleash-proxy-client`). A change made through flagpole's admin API reaches the browser SDK through the proxy;
 * between changes flagpole answers the proxy's polls with 304 (its `ETag` revalidated), so a proxy costs flagpole
 * one small request per refresh interval whatever the number of browsers behind it. A proxy configured with the
 * wrong kind of token, or an unknown one, serves nothing (503) and flagpole refuses every poll with a 4xx.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, createProxyConfig } from '@unleash/proxy';
import type { IProxyOption } from '@unleash/proxy/dist/config.js';
import { createNewClient } from '@unleash/proxy/dist/create-client.js';
import { LogLevel } from '@unleash/proxy/dist/logger.js';
import { InMemStorageProvider } from 'unleash-client';
import { UnleashClient } from 'unleash-proxy-client';
import { expect } from 'vitest';
import { addStrategy, createFlag, flagPath, strategiesPath, switchOn } from '../helpers/flags.js';
import { clientToken } from '../http/client/client-fixtures.js';
import { servedTest, type SeenRequest } from '../http/client/stream-fixtures.js';
import { closeGracefully } from '../helpers/close-server.js';
import { countedFetch } from '../helpers/counted-fetch.js';
import { untilState } from '../helpers/wait.js';

const test = servedTest();
const PROXY_SECRET = 'proxy-secret-for-browsers';
/** The proxy's refresh interval in the test (production: a few seconds; see docs/scaling.md). */
const REFRESH_MS = 100;

interface RunningProxy {
  /** The URL browsers are given: `<proxy>/proxy`. */
  url: string;
  /** Resolves with the error of the proxy's SDK that stops its polling (flagpole refused its token), if one comes. */
  stoppedPolling: Promise<string>;
  close(): Promise<void>;
}

/** Starts `@unleash/proxy` on a free port over flagpole's API at `apiUrl`, as its env variables would configure it. */
async function startProxy(apiUrl: string, token: string): Promise<RunningProxy> {
  const options = {
    unleashUrl: apiUrl, unleashApiToken: token, clientKeys: [PROXY_SECRET], refreshInterval: REFRESH_MS,
    metricsInterval: 600_000, logLevel: LogLevel.fatal, unleashAppName: 'flagpole-read-tier-test', environment: 'development',
    // In memory: the SDK's default backup file in the OS temp directory would carry flags from one test to the
    // next (a proxy that cannot read flagpole at start serves its last backup; docs/scaling.md).
    storageProvider: new InMemStorageProvider() as IProxyOption['storageProvider'],
  };
  const sdk = createNewClient({ ...createProxyConfig(options), disableMetrics: true });
  // unleash-client says so when a 401 or 403 makes it stop polling for good.
  const stoppedPolling = new Promise<string>((resolve) => {
    (sdk as unknown as { unleash: { on(event: 'error', listener: (error: unknown) => void): void } }).unleash.on('error', (error) => {
      if (String(error).includes('Stopping refresh')) resolve(String(error));
    });
  });
  const app = createApp(options, sdk);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const close = closeGracefully(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/proxy`,
    stoppedPolling,
    close: async () => {
      sdk.destroy();
      await close();
    },
  };
}

/** The proxy's answer to a browser's request (503 until its SDK has read flagpole's flags). */
async function proxyStatus(proxy: RunningProxy): Promise<number> {
  const response = await fetch(`${proxy.url}?userId=alice`, { headers: { authorization: PROXY_SECRET } });
  await response.arrayBuffer();
  return response.status;
}

/** The browser SDK's requests, counted: the test stops it and waits for `settled()` before it closes the servers. */
const browserFetch = countedFetch();

async function startBrowser(proxy: RunningProxy): Promise<UnleashClient> {
  const client = new UnleashClient({ url: proxy.url, clientKey: PROXY_SECRET, appName: 'browser', refreshInterval: 1, disableMetrics: true, fetch: browserFetch.fetch, context: { userId: 'alice' } });
  const ready = new Promise<void>((resolve) => client.on('ready', () => resolve()));
  await client.start();
  await ready;
  return client;
}

const featurePolls = (seen: SeenRequest[]): SeenRequest[] => seen.filter((r) => r.path === '/api/client/features');

test('a change made through the admin API reaches unleash-proxy-client through @unleash/proxy; between changes the proxy\'s polls are 304', async ({ h, url, seen }) => {
  await createFlag(h, 'checkout');
  await addStrategy(h, 'checkout', 'development');
  await createFlag(h, 'banner');
  const banner = await addStrategy(h, 'banner', 'development', { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'banner' } });
  await switchOn(h, 'banner');
  await createFlag(h, 'retire');
  await addStrategy(h, 'retire', 'development');
  await switchOn(h, 'retire');
  const proxy = await startProxy(url, await clientToken(h, ['default'], 'development'));
  let browser: UnleashClient | undefined;
  try {
    await expect.poll(() => proxyStatus(proxy), untilState()).toBe(200);
    browser = await startBrowser(proxy);
    const b = browser;
    expect([b.isEnabled('checkout'), b.isEnabled('banner'), b.isEnabled('retire')]).toEqual([false, true, true]);

    // Nothing changes: the proxy revalidates its ETag and flagpole answers 304 with no body.
    await expect.poll(() => featurePolls(seen).filter((r) => r.status === 304).length, untilState()).toBeGreaterThanOrEqual(3);
    expect(featurePolls(seen).filter((r) => r.status === 304).every((r) => r.ifNoneMatch !== null)).toBe(true);

    // A toggle, a strategy change and an archive, each through the admin API, each reaching the browser.
    await switchOn(h, 'checkout');
    await expect.poll(() => b.isEnabled('checkout'), untilState()).toBe(true);
    const put = await h.json('PUT', `${strategiesPath('banner', 'development')}/${banner.id}`, { name: 'flexibleRollout', parameters: { rollout: '0', stickiness: 'default', groupId: 'banner' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await expect.poll(() => b.isEnabled('banner'), untilState()).toBe(false);
    expect((await h.req('DELETE', flagPath('retire'))).status).toBe(202);
    await expect.poll(() => b.getAllToggles().map((t) => t.name).sort(), untilState()).toEqual(['checkout']);
    expect(b.isEnabled('retire')).toBe(false);

    // flagpole sent the flags once at the start and once per change; every other poll was a 304.
    const polls = featurePolls(seen);
    const full = polls.filter((r) => r.status === 200).length;
    expect(polls.every((r) => r.status === 200 || r.status === 304), JSON.stringify(polls.map((r) => r.status))).toBe(true);
    expect(full).toBeGreaterThanOrEqual(4);
    expect(full).toBeLessThanOrEqual(4 + 1); // + the first poll, if the proxy's first two polls raced
    expect(polls.length - full).toBeGreaterThan(full);
  } finally {
    browser?.stop();
    await browserFetch.settled();
    await proxy.close();
  }
});

test('a proxy given a frontend token or an unknown token serves nothing (503): flagpole refuses its polls, 403 and 401', async ({ h, url, seen }) => {
  await createFlag(h, 'checkout');
  await addStrategy(h, 'checkout', 'development');
  await switchOn(h, 'checkout');
  const frontend = await clientToken(h, ['default'], 'development', 'frontend');
  for (const [token, status] of [[frontend, 403], ['default:development.not-a-token-flagpole-issued', 401]] as const) {
    seen.length = 0;
    const proxy = await startProxy(url, token);
    try {
      // The SDK inside the proxy stops polling after a 401 or 403, and says so; the proxy stays unready.
      expect(await proxy.stoppedPolling).toContain(`responded ${status}`);
      expect(featurePolls(seen).length).toBeGreaterThanOrEqual(1);
      expect(featurePolls(seen).map((r) => r.status)).toEqual(featurePolls(seen).map(() => status));
      expect(await proxyStatus(proxy)).toBe(503);
    } finally {
      await proxy.close();
    }
  }
});
