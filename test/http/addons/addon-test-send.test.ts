/**
 * `POST /api/admin/addons/:id/test` (flagpole's addition): one `feature-updated` test event through the addon's
 * provider at once, to a real receiver on loopback; the answer is the attempt's delivery log entry (secrets masked),
 * which the delivery log lists too. It is never retried, never waits for nor holds up the addon's own deliveries, and
 * goes through the private-URL guard like every request.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { harness, type Harness } from '../../helpers/harness.js';
import { receiver, type Receiver } from '../../helpers/receiver.js';

let h: Harness | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const r of receivers.splice(0)) await r.close();
});

async function listening(reply?: Receiver['reply']): Promise<Receiver> {
  const r = await receiver(reply);
  receivers.push(r);
  return r;
}

const ALLOW = { UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', ADDON_RETRY_FIRST_MS: '10', ADDON_RETRY_MAX_MS: '40' };

const addon = async (body: Record<string, unknown>): Promise<number> => {
  const res = await h!.json('POST', '/api/admin/addons', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
};
const log = async (id: number) => (await h!.json('GET', `/api/admin/addons/${id}/events`)).body.integrationEvents as Record<string, unknown>[];

describe('a test send', () => {
  test('delivers a feature-updated test event now and answers the outcome, secrets masked; the delivery log lists it', async () => {
    h = await harness(ALLOW);
    const r = await listening();
    const id = await addon({ provider: 'webhook', enabled: false, parameters: { url: `${r.url}/hook?key=url-secret`, authorization: 'Bearer auth-secret' }, projects: ['web'], environments: ['*', 'production'] });
    const res = await h.json('POST', `/api/admin/addons/${id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      integrationId: id, state: 'success', stateDetails: 'Webhook request was successful with status code: 200.', attempt: 1, retryAt: null,
      details: { url: '*****', contentType: 'application/json' },
    });
    expect(r.received).toHaveLength(1);
    const [sent] = r.received;
    expect(sent!.headers['authorization']).toBe('Bearer auth-secret');
    expect(sent!.json).toEqual({
      id: expect.any(Number), type: 'feature-updated', createdBy: 'init-admin-token-1', createdAt: expect.any(String), createdByUserId: -42,
      data: { name: 'flagpole-test-event', description: 'A test event sent by flagpole: no flag was changed.', type: 'release', project: 'web', stale: false, createdAt: expect.any(String), lastSeenAt: null, impressionData: false, archived: false },
      preData: null, tags: [], featureName: 'flagpole-test-event', project: 'web', environment: 'production',
    });
    expect(res.body.event).toEqual(sent!.json);
    expect(await log(id)).toEqual([res.body]);
    expect(JSON.stringify(res.body)).not.toMatch(/url-secret|auth-secret/);
  });

  test('a failing receiver: the answer says so, nothing is retried; an unknown addon is a 404', async () => {
    h = await harness(ALLOW);
    const r = await listening(() => ({ status: 503 }));
    const id = await addon({ provider: 'webhook', parameters: { url: `${r.url}/hook` } });
    const res = await h.json('POST', `/api/admin/addons/${id}/test`);
    expect(res.body).toMatchObject({ state: 'failed', stateDetails: 'Webhook request failed with status code: 503.', retryAt: null });
    expect(r.received).toHaveLength(1);
    expect((await h.json('POST', '/api/admin/addons/999/test')).status).toBe(404);
    expect((await h.json('POST', '/api/admin/addons/nope/test')).status).toBe(404);
  });

  test('goes through the private-URL guard: the App for Slack\'s API on loopback, not allow-listed, is refused without a request', async () => {
    const slack = await listening(() => ({ status: 200, body: '{"ok":true}' }));
    h = await harness({ SLACK_API_URL: slack.url });
    const id = await addon({ provider: 'slack-app', parameters: { accessToken: 'xoxb-token-secret', defaultChannels: 'general' } });
    const res = await h.json('POST', `/api/admin/addons/${id}/test`);
    expect(res.body).toMatchObject({ state: 'failed', details: { channels: ['general'] } });
    expect(res.body.stateDetails).toMatch(/^All \(1\) Slack client calls failed with the following errors: A request error occurred: URL resolves to a non-public address: 127\.0\.0\.1/);
    expect(slack.received).toHaveLength(0);
    expect(JSON.stringify(res.body)).not.toContain('xoxb-token-secret');
  });

  test('neither waits for nor holds up the addon\'s deliveries; a second test while one is on its way is a 429', async () => {
    h = await harness(ALLOW, undefined, { deliver: true });
    const r = await listening((req) => ((req.json as { type?: string }).type === 'feature-updated' ? 'hang' : { status: 200 }));
    const id = await addon({ provider: 'webhook', parameters: { url: `${r.url}/hook` }, events: ['feature-created'] });
    const testing = h.json('POST', `/api/admin/addons/${id}/test`);
    await expect.poll(() => r.received.length).toBe(1);
    expect((await h.json('POST', `/api/admin/addons/${id}/test`)).status).toBe(429);
    expect((await h.json('POST', '/api/admin/projects/default/features', { name: 'meanwhile' })).status).toBe(201);
    await expect.poll(() => r.received.map((x) => (x.json as { type: string }).type)).toEqual(['feature-updated', 'feature-created']);
    await r.down();
    const res = await testing;
    expect(res.body).toMatchObject({ state: 'failed', attempt: 1, retryAt: null });
    expect((await log(id)).map((e) => [(e['event'] as { type: string }).type, e['state']])).toEqual([['feature-updated', 'failed'], ['feature-created', 'success']]);
  });
});
