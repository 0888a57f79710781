/**
 * The flags both stale-page test files read (the page harness's and chromium's), made in the past under a fake
 * `Date`, and an SDK's metrics.
 */
import { expect, onTestFinished, vi } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { clientToken, nodeMetricsBody, postMetrics } from '../http/usage/usage-fixtures.js';

const DAY = 86_400_000;

/**
 * In `default`, created 50 days ago: `old-release` (past its 40 days), `old-kill` (a kill-switch: no lifetime),
 * `marked` (marked stale), `seen-kill` (a kill-switch an SDK asks for); created now: `fresh`. In `web`, created
 * 10 days ago: `web-ops` (operational, past its 7 days).
 *
 * @example await staleFlags(h); await pages.get('/stale'); // old-release, marked, web-ops listed
 */
export async function staleFlags(h: Harness): Promise<void> {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => { vi.useRealTimers(); });
  const create = async (name: string, type = 'release', project = 'default') =>
    expect((await h.json('POST', `/api/admin/projects/${project}/features`, { name, type })).status).toBe(201);
  vi.setSystemTime(now - 50 * DAY);
  await create('old-release');
  await create('old-kill', 'kill-switch');
  await create('marked');
  await create('seen-kill', 'kill-switch');
  vi.setSystemTime(now - 10 * DAY);
  expect((await h.json('POST', '/api/admin/projects', { id: 'web', name: 'Web shop' })).status).toBe(201);
  await create('web-ops', 'operational', 'web');
  vi.useRealTimers();
  await create('fresh');
  expect((await h.req('POST', '/api/admin/projects/default/stale', { features: ['marked'], stale: true })).status).toBe(202);
  await postMetrics(h, await clientToken(h), nodeMetricsBody({ 'seen-kill': { yes: 3, no: 0, variants: {} } }));
  await h.registry.usage.flush();
}
