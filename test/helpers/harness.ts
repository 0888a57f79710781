import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from '../../src/actors/registry.js';
import { LocalSingletonWork, type SingletonWork } from '../../src/actors/addons/singleton-work.js';
import { createApp, type App } from '../../src/app.js';
import { ensureAdminTokens, ensureClientTokens, ensureFrontendTokens } from '../../src/bootstrap-tokens.js';
import type { TokenHasher } from '../../src/auth/token-hasher.js';
import { loadTokenHasher, tokenKeyFingerprint } from '../../src/auth/token-key.js';
import { readConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import type { WriteGate } from '../../snapshots/disk-faults.js';
import { openStore } from '../../snapshots/open-store.js';
import type { Store } from '../../snapshots/store.js';
import { ChangeRequestScheduler } from '../../src/scheduling/change-request-scheduler.js';
import { SYSTEM_CLOCK, type Clock } from '../../src/scheduling/clock.js';
import { harnessSchema, type TestSchema } from './postgres.js';

/** The admin token every harness app accepts. */
export const ADMIN_TOKEN = '*:*.test-admin-token-0123456789';

/** The token key (`TOKEN_SECRET`) of every harness app, unless the test names a `TOKEN_SECRET_FILE`. */
export const HARNESS_TOKEN_SECRET = 'harness-token-key-not-for-production-0123456789abcdef';

/**
 * The scrypt work of a harness's password hashes (`seams.passwordWork`) unless a test asks for the service's own
 * (`PASSWORD_WORK`, src/auth/passwords.ts): ~4 ms of CPU a hash instead of ~140 ms. Page and browser tests make a
 * user and sign in by password in most tests; the same code runs, over 1 MiB instead of 32.
 */
export const HARNESS_PASSWORD_WORK = { N: 2 ** 10, r: 8, p: 1 };

export interface Harness {
  app: App;
  registry: Registry;
  /** The scheduler of change requests over {@link registry} (a new one after each restart). */
  scheduler: ChangeRequestScheduler;
  config: Config;
  /** The token hasher the app was built with (its key: {@link HARNESS_TOKEN_SECRET} unless the test chose one). */
  tokenHasher: TokenHasher;
  dataDir: string;
  /** The store the app runs on: LevelDB in {@link dataDir}, or PostgreSQL in a schema of its own (see {@link harness}). */
  store: 'leveldb' | 'postgres';
  /** Sends a request; `body` is JSON-encoded unless it is a string; the admin token is sent unless `token` is given (null: none). */
  req(method: string, path: string, body?: unknown, options?: { token?: string | null; headers?: Record<string, string> }): Promise<Response>;
  /** Like `req`, and parses the JSON answer (null for an empty one; the array of its lines for newline-delimited JSON). */
  json<T = any>(method: string, path: string, body?: unknown, options?: { token?: string | null; headers?: Record<string, string> }): Promise<{ status: number; body: T; headers: Headers }>;
  /**
   * Closes the store (writing snapshots) and opens a new registry and app on the same data directory;
   * `whileStopped` runs in between, when nothing holds the store (to edit it as damage on disk would): it gets
   * the data directory, and `openStore` to open the harness's store (LevelDB or PostgreSQL; close it after).
   */
  restart(whileStopped?: (dataDir: string, openStore: () => Promise<Store>) => Promise<void>): Promise<void>;
  /** Closes the store and removes the data directory; closing again does nothing. */
  close(): Promise<void>;
  /** The log lines written so far (level `LOG_LEVEL`, default `warn`), parsed. */
  logs(): Record<string, unknown>[];
}

/** What a test may put in place of what `flagpole start` would use (see {@link harness}). */
export interface HarnessSeams {
  writeGate?: WriteGate;
  store?: 'leveldb' | 'postgres';
  deliver?: boolean;
  clock?: Clock;
  work?: SingletonWork;
  /** The scrypt work of password hashes: {@link HARNESS_PASSWORD_WORK} unless given. */
  passwordWork?: { N: number; r: number; p: number };
}

/** The store harnesses run on unless a test asks: PostgreSQL where `FLAGPOLE_TEST_STORE=postgres` (vitest's `postgres` project), else LevelDB. */
export const defaultStore = (): 'leveldb' | 'postgres' => (process.env['FLAGPOLE_TEST_STORE'] === 'postgres' ? 'postgres' : 'leveldb');

/**
 * A fresh app over a fresh temporary data directory, with one admin token, as `npm start` would build it; on
 * PostgreSQL (`seams.store`, or {@link defaultStore}) over an empty schema of the tests' server instead (`harnessSchema`:
 * one an earlier harness of the worker closed, emptied; the data directory still holds nothing but is made, as
 * the token key file's neighbour).
 * `seams.writeGate` puts a test gate before every write of the store (`snapshots/disk-faults.ts`); `seams.deliver`
 * starts the addons' deliveries (after every restart too). The scheduler of change requests runs as `flagpole
 * start` runs it, under `seams.work` (default: this node holds the lease) on `seams.clock`, the clock the actors
 * stamp records with too (`test/helpers/clock.ts`). Passwords are hashed with `seams.passwordWork`
 * ({@link HARNESS_PASSWORD_WORK} unless given).
 *
 * @example const h = await harness(); const r = await h.json('GET', '/api/admin/projects'); await h.close();
 */
export async function harness(env: Record<string, string> = {}, dataDir = mkdtempSync(join(tmpdir(), 'flagpole-test-')), seams: HarnessSeams = {}): Promise<Harness> {
  const key = 'TOKEN_SECRET_FILE' in env ? {} : { TOKEN_SECRET: HARNESS_TOKEN_SECRET };
  const store = seams.store ?? defaultStore();
  const schema: TestSchema | null = store === 'postgres' && !env['DATABASE_URL'] ? harnessSchema() : null;
  const database = schema ? { DATABASE_URL: schema.database.url, DATABASE_SCHEMA: schema.database.schema, DATABASE_POOL_SIZE: '4' } : {};
  const config = readConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...key, ...database, ...env });
  const { hasher: tokenHasher } = loadTokenHasher(config);
  // The service's own logger, writing into memory: tests read what an operator would see.
  const lines: string[] = [];
  const log = createLogger({ level: config.logLevel, format: 'json' }, { write: (line: string) => { lines.push(line); } });
  const open = async () => {
    const registry = await Registry.open({ dataDir, database: config.database ?? undefined, initEnvironments: config.initEnvironments, snapshotEvery: config.snapshotEvery, logRetention: config.logRetention, log, limits: config.limits, usageFlushMs: config.metricsFlushSeconds * 1000, feedHistory: config.clientDeltaHistory, writeTimeoutMs: config.writeTimeoutMs, contactTimeoutMs: config.nodes.contactTimeoutMs, writeGate: seams.writeGate, sessions: { idleMs: config.console.sessionIdleMs, maxMs: config.console.sessionMaxMs }, pastViewCheckpointBytes: config.console.pastViewCheckpointBytes, addons: config.addons, now: seams.clock ? () => seams.clock!.now() : undefined, tokenKeyFingerprint: tokenKeyFingerprint(tokenHasher), passwordWork: seams.passwordWork ?? HARNESS_PASSWORD_WORK });
    // Addon deliveries run where a test asks for them, as `flagpole start` runs them (on one node of several).
    if (seams.deliver) registry.deliveries.start(registry.node.singletonWork());
    if (config.authType === 'api-token' && !registry.serviceUnavailable) {
      await ensureAdminTokens(registry, tokenHasher, [ADMIN_TOKEN]);
      await ensureFrontendTokens(registry, tokenHasher, config.initFrontendApiTokens);
      await ensureClientTokens(registry, tokenHasher, config.initClientApiTokens);
    }
    const scheduler = new ChangeRequestScheduler({ registry, log, clock: seams.clock ?? SYSTEM_CLOCK });
    scheduler.start(seams.work ?? new LocalSingletonWork());
    return { registry, app: createApp({ registry, config, log, tokenHasher }), scheduler };
  };
  let current = await open();
  let closed = false;
  const h: Harness = {
    get app() { return current.app; },
    get registry() { return current.registry; },
    get scheduler() { return current.scheduler; },
    config,
    tokenHasher,
    dataDir,
    store: config.database ? 'postgres' : 'leveldb',
    req(method, path, body, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      const token = options.token === undefined ? ADMIN_TOKEN : options.token;
      if (token !== null) headers['authorization'] ??= token;
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      return Promise.resolve(current.app.request(path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) }));
    },
    async json(method, path, body, options) {
      const response = await h.req(method, path, body, options);
      const text = await response.text();
      // Newline-delimited JSON (the backup) comes back as the array of its lines.
      const lines = response.headers.get('content-type') === 'application/x-ndjson';
      return { status: response.status, body: text === '' ? null : lines ? text.trimEnd().split('\n').map((l) => JSON.parse(l)) : JSON.parse(text), headers: response.headers };
    },
    async restart(whileStopped) {
      await current.registry.close();
      await whileStopped?.(dataDir, () => openStore({ dataDir, database: config.database ?? undefined }));
      current = await open();
    },
    async close() {
      if (closed) return;
      closed = true;
      await current.registry.close();
      rmSync(dataDir, { recursive: true, force: true });
      await schema?.drop();
    },
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
  return h;
}
