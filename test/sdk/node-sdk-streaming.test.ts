/**
 * The real Node SDK (`unleash-client` 6.12) in streaming mode (`experimentalMode: {type: 'streaming'}`) against
 * a real socket: ready from the hydration, a toggle seen through the stream without polling, archive and delete as
 * removals, a segment change, a server restart resumed from `Last-Event-ID` with nothing missed, 429 past the
 * stream limit and 404 with streaming off (the SDK falls back to polling), and the fetch-mode switch.
 */
import { describe, expect } from 'vitest';
import { addStrategy, createFlag, flagPath, switchOn } from '../helpers/flags.js';
import { clientToken } from '../http/client/client-fixtures.js';
import { servedTest } from '../http/client/stream-fixtures.js';
import { startSdk } from './unleash-sdk.js';
import { untilState } from '../helpers/wait.js';

const test = servedTest();
const STREAMING = { type: 'streaming' } as const;

describe('streaming', () => {
  test('ready from the hydration; a toggle through the stream, without polling; archive and delete are removals', async ({ h, url, seen }) => {
    await createFlag(h, 'checkout');
    await createFlag(h, 'legacy');
    const token = await clientToken(h, ['default'], 'development');
    const { sdk, ready, errors } = startSdk(url, token, STREAMING);
    try {
      await ready;
      expect(sdk.getFeatureToggleDefinition('checkout')).toMatchObject({ name: 'checkout', enabled: false });
      expect(sdk.isEnabled('checkout')).toBe(false);
      await addStrategy(h, 'checkout', 'development');
      await switchOn(h, 'checkout');
      await expect.poll(() => sdk.isEnabled('checkout'), untilState(10)).toBe(true);
      expect((await h.req('POST', `${flagPath('checkout')}/environments/development/off`)).status).toBe(200);
      await expect.poll(() => sdk.isEnabled('checkout'), untilState(10)).toBe(false);
      expect((await h.req('DELETE', flagPath('legacy'))).status).toBe(202);
      await expect.poll(() => sdk.getFeatureToggleDefinition('legacy'), untilState(10)).toBeUndefined();
      expect((await h.req('POST', '/api/admin/projects/default/revive', { features: ['legacy'] })).status).toBeLessThan(300);
      await expect.poll(() => sdk.getFeatureToggleDefinition('legacy')?.name, untilState(10)).toBe('legacy');
      expect((await h.req('DELETE', flagPath('legacy'))).status).toBe(202);
      expect((await h.req('POST', '/api/admin/projects/default/delete', { features: ['legacy'] })).status).toBeLessThan(300);
      await expect.poll(() => sdk.getFeatureToggleDefinition('legacy'), untilState(10)).toBeUndefined();
      // One stream, no polling.
      expect(seen.map((r) => r.path)).toEqual(['/api/client/streaming']);
      expect(errors).toEqual([]);
    } finally {
      sdk.destroy();
    }
  });

  test('a segment change reaches the SDK', async ({ h, url }) => {
    const segment = await h.json('POST', '/api/admin/segments', { name: 'testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    expect(segment.status).toBe(201);
    await createFlag(h, 'beta');
    await addStrategy(h, 'beta', 'development', { name: 'default', segments: [segment.body.id] });
    await switchOn(h, 'beta');
    const { sdk, ready } = startSdk(url, await clientToken(h, ['default'], 'development'), STREAMING);
    try {
      await ready;
      expect([sdk.isEnabled('beta', { userId: '1' }), sdk.isEnabled('beta', { userId: '2' })]).toEqual([true, false]);
      expect((await h.req('PUT', `/api/admin/segments/${segment.body.id}`, { name: 'testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['2'] }] })).status).toBeLessThan(300);
      await expect.poll(() => [sdk.isEnabled('beta', { userId: '1' }), sdk.isEnabled('beta', { userId: '2' })], untilState(10)).toEqual([false, true]);
    } finally {
      sdk.destroy();
    }
  });

  test('a server restart ends the stream; the SDK reconnects with Last-Event-ID and misses nothing', async ({ h, url, seen }) => {
    await createFlag(h, 'before');
    const { sdk, ready, errors } = startSdk(url, await clientToken(h, ['default'], 'development'), STREAMING);
    try {
      await ready;
      const revision = h.registry.feed.revision;
      await h.restart();
      // Changes while the SDK is away (it reconnects after its retry delay, 1 to 2 s).
      await createFlag(h, 'after');
      await addStrategy(h, 'before', 'development');
      await switchOn(h, 'before');
      await expect.poll(() => sdk.isEnabled('before'), untilState()).toBe(true);
      expect(sdk.getFeatureToggleDefinition('after')?.name).toBe('after');
      const streams = seen.filter((r) => r.path === '/api/client/streaming' && r.status === 200);
      expect(streams.length).toBeGreaterThanOrEqual(2);
      expect(streams[0]!.lastEventId).toBeNull();
      expect(streams.at(-1)!.lastEventId).toBe(String(revision));
      expect(errors).toEqual([]);
    } finally {
      sdk.destroy();
    }
  });
});

describe('falling back to polling', () => {
  const limited = servedTest({ CLIENT_STREAMING_MAX_CONNECTIONS: '1' });
  limited('past the stream limit the SDK gets 429, polls /api/client/features instead, and still sees changes', async ({ h, url, seen }) => {
    await createFlag(h, 'shared');
    const token = await clientToken(h, ['default'], 'development');
    const first = startSdk(url, token, STREAMING, 100);
    const second = startSdk(url, token, STREAMING, 100);
    try {
      await first.ready;
      await second.ready;
      expect(seen.some((r) => r.path === '/api/client/streaming' && r.status === 429)).toBe(true);
      await expect.poll(() => seen.some((r) => r.path === '/api/client/features' && r.status === 200), untilState()).toBe(true);
      await addStrategy(h, 'shared', 'development');
      await switchOn(h, 'shared');
      await expect.poll(() => [first.sdk.isEnabled('shared'), second.sdk.isEnabled('shared')], untilState(10)).toEqual([true, true]);
    } finally {
      first.sdk.destroy();
      second.sdk.destroy();
    }
  });

  const off = servedTest({ CLIENT_STREAMING: 'false' });
  off('with CLIENT_STREAMING=false the SDK gets 404 and polls', async ({ h, url, seen }) => {
    await createFlag(h, 'plain');
    const { sdk, ready } = startSdk(url, await clientToken(h, ['default'], 'development'), STREAMING, 100);
    try {
      await ready;
      expect(sdk.getFeatureToggleDefinition('plain')?.name).toBe('plain');
      expect(seen.filter((r) => r.path === '/api/client/streaming').map((r) => r.status)).toEqual([404]);
    } finally {
      sdk.destroy();
    }
  });

  const switching = servedTest({ CLIENT_FETCH_MODE: 'streaming' });
  switching('CLIENT_FETCH_MODE=streaming: a polling SDK is told to stream (fetch-mode header) and then streams', async ({ h, url, seen }) => {
    await createFlag(h, 'moved');
    const { sdk, ready } = startSdk(url, await clientToken(h, ['default'], 'development'), { type: 'polling', format: 'full' }, 100);
    try {
      await ready;
      expect(seen.map((r) => r.path).slice(0, 2)).toEqual(['/api/client/features', '/api/client/streaming']);
      await addStrategy(h, 'moved', 'development');
      await switchOn(h, 'moved');
      await expect.poll(() => sdk.isEnabled('moved'), untilState(10)).toBe(true);
      expect(seen.filter((r) => r.path === '/api/client/features')).toHaveLength(1);
    } finally {
      sdk.destroy();
    }
  });
});
