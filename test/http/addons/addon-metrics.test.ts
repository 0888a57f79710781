/**
 * The addons' delivery metrics on `GET /internal-backstage/prometheus`: attempts by provider and outcome, and each
 * enabled addon's log records not yet handled, read after real deliveries to a loopback receiver. No label carries a
 * URL or a secret.
 */
import { afterEach, expect, test } from 'vitest';
import { harness, type Harness } from '../../helpers/harness.js';
import { receiver, type Receiver } from '../../helpers/receiver.js';

let h: Harness | undefined;
let r: Receiver | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await r?.close();
});

const metrics = async () => (await h!.req('GET', '/internal-backstage/prometheus')).text();
/** The value of one series (`name{labels}`), or undefined when absent. */
const value = async (series: string) => {
  const line = (await metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('deliveries by provider and outcome, and the records an addon has yet to handle', async () => {
  h = await harness({ UNLEASH_ALLOW_LIST_INTEGRATION: '127.0.0.1', ADDON_RETRY_FIRST_MS: '10', ADDON_RETRY_MAX_MS: '40' }, undefined, { deliver: true });
  // 200 for a flag named ok-*, 404 (failed for good) for bad-*, 503 (tried again) for the first attempt at retry-*.
  const attempts = new Map<string, number>();
  r = await receiver((req) => {
    const name = (req.json as { featureName: string }).featureName;
    attempts.set(name, (attempts.get(name) ?? 0) + 1);
    if (name.startsWith('bad')) return { status: 404 };
    return { status: name.startsWith('retry') && attempts.get(name) === 1 ? 503 : 200 };
  });
  const created = await h.json('POST', '/api/admin/addons', { provider: 'webhook', parameters: { url: `${r.url}/hook/url-secret`, authorization: 'auth-secret' }, events: ['feature-created'] });
  const id = created.body.id as number;
  for (const name of ['ok-1', 'bad-1', 'retry-1']) expect((await h.json('POST', '/api/admin/projects/default/features', { name })).status).toBe(201);

  await expect.poll(() => value('flagpole_addon_deliveries_total{provider="webhook",outcome="success"}')).toBe(2);
  expect(await value('flagpole_addon_deliveries_total{provider="webhook",outcome="failed"}')).toBe(1);
  expect(await value('flagpole_addon_deliveries_total{provider="webhook",outcome="retry"}')).toBe(1);
  await expect.poll(() => value(`flagpole_addon_log_records_waiting{addon="${id}",provider="webhook"}`)).toBe(0);

  // A receiver that is down: the records committed meanwhile wait, and are counted until delivered.
  await r.down();
  for (const name of ['ok-2', 'ok-3']) expect((await h.json('POST', '/api/admin/projects/default/features', { name })).status).toBe(201);
  await expect.poll(() => value(`flagpole_addon_log_records_waiting{addon="${id}",provider="webhook"}`)).toBe(2);
  await r.up();
  await expect.poll(() => value(`flagpole_addon_log_records_waiting{addon="${id}",provider="webhook"}`)).toBe(0);
  expect(await value('flagpole_addon_deliveries_total{provider="webhook",outcome="success"}')).toBe(4);

  const text = await metrics();
  for (const leak of ['url-secret', 'auth-secret', String(r.port), '127.0.0.1']) expect(text).not.toContain(leak);
});
