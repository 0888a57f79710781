/**
 * The real OpenFeature web SDK (`@openfeature/web-sdk`) with the generic OFREP web provider
 * (`@openfeature/ofrep-web-provider`), run in Node with the `eventsource` polyfill, against flagpole on a
 * socket: bulk evaluation for the context, userId targeting, a json payload variant, an unknown flag, a change
 * seen through the event stream with polling off, the bulk `ETag` answered 304 when a change leaves the
 * context's flags as they were, a context change, and a stream ticket that expired while the server restarted.
 */
import { ErrorCode, OpenFeature } from '@openfeature/web-sdk';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
import { EventSource } from 'eventsource';
import { expect, vi } from 'vitest';
import { addStrategy, flagPath } from '../helpers/flags.js';
import { servedTest } from '../http/client/stream-fixtures.js';
import { apiToken, BULK, buildOfrepWorld } from '../http/ofrep/ofrep-fixtures.js';
import { untilState } from '../helpers/wait.js';

/** A served harness (`env` as `servedTest`) whose test sees a global `EventSource` (the polyfill) for as long as it runs, as a browser has. */
function browserTest(env: Record<string, string> = {}) {
  return servedTest(env).extend<{ eventSource: void }>({
    eventSource: [async ({}, use) => {
      const global = globalThis as { EventSource?: unknown };
      const before = global.EventSource;
      global.EventSource = EventSource;
      try {
        await use();
      } finally {
        global.EventSource = before;
      }
    }, { auto: true }],
  });
}

const test = browserTest();

test('flags for the context, a change through the event stream without polling, 304 on an unchanged answer', async ({ h, base, seen }) => {
  await buildOfrepWorld(h);
  const provider = new OFREPWebProvider({
    baseUrl: base, headers: [['Authorization', await apiToken(h, 'frontend')]],
    pollInterval: 0, changeDetection: 'sse', cacheMode: 'disabled', disableVisibilityRefresh: true,
  });
  const domain = 'ofrep-web';
  await OpenFeature.setProviderAndWait(domain, provider, { targetingKey: 'alice', plan: 'pro' });
  const client = OpenFeature.getClient(domain);
  try {
    expect(client.getBooleanValue('dark-mode', false)).toBe(true);
    expect(client.getBooleanValue('beta', false)).toBe(true);
    expect(client.getObjectDetails('theme', {})).toMatchObject({ value: { color: 'teal', sizes: [1, 2, 3] }, variant: 'teal', reason: 'SPLIT' });
    expect(client.getNumberValue('limit', 0)).toBe(42);
    expect(client.getBooleanDetails('no-such-flag', true)).toMatchObject({ value: true, errorCode: ErrorCode.FLAG_NOT_FOUND });
    // The provider opened the stream the bulk answer named.
    await expect.poll(() => seen.some((r) => r.path === '/ofrep/v1/events' && r.status === 200), untilState(10)).toBe(true);
    const bulkCalls = () => seen.filter((r) => r.path === BULK);
    expect(bulkCalls()).toHaveLength(1);

    // A toggle reaches the SDK through the stream; the provider fetches once more, nothing polls.
    expect((await h.req('POST', `${flagPath('dark-mode')}/environments/development/off`)).status).toBe(200);
    await expect.poll(() => client.getBooleanValue('dark-mode', true), untilState(10)).toBe(false);
    expect(bulkCalls().map((r) => r.status)).toEqual([200, 200]);

    // A change that leaves this context's flags as they were: the refetch presents the ETag and gets a 304.
    await addStrategy(h, 'greeting', 'development', { name: 'userWithId', parameters: { userIds: 'carol' } });
    await expect.poll(() => bulkCalls().length, untilState(10)).toBe(3);
    expect(bulkCalls()[2]).toMatchObject({ status: 304, ifNoneMatch: expect.stringMatching(/^W\/"/) });
    expect(client.getStringValue('greeting', '')).toBe('hello, world');

    // Another context: the provider evaluates again.
    await OpenFeature.setContext(domain, { targetingKey: 'bob' });
    expect(client.getBooleanValue('beta', true)).toBe(false);
    // Still one stream, and it still carries changes.
    expect((await h.req('POST', `${flagPath('dark-mode')}/environments/development/on`)).status).toBe(200);
    await expect.poll(() => client.getBooleanValue('dark-mode', false), untilState(10)).toBe(true);
    expect(seen.filter((r) => r.path === '/ofrep/v1/events')).toHaveLength(1);
  } finally {
    await OpenFeature.clearProviders();
  }
});

const shortTickets = browserTest({ OFREP_STREAM_TICKET_SECONDS: '10' });

shortTickets('after a restart past its ticket\'s expiry, the provider is refused (401), fetches a fresh URL and sees changes again', async ({ h, base, seen }) => {
  await buildOfrepWorld(h);
  const provider = new OFREPWebProvider({
    baseUrl: base, headers: [['Authorization', await apiToken(h, 'frontend')]],
    pollInterval: 0, changeDetection: 'sse', cacheMode: 'disabled', disableVisibilityRefresh: true,
  });
  const domain = 'ofrep-web-expiry';
  await OpenFeature.setProviderAndWait(domain, provider, { targetingKey: 'alice' });
  const client = OpenFeature.getClient(domain);
  try {
    await expect.poll(() => seen.some((r) => r.path === '/ofrep/v1/events' && r.status === 200), untilState(10)).toBe(true);
    // Past the ticket's life (at most 10 s) on the clock the server reads (its Date; every timer stays real),
    // rather than waiting it out; then restart: the stream ends and the EventSource reconnects with it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10_500, shouldAdvanceTime: true });
    await h.restart();
    expect((await h.req('POST', `${flagPath('dark-mode')}/environments/development/off`)).status).toBe(200);
    await expect.poll(() => client.getBooleanValue('dark-mode', true), untilState(50)).toBe(false);
    const streams = () => seen.filter((r) => r.path === '/ofrep/v1/events').map((r) => r.status);
    await expect.poll(() => streams().at(-1), untilState()).toBe(200);
    expect(streams()[0]).toBe(200);
    expect(streams()).toContain(401);
    // The fresh stream carries the next change.
    expect((await h.req('POST', `${flagPath('dark-mode')}/environments/development/on`)).status).toBe(200);
    await expect.poll(() => client.getBooleanValue('dark-mode', false), untilState(10)).toBe(true);
  } finally {
    vi.useRealTimers();
    await OpenFeature.clearProviders();
  }
}, 40_000);
