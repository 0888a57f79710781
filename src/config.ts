import { isAbsolute, relative, resolve, sep } from 'node:path';
import * as v from 'valibot';
import type { DatabaseOptions } from '../snapshots/open-store.js';
import { SecretText } from './auth/secret-text.js';
import { TOKEN_KEY_MIN_LENGTH } from './auth/token-hasher.js';
import type { ClientTokenSecret } from './auth/tokens.js';
import { databaseSettings } from './config-database.js';
import { ENV_SCHEMA, type Env, type FrontendTokenSecret } from './config-env.js';
import type { DeliverySettings } from './actors/addon-worker.js';
import { addonSettings } from './config-addons.js';
import { firstIssue } from './config-vars.js';
import { LIMIT_VARIABLES, type Limits } from './limits.js';
import type { LogFormat, LogLevel } from './log.js';

export { frontendTokenSecret, type FrontendTokenSecret } from './config-env.js';

/** The settings of a node among several on one database. */
export interface NodesConfig {
  /** `DATABASE_CONTACT_TIMEOUT_MS`: without contact with the database this long, the node reports itself unhealthy on `/health`. */
  contactTimeoutMs: number;
  /** `NODE_CATCH_UP_WAIT_MS`: the most an SDK request showing a revision this node has not reached waits for it before answering "no change". */
  catchUpWaitMs: number;
}

/** Service configuration, read from the environment (docs/api-decisions.md "Running the service"). */
export interface Config {
  port: number;
  host: string;
  /** `DATA_DIR`: LevelDB's directory (and, by default, where the token key file lives beside it). */
  dataDir: string;
  /** The PostgreSQL database (`DATABASE_URL` and the `DATABASE_*` beside it) that holds everything instead of `dataDir`; null: LevelDB. */
  database: DatabaseOptions | null;
  authType: 'api-token' | 'none';
  initAdminApiTokens: string[];
  /** `INIT_FRONTEND_API_TOKENS`: frontend token secrets (`<project>:<environment>.<random>`), scope read from each. */
  initFrontendApiTokens: FrontendTokenSecret[];
  /** `FRONTEND_CORS_ORIGINS`: origins allowed to call `/api/frontend/*` from a browser; `['*']` (the default) for any. */
  frontendCorsOrigins: string[];
  /** `INIT_CLIENT_API_TOKENS`: client token secrets to store at start, their scope read from each secret. */
  initClientApiTokens: ClientTokenSecret[];
  initEnvironments: string[];
  /** Largest accepted request body, bytes. */
  bodyLimit: number;
  /** Largest body of an import (`POST /api/admin/features-batch/validate`, `/import`), bytes (`IMPORT_BODY_LIMIT`). */
  importBodyLimit: number;
  /** Commands between project snapshots (at least; large projects snapshot less often). */
  snapshotEvery: number;
  /** Log records kept before the oldest retained snapshot, or `all`. */
  logRetention: number | 'all';
  /** Least severe level logged (`LOG_LEVEL`). */
  logLevel: LogLevel;
  /** `json` lines, or `pretty` for a terminal (`LOG_FORMAT`; default `pretty` on a terminal, else `json`). */
  logFormat: LogFormat;
  /** What may accumulate (`LIMIT_*`, docs/limits.md). */
  limits: Limits;
  /** The HTTP server's bounds: time to receive the headers, time to receive a whole request, open connections. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
  /**
   * The key of token hashes as given in `TOKEN_SECRET` (prints as `[redacted]`); null: the key is read from
   * (or, on first start, created at) `tokenSecretFile`. See `src/auth/token-key.ts`.
   */
  tokenSecret: SecretText | null;
  /** `TOKEN_SECRET_FILE`, absolute; default `<DATA_DIR>.token-secret`, a sibling of the data directory. */
  tokenSecretFile: string;
  /** Seconds between two writes of the usage metrics gathered in memory (`METRICS_FLUSH_SECONDS`); a crash loses at most this much. */
  metricsFlushSeconds: number;
  /** `CLIENT_STREAMING`: serve `GET /api/client/streaming` (default true); false: it answers 404 and SDKs poll. */
  clientStreaming: boolean;
  /** `CLIENT_STREAMING_MAX_CONNECTIONS`: streams open at once; one more is answered 429 (the SDK falls back to polling). */
  clientStreamingMaxConnections: number;
  /** `CLIENT_STREAMING_BUFFER_BYTES`: bytes a stream may hold unread before it is closed as a stalled client. */
  clientStreamingBufferBytes: number;
  /** `CLIENT_STREAMING_KEEPALIVE_MS`: milliseconds between two `: keep-alive` comments on every stream. */
  clientStreamingKeepAliveMs: number;
  /** `CLIENT_FETCH_MODE`: `streaming` tells polling SDKs to stream (`fetch-mode` header on `/api/client/features`); default `polling`. */
  clientFetchMode: 'polling' | 'streaming';
  /** `CLIENT_DELTA_HISTORY_EVENTS` / `_BYTES`: how much committed history deltas are answered from. */
  clientDeltaHistory: { events: number; bytes: number };
  /** `OFREP_STREAM_TICKET_SECONDS`: the most an OFREP event-stream ticket lives (it is valid for half to all of it). */
  ofrepStreamTicketSeconds: number;
  /** `OFREP_PUBLIC_URL`: the origin the OFREP `eventStreams` URL names (behind a proxy); null: the request's own. */
  ofrepPublicUrl: string | null;
  /** `METRICS_REQUIRE_TOKEN`: whether `GET /internal-backstage/prometheus` needs an admin token (default false, as Unleash). */
  metricsRequireToken: boolean;
  /** `WRITE_TIMEOUT_MS`: how long a write waits for the disk before its caller is answered 503. */
  writeTimeoutMs: number;
  /** Several nodes on one database (docs/operations.md "Several nodes"): how long they wait and when they give up. */
  nodes: NodesConfig;
  /** `SHUTDOWN_TIMEOUT_MS`: the most a SIGTERM/SIGINT stop takes before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** The console's sign-in and sessions (README "Console", docs/limits.md "Sign-in"). */
  console: ConsoleConfig;
  /** How addon events are delivered (docs/operations.md "Integrations"). */
  addons: DeliverySettings;
}

/** The console's settings. */
export interface ConsoleConfig {
  /** `SESSION_IDLE_MINUTES` (default 720): a session unused this long ends. */
  sessionIdleMs: number;
  /** `SESSION_MAX_HOURS` (default 168): a session ends this long after its sign-in, used or not. */
  sessionMaxMs: number;
  /** `CONSOLE_SECURE_COOKIES`: mark the session cookie `Secure` (and expect `https` origins) behind a TLS proxy. */
  secureCookies: boolean;
  /** `LOGIN_FAILURES_PER_USER` / `LOGIN_FAILURES_PER_ADDRESS` (default 10 each): failed sign-ins a minute before 429. */
  loginFailuresPerUser: number;
  loginFailuresPerAddress: number;
  /**
   * `PASSWORD_CHECKS_RUNNING` / `PASSWORD_CHECKS_WAITING` (default 2 / 32): password checks (scrypt) run at once
   * and waiting; past both, 503. Raise the first only with `UV_THREADPOOL_SIZE`: LevelDB needs the other threads.
   */
  passwordChecksRunning: number;
  passwordChecksWaiting: number;
  /** `PAST_VIEW_CHECKPOINT_BYTES` (default 128 MiB): the byte budget of every project's past-view checkpoints. */
  pastViewCheckpointBytes: number;
}

/**
 * Where the token key comes from: `TOKEN_SECRET` (at least 32 characters) or a key file outside the data
 * directory, so a copy of the data directory alone never carries it. Messages give a length, never the value.
 */
function tokenKeySettings(env: Env): Pick<Config, 'tokenSecret' | 'tokenSecretFile'> {
  const dataDir = env.DATA_DIR;
  const secret = env.TOKEN_SECRET;
  const file = env.TOKEN_SECRET_FILE;
  if (secret !== undefined && file) throw new Error('TOKEN_SECRET and TOKEN_SECRET_FILE are both set: set one (the key itself, or the file that holds it)');
  if (secret !== undefined && secret.length < TOKEN_KEY_MIN_LENGTH) {
    throw new Error(`TOKEN_SECRET must be at least ${TOKEN_KEY_MIN_LENGTH} characters (e.g. from "openssl rand -hex 32"), got ${secret.length}; unset it to use the key file TOKEN_SECRET_FILE`);
  }
  const data = resolve(dataDir);
  const tokenSecretFile = resolve(file || `${data}.token-secret`);
  const fromData = relative(data, tokenSecretFile);
  const outside = fromData === '..' || fromData.startsWith(`..${sep}`) || isAbsolute(fromData);
  if (!outside) {
    throw new Error(`TOKEN_SECRET_FILE must be outside the data directory (DATA_DIR=${dataDir}), or a copy of the data directory would carry the key; got "${tokenSecretFile}"`);
  }
  return { tokenSecret: secret === undefined ? null : new SecretText(secret), tokenSecretFile };
}

/**
 * Reads the configuration from the environment through {@link ENV_SCHEMA} (every variable's kind, default and
 * bounds); throws with the variable's name on a bad value, so a typo stops the start instead of running with
 * a surprise. Messages never repeat a secret (a token, the key, a database URL).
 *
 * @example readConfig({ PORT: '8080' }).port // 8080
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = v.safeParse(ENV_SCHEMA, env, { abortEarly: true });
  if (!parsed.success) throw new Error(firstIssue(parsed.issues));
  const e = parsed.output;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    database: databaseSettings(e),
    authType: e.AUTH_TYPE,
    initAdminApiTokens: e.INIT_ADMIN_API_TOKENS,
    initFrontendApiTokens: e.INIT_FRONTEND_API_TOKENS,
    frontendCorsOrigins: e.FRONTEND_CORS_ORIGINS,
    initClientApiTokens: e.INIT_CLIENT_API_TOKENS,
    initEnvironments: e.INIT_ENVIRONMENTS.length > 0 ? e.INIT_ENVIRONMENTS : ['development', 'production'],
    bodyLimit: e.BODY_LIMIT,
    importBodyLimit: e.IMPORT_BODY_LIMIT,
    snapshotEvery: e.SNAPSHOT_EVERY,
    logRetention: e.LOG_RETENTION,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    limits: Object.fromEntries(Object.entries(LIMIT_VARIABLES).map(([key, variable]) => [key, (e as unknown as Record<string, number>)[variable]])) as unknown as Limits,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    maxConnections: e.MAX_CONNECTIONS,
    ...tokenKeySettings(e),
    metricsFlushSeconds: e.METRICS_FLUSH_SECONDS,
    clientStreaming: e.CLIENT_STREAMING,
    clientStreamingMaxConnections: e.CLIENT_STREAMING_MAX_CONNECTIONS,
    clientStreamingBufferBytes: e.CLIENT_STREAMING_BUFFER_BYTES,
    clientStreamingKeepAliveMs: e.CLIENT_STREAMING_KEEPALIVE_MS,
    clientFetchMode: e.CLIENT_FETCH_MODE,
    clientDeltaHistory: { events: e.CLIENT_DELTA_HISTORY_EVENTS, bytes: e.CLIENT_DELTA_HISTORY_BYTES },
    ofrepStreamTicketSeconds: e.OFREP_STREAM_TICKET_SECONDS,
    ofrepPublicUrl: e.OFREP_PUBLIC_URL,
    metricsRequireToken: e.METRICS_REQUIRE_TOKEN,
    writeTimeoutMs: e.WRITE_TIMEOUT_MS,
    nodes: { contactTimeoutMs: e.DATABASE_CONTACT_TIMEOUT_MS, catchUpWaitMs: e.NODE_CATCH_UP_WAIT_MS },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    console: {
      sessionIdleMs: e.SESSION_IDLE_MINUTES,
      sessionMaxMs: e.SESSION_MAX_HOURS,
      secureCookies: e.CONSOLE_SECURE_COOKIES,
      loginFailuresPerUser: e.LOGIN_FAILURES_PER_USER,
      loginFailuresPerAddress: e.LOGIN_FAILURES_PER_ADDRESS,
      passwordChecksRunning: e.PASSWORD_CHECKS_RUNNING,
      passwordChecksWaiting: e.PASSWORD_CHECKS_WAITING,
      pastViewCheckpointBytes: e.PAST_VIEW_CHECKPOINT_BYTES,
    },
    addons: addonSettings(e),
  };
}
