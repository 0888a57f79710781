/**
 * The real Node SDK (`unleash-client` 6.12) in streaming mode against a real socket, on a protected production:
 * a change request's paperwork (drafts, comments, approvals) sends it nothing; its apply reaches it whole.
 */
import { describe, expect } from 'vitest';
import { clientToken } from '../http/client/client-fixtures.js';
import { servedTest } from '../http/client/stream-fixtures.js';
import { P, draft, moveOk, people, protect } from '../http/change-requests/cr-fixtures.js';
import { startSdk } from './unleash-sdk.js';

const test = servedTest();

describe('a change request and the Node SDK', () => {
  test('an applied request reaches the SDK, all its changes at once', async ({ h, url, seen }) => {
    const { member, owner } = await people(h);
    await h.json('POST', `${P}/features`, { name: 'checkout' });
    await protect(h, 'production');
    const { sdk, ready, errors } = startSdk(url, await clientToken(h, ['default'], 'production'), { type: 'streaming' });
    try {
      await ready;
      expect(sdk.isEnabled('checkout', { userId: '7' })).toBe(false);
      const changes: boolean[] = [];
      sdk.on('changed', () => changes.push(sdk.isEnabled('checkout', { userId: '7' })));
      await draft(h, [
        { feature: 'checkout', action: 'addStrategy', payload: { name: 'flexibleRollout', parameters: { rollout: 100 }, constraints: [{ contextName: 'userId', operator: 'IN', values: ['7'] }] } },
        { feature: 'checkout', action: 'updateEnabled', payload: { enabled: true } },
      ], member.token);
      await h.json('POST', '/api/admin/projects/default/change-requests/1/comments', { text: 'ship it' }, { token: owner.token });
      await moveOk(h, 1, { state: 'In review' }, member.token);
      await moveOk(h, 1, { state: 'Approved' }, owner.token);
      // The paperwork changed nothing an SDK sees.
      expect(sdk.isEnabled('checkout', { userId: '7' })).toBe(false);
      await moveOk(h, 1, { state: 'Applied' }, owner.token);
      await expect.poll(() => sdk.isEnabled('checkout', { userId: '7' }), { timeout: 2000, interval: 10 }).toBe(true);
      expect(sdk.isEnabled('checkout', { userId: '8' })).toBe(false);
      // One update, with both changes in it (never the strategy without the switch), and none before it.
      expect(changes).toEqual([true]);
      expect(seen.map((r) => r.path)).toEqual(['/api/client/streaming']);
      expect(errors).toEqual([]);
    } finally {
      sdk.destroy();
    }
  });
});
