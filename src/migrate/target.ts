/**
 * Where `flagpole migrate` writes: a running flagpole through its admin HTTP API (`--to`), or a data
 * directory opened in-process (`--data-dir`), where the same routes (and so the same use cases, rules and
 * durability) answer through `app.request`, without a socket and without a token (the caller is the operator
 * who holds the directory). Both are one `Target`: a JSON request and its answer.
 */
import { randomBytes } from 'node:crypto';
import { Registry } from '../actors/registry.js';
import type { Dump } from '../actors/dumps/state-dump.js';
import { createApp } from '../app.js';
import { TokenHasher } from '../auth/token-hasher.js';
import { readConfig } from '../config.js';
import { MigrateError } from './migrate-error.js';
import { locationLabel, type StoreLocation } from '../../snapshots/open-store.js';

/** The target's dump (`GET /api/admin/state`, the whole service): what migrate compares with. */
export type TargetDump = Required<Pick<Dump, 'service'>> & Dump;

export interface Answer {
  status: number;
  body: any;
}

export interface Target {
  /** What the report calls it: the URL's origin or the directory. */
  readonly label: string;
  request(method: string, path: string, body?: unknown): Promise<Answer>;
  close(): Promise<void>;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // A non-JSON answer is kept as text for the message.
  }
  return { status: response.status, body };
}

/** A running flagpole at `url`, with an admin token; unreachable or refusing it, a `MigrateError`. */
export function httpTarget(url: URL, token: string, timeoutMs: number): Target {
  const base = url.href.replace(/\/$/, '');
  return {
    label: url.origin,
    async request(method, path, body) {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method, signal: AbortSignal.timeout(timeoutMs),
          headers: { authorization: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        throw new MigrateError(`cannot reach the flagpole at ${url.origin} (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name}) for ${method} ${path}`);
      }
      if (response.status === 401 || response.status === 403) {
        throw new MigrateError(`the flagpole refused the token (${response.status}) on ${method} ${path}: give an admin API token (--to-token or FLAGPOLE_TOKEN)`);
      }
      return answerOf(response);
    },
    close: async () => {},
  };
}

/**
 * A data directory or a PostgreSQL database (`target`) opened in-process (empty: a new one, as `flagpole
 * start` would make it). The service must be stopped: LevelDB's lock and PostgreSQL's node lock refuse a
 * second opener, and that is reported as such. Its settings (limits, the addons' allow-lists) are read from `env`,
the migrate command's environment.
 */
export async function dataDirTarget(target: string | StoreLocation, env: NodeJS.ProcessEnv = process.env): Promise<Target> {
  const location = typeof target === 'string' ? { dataDir: target } : target;
  const dataDir = location.dataDir;
  const config = readConfig({ ...env, DATA_DIR: dataDir || './data', AUTH_TYPE: 'none', LOG_LEVEL: 'silent' });
  let registry: Registry;
  try {
    // The addon settings too (UNLEASH_ALLOW_*): an addon is checked as the service would check it; nothing is delivered here.
    registry = await Registry.open({ dataDir: config.dataDir, database: location.database, initEnvironments: config.initEnvironments, snapshotEvery: config.snapshotEvery, logRetention: config.logRetention, limits: config.limits, writeTimeoutMs: config.writeTimeoutMs, addons: config.addons });
  } catch (error) {
    const code = (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
    if (location.database) throw new MigrateError(`cannot open ${locationLabel(location)}: ${(error as Error).message}`);
    throw new MigrateError(`cannot open the data directory ${dataDir}${code === 'LEVEL_LOCKED' || code === 'LEVEL_DATABASE_NOT_OPEN' ? ' (is a flagpole running on it? stop it, or migrate with --to its URL)' : ''}: ${(error as Error).message}`);
  }
  // No token authenticates here (AUTH_TYPE none); the key only has to exist and is thrown away.
  const app = createApp({ registry, config, tokenHasher: new TokenHasher(randomBytes(32).toString('hex')) });
  return {
    label: locationLabel(location),
    async request(method, path, body) {
      return answerOf(await app.request(path, {
        method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      }));
    },
    close: () => registry.close(),
  };
}
