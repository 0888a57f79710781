/**
 * Bodies exactly as the SDKs send them, and small steps shared by the usage tests.
 *
 * `nodeRegisterBody` and `nodeMetricsBody` are what `unleash-client` 6.12.1 posts (`lib/metrics.js`
 * `getClientData` and `createMetricsData`, serialized by `JSON.stringify`: dates as ISO strings, the
 * `undefined` `sdkFlavor`/`sdkFlavorVersion` left out, `yggdrasilVersion: null`). `browserMetricsBody` is
 * `unleash-proxy-client` 3.8's (`src/metrics.ts getPayload`).
 */
import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { storeOf } from '../../helpers/store-of.js';

export const P = '/api/admin/projects/default';
export const flagPath = (name: string, project = 'default') => `/api/admin/projects/${project}/features/${name}`;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The strategy names the Node SDK registers (`lib/strategy/index.js defaultStrategies`). */
const NODE_STRATEGIES = ['default', 'applicationHostname', 'gradualRolloutRandom', 'gradualRolloutUserId', 'gradualRolloutSessionId', 'userWithId', 'remoteAddress', 'flexibleRollout'];

export function nodeRegisterBody(appName = 'checkout-service', instanceId = 'ci-runner-4711') {
  return {
    appName, instanceId, sdkVersion: 'unleash-node-sdk:6.12.1', strategies: NODE_STRATEGIES,
    started: new Date(Date.now() - 5000).toISOString(), interval: 60000, connectionId: '8a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
    platformName: 'node', platformVersion: process.versions.node, yggdrasilVersion: null, specVersion: '5.2.0',
  };
}

export type Toggles = Record<string, { yes: number; no: number; variants: Record<string, number> }>;

export function nodeMetricsBody(toggles: Toggles, appName = 'checkout-service', instanceId = 'ci-runner-4711', extra: Record<string, unknown> = {}) {
  const stop = Date.now();
  return {
    appName, instanceId, connectionId: '8a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
    bucket: { start: new Date(stop - 60000).toISOString(), stop: new Date(stop).toISOString(), toggles },
    platformName: 'node', platformVersion: process.versions.node, yggdrasilVersion: null, specVersion: '5.2.0',
    ...extra,
  };
}

/** The browser SDK's body: `instanceId` is always `browser`, `impactMetrics` always present. */
export function browserMetricsBody(toggles: Toggles, appName = 'web-shop') {
  const stop = Date.now();
  return { bucket: { start: new Date(stop - 30000).toISOString(), stop: new Date(stop).toISOString(), toggles }, appName, instanceId: 'browser', impactMetrics: [] };
}

/** Creates a client token through the API and returns its secret. */
export async function clientToken(h: Harness, environment = 'development', projects: string[] = ['*']): Promise<string> {
  const r = await h.json('POST', '/api/admin/api-tokens', { tokenName: `sdk-${environment}-${projects.join('-')}`, type: 'client', projects, environment });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.secret as string;
}

/** Creates a frontend (browser SDK) token; returns its secret. */
export async function frontendToken(h: Harness, environment = 'development', projects: string[] = ['*']): Promise<string> {
  const r = await h.json('POST', '/api/admin/api-tokens', { tokenName: `browser-${environment}-${projects.join('-')}`, type: 'frontend', projects, environment });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.secret as string;
}

/** Creates a flag in `project`; expects 201. */
export async function createFlag(h: Harness, name: string, project = 'default'): Promise<void> {
  const r = await h.json('POST', `/api/admin/projects/${project}/features`, { name });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

/** Posts metrics with a token; expects 202 and no body. */
export async function postMetrics(h: Harness, token: string, body: unknown, path = '/api/client/metrics'): Promise<void> {
  const r = await h.req('POST', path, body, { token });
  expect(r.status, await r.clone().text()).toBe(202);
  expect(await r.text()).toBe('');
}

/** The raw hourly buckets of a flag with counts in them. */
export async function countedBuckets(h: Harness, flag: string) {
  const r = await h.json('GET', `/api/admin/client-metrics/features/${flag}/raw`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.data as { environment: string; timestamp: string; yes: number; no: number; variants: Record<string, number> }[])
    .filter((e) => e.yes > 0 || e.no > 0);
}

/** Every key the store holds under `prefix`. */
export async function storedKeys(h: Harness, prefix = 'use/'): Promise<string[]> {
  const out: string[] = [];
  for await (const key of storeOf(h.registry).keys(prefix)) out.push(key);
  return out;
}
