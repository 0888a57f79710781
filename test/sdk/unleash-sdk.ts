/**
 * The real Node SDK (`unleash-client` 6.12) as the delta and streaming tests start it: a given fetching mode,
 * in-memory storage, no metrics, warnings collected; destroyed by the caller.
 */
import { createRequire } from 'node:module';
import { STATE_TIMEOUT_MS } from '../helpers/wait.js';

const require = createRequire(import.meta.url);

export interface UnleashSdk {
  isEnabled(name: string, context?: object): boolean;
  getFeatureToggleDefinition(name: string): { name: string; enabled: boolean } | undefined;
  on(event: string, listener: (...args: unknown[]) => void): void;
  once(event: string, listener: (...args: unknown[]) => void): void;
  destroy(): void;
}

const { Unleash, InMemStorageProvider } = require('unleash-client') as {
  Unleash: new (options: Record<string, unknown>) => UnleashSdk;
  InMemStorageProvider: new () => unknown;
};

export type SdkMode = { type: 'streaming' } | { type: 'polling'; format: 'delta' | 'full' };

/** An SDK on `url` with `token` in `mode`, and the warnings and errors it emitted. */
export function startSdk(url: string, token: string, mode: SdkMode, refreshInterval = 60_000): { sdk: UnleashSdk; warnings: string[]; errors: string[]; ready: Promise<void> } {
  const sdk = new Unleash({
    appName: 'stream-test', instanceId: `sdk-${Math.random().toString(36).slice(2)}`, url, customHeaders: { Authorization: token },
    refreshInterval, disableMetrics: true, storageProvider: new InMemStorageProvider(), experimentalMode: mode,
  });
  const warnings: string[] = [];
  const errors: string[] = [];
  sdk.on('warn', (message) => warnings.push(String(message)));
  sdk.on('error', (error) => errors.push(error instanceof Error ? error.message : String(error)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`SDK not ready within ${STATE_TIMEOUT_MS} ms; warnings: ${warnings.join(' | ')}; errors: ${errors.join(' | ')}`)), STATE_TIMEOUT_MS);
    sdk.once('ready', () => { clearTimeout(timer); resolve(); });
  });
  // A test that fails before it awaits `ready` must not leave its rejection unhandled.
  ready.catch(() => undefined);
  return { sdk, warnings, errors, ready };
}
