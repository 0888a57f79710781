/**
 * The real Node SDK (`unleash-client` 6.12) polling the delta API (`experimentalMode: {type: 'polling',
 * format: 'delta'}`) over a real socket: a hydration first, then deltas against the `ETag` it echoes, 304s
 * when nothing changed, removals, segments, a client further behind than the history getting a hydration, and
 * a restart.
 */
import { describe, expect } from 'vitest';
import { addStrategy, createFlag, flagPath, switchOn } from '../helpers/flags.js';
import { clientToken } from '../http/client/client-fixtures.js';
import { servedTest, type SeenRequest } from '../http/client/stream-fixtures.js';
import { startSdk } from './unleash-sdk.js';
import { untilState } from '../helpers/wait.js';

const test = servedTest();
const DELTA = { type: 'polling', format: 'delta' } as const;
const deltas = (seen: SeenRequest[]) => seen.filter((r) => r.path === '/api/client/delta');
const typesOf = (r: SeenRequest) => r.delta?.events.map((e) => e.type) ?? [];

describe('delta polling', () => {
  test('a hydration, then only deltas against the echoed ETag; 304 when nothing changed; removals and segments', async ({ h, url, seen }) => {
    await createFlag(h, 'checkout');
    await createFlag(h, 'legacy');
    const segment = await h.json('POST', '/api/admin/segments', { name: 'testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] });
    await addStrategy(h, 'checkout', 'development', { name: 'default', segments: [segment.body.id] });
    const { sdk, ready, errors } = startSdk(url, await clientToken(h, ['default'], 'development'), DELTA, 100);
    try {
      await ready;
      expect(sdk.getFeatureToggleDefinition('legacy')?.name).toBe('legacy');
      await expect.poll(() => deltas(seen).some((r) => r.status === 304), untilState()).toBe(true);
      await switchOn(h, 'checkout');
      await expect.poll(() => sdk.isEnabled('checkout', { userId: '1' }), untilState(10)).toBe(true);
      expect(sdk.isEnabled('checkout', { userId: '2' })).toBe(false);
      expect((await h.req('PUT', `/api/admin/segments/${segment.body.id}`, { name: 'testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['2'] }] })).status).toBeLessThan(300);
      await expect.poll(() => sdk.isEnabled('checkout', { userId: '2' }), untilState(10)).toBe(true);
      expect((await h.req('DELETE', flagPath('legacy'))).status).toBe(202);
      await expect.poll(() => sdk.getFeatureToggleDefinition('legacy'), untilState(10)).toBeUndefined();
      const answered = deltas(seen).filter((r) => r.status === 200);
      expect(typesOf(answered[0]!)).toEqual(['hydration']);
      expect(answered.slice(1).map(typesOf)).toEqual([['feature-updated'], ['segment-updated'], ['feature-removed']]);
      // Each request after the first presented the revision of the answer before it.
      expect(deltas(seen)[0]!.ifNoneMatch).toBeNull();
      expect(deltas(seen).slice(1).every((r) => /^"\d+"$/.test(r.ifNoneMatch ?? ''))).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      sdk.destroy();
    }
  });

  const short = servedTest({ CLIENT_DELTA_HISTORY_EVENTS: '2' });
  short('a client further behind than the history gets a hydration, and then deltas again', async ({ h, url, seen }) => {
    await createFlag(h, 'first');
    const { sdk, ready } = startSdk(url, await clientToken(h, ['default'], 'development'), DELTA, 300);
    try {
      await ready;
      const polls = deltas(seen).length;
      // Five changes between two polls: more than the history holds.
      for (const name of ['a', 'b', 'c', 'd', 'e']) await createFlag(h, name);
      await expect.poll(() => sdk.getFeatureToggleDefinition('e')?.name, untilState(10)).toBe('e');
      const after = deltas(seen).slice(polls).filter((r) => r.status === 200);
      expect(typesOf(after[0]!)).toEqual(['hydration']);
      expect(['first', 'a', 'b', 'c', 'd', 'e'].every((n) => sdk.getFeatureToggleDefinition(n) !== undefined)).toBe(true);
      await createFlag(h, 'f');
      await expect.poll(() => sdk.getFeatureToggleDefinition('f')?.name, untilState(10)).toBe('f');
      expect(typesOf(deltas(seen).filter((r) => r.status === 200).at(-1)!)).toEqual(['feature-updated']);
    } finally {
      sdk.destroy();
    }
  });

  test('across a server restart the SDK keeps polling from its revision and misses nothing', async ({ h, url, seen }) => {
    await createFlag(h, 'before');
    const { sdk, ready, errors } = startSdk(url, await clientToken(h, ['default'], 'development'), DELTA, 100);
    try {
      await ready;
      await h.restart();
      await createFlag(h, 'after');
      await expect.poll(() => sdk.getFeatureToggleDefinition('after')?.name, untilState(10)).toBe('after');
      expect(sdk.getFeatureToggleDefinition('before')?.name).toBe('before');
      expect(typesOf(deltas(seen).filter((r) => r.status === 200).at(-1)!)).toEqual(['feature-updated']);
      expect(errors).toEqual([]);
    } finally {
      sdk.destroy();
    }
  });
});
