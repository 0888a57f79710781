// @vitest-environment happy-dom
/**
 * The real React SDK (`@unleash/proxy-client-react` 5.x, over `unleash-proxy-client`) rendered with React 19 in a
 * test DOM (happy-dom: jsdom 27 and later need Node 22), reading flagpole's frontend API on a socket with a
 * frontend token: a component shows the flag for its user, and a flag switched off, then on, in flagpole reaches
 * the rendered component on the SDK's next refresh. The same through `@unleash/nextjs`'s `FlagProvider` and
 * `useFlag`, what a Next.js page renders on the client.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { FlagProvider, useFlag, useFlagsStatus } from '@unleash/proxy-client-react';
import { FlagProvider as NextFlagProvider, useFlag as useNextFlag, useFlagsStatus as useNextFlagsStatus } from '@unleash/nextjs';
import { createElement, type FunctionComponent, type ReactNode } from 'react';
import { afterEach, expect } from 'vitest';
import { addStrategy, createFlag, envPath, switchOn } from '../helpers/flags.js';
import { countedFetch } from '../helpers/counted-fetch.js';
import type { Harness } from '../helpers/harness.js';
import { clientToken } from '../http/client/client-fixtures.js';
import { servedTest } from '../http/client/stream-fixtures.js';
import { untilState } from '../helpers/wait.js';

const test = servedTest();
afterEach(cleanup);

/** `checkout`, on in development for `alice` only. */
async function checkoutForAlice(h: Harness): Promise<void> {
  await createFlag(h, 'checkout');
  await addStrategy(h, 'checkout', 'development', { name: 'userWithId', parameters: { userIds: 'alice' } });
  await switchOn(h, 'checkout', 'development');
}

const toggle = async (h: Harness, state: 'on' | 'off') => expect((await h.req('POST', `${envPath('checkout', 'development')}/${state}`)).status).toBe(200);

/** What the component shows once the flags are ready: `on` or `off`. */
const shown = (id: string) => (screen.getByTestId(id) as unknown as { textContent: string | null }).textContent;

/**
 * happy-dom 21 does not implement `RequestInit.cache`, and on a 304 to a request whose `If-None-Match` the page set
 * itself it looks for a copy in its own cache and, finding none, throws ("ResponseCache: Cached response not
 * found") where a browser hands the 304 to the script. The SDK asks for `cache: 'no-cache'`; this passes that on as
 * the request header happy-dom's cache reads, so the cache stays out of the way as a browser's does.
 */
const domFetch = countedFetch((input, init = {}) =>
  fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'cache-control': 'no-cache' } }));

/** A component reading `checkout` through one SDK's hooks (the React SDK's, or the Next.js SDK's over its own copy). */
const checkout = (id: string, read: (name: string) => boolean, status: () => { flagsReady: boolean }): FunctionComponent => function Checkout() {
  const enabled = read('checkout');
  const { flagsReady } = status();
  return createElement('p', { 'data-testid': id }, flagsReady ? (enabled ? 'on' : 'off') : 'loading');
};

/** Unmounts the page (its providers stop their SDKs) and waits until a refresh already sent is answered, before the server closes. */
async function unmount(page: { unmount(): void }): Promise<void> {
  page.unmount();
  await domFetch.settled();
}

/** The config both providers get: flagpole's frontend API, a one-second refresh, the user in the context. */
const configFor = (url: string, clientKey: string, userId: string) => ({
  url: `${url}frontend`, clientKey, appName: 'flagpole-react-test', refreshInterval: 1, disableMetrics: true, context: { userId }, fetch: domFetch.fetch,
});

test('a rendered component shows the flag for its user and follows it off and on again', async ({ h, url }) => {
  await checkoutForAlice(h);
  const key = await clientToken(h, ['*'], 'development', 'frontend');
  const app = (userId: string, id: string): ReactNode =>
    createElement(FlagProvider, { config: configFor(url, key, userId) }, createElement(checkout(id, useFlag, useFlagsStatus)));
  const page = render(createElement('div', null, app('alice', 'alice'), app('bob', 'bob')));

  await waitFor(() => expect(shown('alice')).toBe('on'), untilState());
  await waitFor(() => expect(shown('bob')).toBe('off'), untilState());
  await toggle(h, 'off');
  await waitFor(() => expect(shown('alice')).toBe('off'), untilState());
  await toggle(h, 'on');
  await waitFor(() => expect(shown('alice')).toBe('on'), untilState());
  await unmount(page);
});

test('@unleash/nextjs FlagProvider and useFlag, as a Next.js page renders them in the browser, follow the flag off', async ({ h, url }) => {
  await checkoutForAlice(h);
  const key = await clientToken(h, ['*'], 'development', 'frontend');
  const page = render(createElement(NextFlagProvider, { config: configFor(url, key, 'alice'), children: createElement(checkout('next', useNextFlag, useNextFlagsStatus)) }));

  await waitFor(() => expect(shown('next')).toBe('on'), untilState());
  await toggle(h, 'off');
  await waitFor(() => expect(shown('next')).toBe('off'), untilState());
  await unmount(page);
});
