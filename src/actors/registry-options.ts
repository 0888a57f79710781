import type { WriteGate } from '../../snapshots/disk-faults.js';
import type { DatabaseOptions } from '../../snapshots/open-store.js';
import type { Limits } from '../limits.js';
import { silentLogger } from '../log.js';
import type { ActorOptions } from './actor-options.js';
import type { HistoryBounds } from './feed-history.js';
import type { SessionLifetimes } from './session-store.js';
import type { DeliverySettings } from './addons/addon-worker.js';
import { ADDON_DELIVERY_BOUNDS } from '../limits.js';

/** What `Registry.open` is given: where the data lives, the first start's environments, limits, and the actors' options. */
export interface RegistryOptions extends Partial<ActorOptions> {
  dataDir: string;
  /** The PostgreSQL database to keep everything in instead of `dataDir` (`DATABASE_URL`); LevelDB when absent. */
  database?: DatabaseOptions | undefined;
  /** Environments of a new data directory. */
  initEnvironments: string[];
  /** What may accumulate (docs/limits.md); the defaults when absent. */
  limits?: Limits | undefined;
  /** Milliseconds between two writes of the usage metrics (`METRICS_FLUSH_SECONDS`); 10 s when absent. */
  usageFlushMs?: number | undefined;
  /** How much committed history the feed keeps for deltas (`CLIENT_DELTA_HISTORY_*`); the defaults when absent. */
  feedHistory?: HistoryBounds | undefined;
  /** How long console sessions live (`SESSION_IDLE_MINUTES`, `SESSION_MAX_HOURS`); 12 h idle, 7 days at most when absent. */
  sessions?: SessionLifetimes | undefined;
  /** Byte budget of every project's past-view checkpoints (`PAST_VIEW_CHECKPOINT_BYTES`); 128 MiB when absent. */
  pastViewCheckpointBytes?: number | undefined;
  /** On a store several nodes share: how long without contact with it makes this node unhealthy, ms (`DATABASE_CONTACT_TIMEOUT_MS`). */
  contactTimeoutMs?: number | undefined;
  /** On a store several nodes share: the fingerprint of this node's token key, checked against the store's (`token-key-check.ts`). */
  tokenKeyFingerprint?: string | undefined;
  /** Test seam: consulted before every write of the store (`snapshots/disk-faults.ts`); absent in production. */
  writeGate?: WriteGate | undefined;
  /**
   * Test seam: the scrypt work of the password hashes made through this registry (`auth/passwords.ts`
   * `PasswordWork`); OWASP's `PASSWORD_WORK` when absent, as in production.
   */
  passwordWork?: { N: number; r: number; p: number } | undefined;
  /** How addon events are delivered, once started (`PUBLIC_URL`, `ADDON_*`, `UNLEASH_ALLOW_*`); {@link DEFAULT_DELIVERY_SETTINGS} when absent. */
  addons?: DeliverySettings | undefined;
}

/** Delivery settings of a registry opened without any (offline tools; they never deliver). */
export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  plan: { consoleUrl: 'http://localhost:4242', slackApiUrl: 'https://slack.com/api' },
  sender: { timeoutMs: 10_000, guard: { allowPrivate: false, allowList: [] }, answerBytes: ADDON_DELIVERY_BOUNDS.answerBytes },
  retry: { firstMs: 5000, maxMs: 600_000, giveUpMs: 86_400_000 },
  recordsPerRead: ADDON_DELIVERY_BOUNDS.recordsPerRead,
  logEntries: ADDON_DELIVERY_BOUNDS.logEntriesPerAddon,
  stalenessCheckMs: 60_000,
};

/** What the metrics are told as it happens (set by whoever reads them; nothing when unset). */
export interface RegistryObservers {
  /** Commands committed in one batch, by type. */
  committed?: ((types: readonly string[]) => void) | undefined;
  /** A snapshot written: how long it took (ms) and its stored bytes. */
  snapshot?: ((ms: number, bytes: number) => void) | undefined;
  /** One synced batch of the store written: how long it took (ms) and its ops. */
  written?: ((ms: number, ops: number) => void) | undefined;
}

/** The default of `DATABASE_CONTACT_TIMEOUT_MS`. */
export const DEFAULT_CONTACT_TIMEOUT_MS = 5000;

const DEFAULTS: Omit<ActorOptions, 'log'> = { snapshotEvery: 1000, logRetention: 'all', maxBatch: 256 };

/**
 * The actors' options: the defaults, with what `options` sets over them (a silent logger when it sets none).
 *
 * @example actorOptionsOf({ dataDir, initEnvironments: [], snapshotEvery: 10 }).maxBatch // 256
 */
export function actorOptionsOf(options: RegistryOptions): ActorOptions {
  return { ...DEFAULTS, log: silentLogger(), ...withoutUndefined(options) } as ActorOptions;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
