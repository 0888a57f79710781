/**
 * The real Node SDK (`unleash-client`) over a real socket, polling the full client API: its `tags` option
 * selects the flags carrying one of the tags, and it evaluates the `dependencies` flagpole serves (a child of
 * a disabled parent is off; `enabled: false` inverts; `variants` require the parent's variant).
 */
import { createRequire } from 'node:module';
import { describe, expect } from 'vitest';
import { addStrategy, createFlag, flagPath, switchOn } from '../helpers/flags.js';
import type { Harness } from '../helpers/harness.js';
import { clientToken } from '../http/client/client-fixtures.js';
import { servedTest } from '../http/client/stream-fixtures.js';
import type { UnleashSdk } from './unleash-sdk.js';
import { STATE_TIMEOUT_MS, untilState } from '../helpers/wait.js';

const require = createRequire(import.meta.url);
const { Unleash, InMemStorageProvider } = require('unleash-client') as {
  Unleash: new (options: Record<string, unknown>) => UnleashSdk & { getVariant(name: string, context?: object): { name: string; enabled: boolean } };
  InMemStorageProvider: new () => unknown;
};

const test = servedTest();

/** An SDK polling every 50 ms, ready; destroyed by the caller. */
async function startSdk(url: string, token: string, extra: Record<string, unknown> = {}) {
  const sdk = new Unleash({
    appName: 'tags-test', instanceId: `sdk-${Math.random().toString(36).slice(2)}`, url, customHeaders: { Authorization: token },
    refreshInterval: 50, disableMetrics: true, storageProvider: new InMemStorageProvider(), ...extra,
  });
  const errors: string[] = [];
  sdk.on('error', (e) => errors.push(e instanceof Error ? e.message : String(e)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`SDK not ready within ${STATE_TIMEOUT_MS} ms: ${errors.join(' | ')}`)), STATE_TIMEOUT_MS);
    sdk.once('ready', () => { clearTimeout(timer); resolve(); });
  });
  return { sdk, errors };
}

async function depend(h: Harness, child: string, body: Record<string, unknown>) {
  expect((await h.req('POST', `${flagPath(child)}/dependencies`, body)).status).toBe(200);
}

describe('unleash-client', () => {
  test('the `tags` option: only flags with one of the tags are served', async ({ h, url }) => {
    for (const name of ['tagged', 'other', 'untagged']) await createFlag(h, name);
    expect((await h.req('POST', '/api/admin/features/tagged/tags', { value: 'beta' })).status).toBe(201);
    expect((await h.req('POST', '/api/admin/features/other/tags', { value: 'gamma' })).status).toBe(201);
    const { sdk, errors } = await startSdk(url, await clientToken(h, ['default'], 'development'), { tags: [{ name: 'simple', value: 'beta' }, { name: 'simple', value: 'gamma' }] });
    try {
      expect(sdk.getFeatureToggleDefinition('tagged')?.name).toBe('tagged');
      expect(sdk.getFeatureToggleDefinition('other')?.name).toBe('other');
      expect(sdk.getFeatureToggleDefinition('untagged')).toBeUndefined();
      // A tag added later brings the flag in at the next poll.
      expect((await h.req('POST', '/api/admin/features/untagged/tags', { value: 'beta' })).status).toBe(201);
      await expect.poll(() => sdk.getFeatureToggleDefinition('untagged')?.name, untilState()).toBe('untagged');
      expect(errors).toEqual([]);
    } finally {
      sdk.destroy();
    }
  });

  test('dependencies: a child of a disabled parent is off, and follows the parent once it is on', async ({ h, url }) => {
    for (const name of ['parent', 'child', 'inverse', 'by-variant']) await createFlag(h, name);
    for (const name of ['child', 'inverse', 'by-variant']) {
      await addStrategy(h, name, 'development');
      await switchOn(h, name, 'development');
    }
    await depend(h, 'child', { feature: 'parent' });
    await depend(h, 'inverse', { feature: 'parent', enabled: false });
    await depend(h, 'by-variant', { feature: 'parent', variants: ['blue'] });
    const { sdk, errors } = await startSdk(url, await clientToken(h, ['default'], 'development'));
    try {
      expect(sdk.isEnabled('parent')).toBe(false);
      expect(sdk.isEnabled('child')).toBe(false);
      expect(sdk.isEnabled('inverse')).toBe(true);
      expect(sdk.isEnabled('by-variant')).toBe(false);
      await addStrategy(h, 'parent', 'development', { name: 'default', variants: [{ name: 'red', weightType: 'variable', weight: 1000, stickiness: 'default' }] });
      await switchOn(h, 'parent', 'development');
      await expect.poll(() => sdk.isEnabled('child'), untilState()).toBe(true);
      expect(sdk.isEnabled('inverse')).toBe(false);
      // The parent yields `red`, not `blue`.
      expect(sdk.getVariant('parent').name).toBe('red');
      expect(sdk.isEnabled('by-variant')).toBe(false);
      await depend(h, 'by-variant', { feature: 'parent', variants: ['blue', 'red'] });
      await expect.poll(() => sdk.isEnabled('by-variant'), untilState()).toBe(true);
      // The frontend API agrees with the SDK.
      const frontend = await clientToken(h, ['default'], 'development', 'frontend');
      const served = ((await h.json('GET', '/api/frontend', undefined, { token: frontend })).body.toggles as { name: string }[]).map((t) => t.name).sort();
      expect(served).toEqual(['by-variant', 'child', 'parent']);
      expect(errors).toEqual([]);
    } finally {
      sdk.destroy();
    }
  });
});
