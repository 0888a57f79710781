/**
 * The real browser SDK (`unleash-proxy-client`) reading flagpole's `/api/frontend` over HTTP with a frontend
 * token: flags, variants, a toggle seen on the next poll, `updateContext` changing a rollout answer.
 */
import { UnleashClient } from 'unleash-proxy-client';
import { expect } from 'vitest';
import { countedFetch } from '../../helpers/counted-fetch.js';
import { harnessTest } from '../../helpers/fixtures.js';
import { envPath } from '../../helpers/flags.js';
import { buildWorld, frontendToken, togglesOf } from './frontend-fixtures.js';
import { serveHarness } from './served.js';
import { untilState } from '../../helpers/wait.js';

const test = harnessTest({ arrange: buildWorld });

test('unleash-proxy-client reads flags and variants, sees a toggle on the next poll, and follows updateContext', async ({ h }) => {
  const served = await serveHarness(h);
  const token = await frontendToken(h, ['default']);
  const counted = countedFetch();
  const client = new UnleashClient({
    url: `${served.base}/api/frontend`, clientKey: token, appName: 'browser-test', refreshInterval: 1, disableMetrics: true,
    fetch: counted.fetch, context: { userId: 'alice', properties: { plan: 'pro' } },
  });
  const errors: unknown[] = [];
  client.on('error', (e: unknown) => errors.push(e));
  try {
    const ready = new Promise<void>((resolve) => client.on('ready', () => resolve()));
    await client.start();
    await ready;
    expect(client.isEnabled('on')).toBe(true);
    expect(client.getVariant('on')).toMatchObject({ name: 'blue', enabled: true, payload: { type: 'string', value: 'sky' }, feature_enabled: true });
    expect(client.isEnabled('only-alice')).toBe(true);
    expect(client.isEnabled('pro')).toBe(true);
    expect(client.getVariant('pro')).toMatchObject({ name: 'disabled', enabled: false, feature_enabled: true });
    expect(client.isEnabled('off')).toBe(false);
    expect(client.getVariant('off')).toMatchObject({ name: 'disabled', enabled: false, feature_enabled: false });
    expect(client.isEnabled('other-on')).toBe(false);

    // A toggle switched on is seen on the next poll.
    expect((await h.req('POST', `${envPath('off', 'development')}/on`)).status).toBe(200);
    await expect.poll(() => client.isEnabled('off'), { message: 'the next poll to see "off" on', ...untilState() }).toBe(true);

    // updateContext: the SDK answers what the API answers for each user, and the 50% rollout differs between users.
    const seen = new Set<boolean>();
    for (let i = 0; i < 30 && seen.size < 2; i++) {
      const userId = `user-${i}`;
      await client.updateContext({ userId });
      const direct = await togglesOf(h, token, { ...client.getContext(), userId });
      expect(client.isEnabled('half'), userId).toBe(direct['half'] !== undefined);
      expect(client.getVariant('half').name, userId).toBe(direct['half']?.variant.name ?? 'disabled');
      expect(client.isEnabled('only-alice')).toBe(false);
      seen.add(client.isEnabled('half'));
    }
    expect([...seen].sort()).toEqual([false, true]);
    expect(errors).toEqual([]);
  } finally {
    client.stop();
    await counted.settled();
    await served.close();
  }
});
