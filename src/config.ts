import { ADDON_DELIVERY_BOUNDS, DEFAULT_LIMITS, LIMIT_VARIABLES, PAST_VIEW_CHECKPOINT_BYTES, SHAPE_LIMITS, type Limits } from './limits.js';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { SecretText } from './auth/secret-text.js';
import { TOKEN_KEY_MIN_LENGTH } from './auth/token-hasher.js';
import { clientTokenSecret, type ClientTokenSecret } from './auth/tokens.js';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './log.js';
import { RESERVED_NAMES } from './schemas/common.schema.js';
import type { DeliverySettings } from './actors/addon-worker.js';

/** Service configuration, read from the environment (docs/api-decisions.md "Running the service"). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
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
  /** `PAST_VIEW_CHECKPOINT_BYTES` (default 128 MiB): the byte budget of every project's past-view checkpoints. */
  pastViewCheckpointBytes: number;
}

/** A positive number of `unit`s (decimals allowed, so a test can ask for seconds), as milliseconds. */
function duration(name: string, value: string | undefined, fallback: number, unitMs: number): number {
  if (value === undefined || value === '') return fallback * unitMs;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1_000_000) throw new Error(`${name} must be a positive number up to 1000000, got "${value.slice(0, 50)}"`);
  return Math.max(1, Math.round(n * unitMs));
}

function consoleSettings(env: NodeJS.ProcessEnv): ConsoleConfig {
  return {
    sessionIdleMs: duration('SESSION_IDLE_MINUTES', env['SESSION_IDLE_MINUTES'], 720, 60_000),
    sessionMaxMs: duration('SESSION_MAX_HOURS', env['SESSION_MAX_HOURS'], 168, 3_600_000),
    secureCookies: boolean('CONSOLE_SECURE_COOKIES', env['CONSOLE_SECURE_COOKIES'], false),
    loginFailuresPerUser: integer('LOGIN_FAILURES_PER_USER', env['LOGIN_FAILURES_PER_USER'], 10, 1, 1_000_000),
    loginFailuresPerAddress: integer('LOGIN_FAILURES_PER_ADDRESS', env['LOGIN_FAILURES_PER_ADDRESS'], 10, 1, 1_000_000),
    pastViewCheckpointBytes: integer('PAST_VIEW_CHECKPOINT_BYTES', env['PAST_VIEW_CHECKPOINT_BYTES'], PAST_VIEW_CHECKPOINT_BYTES, 1, 2 ** 40),
  };
}

/** A frontend token given at start, with the scope its secret names. */
export interface FrontendTokenSecret {
  secret: string;
  project: string;
  environment: string;
}

const SCOPE_NAME = /^[A-Za-z0-9\-_.!~*'()]{1,100}$/;

/**
 * The scope of an Unleash-shaped token secret `<project>:<environment>.<random>`: one project or `*` (a list,
 * `[]`, cannot be read from the secret), one environment (not `*`). Throws naming `variable`.
 */
export function frontendTokenSecret(variable: string, secret: string): FrontendTokenSecret {
  const match = /^([^:]+):([^.]+)\.([A-Za-z0-9_-]{8,400})$/.exec(secret);
  const project = match?.[1];
  const environment = match?.[2];
  if (!match || !project || !environment || !SCOPE_NAME.test(project) || !SCOPE_NAME.test(environment) || environment === '*' || RESERVED_NAMES.has(project) || RESERVED_NAMES.has(environment)) {
    throw new Error(`${variable}: a secret must be "<project or *>:<environment>.<8 to 400 letters, digits, - or _>", got one of ${secret.length} characters starting "${secret.slice(0, 20).replace(/[^\x20-\x7e]/g, '?')}"`);
  }
  return { secret, project, environment };
}

const list = (value: string | undefined): string[] =>
  (value ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);

/** `true`/`false` (also `1`/`0`); anything else stops the start naming the variable. */
function boolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`${name} must be "true" or "false", got "${value.slice(0, 50)}"`);
}

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

/**
 * Where the token key comes from: `TOKEN_SECRET` (at least 32 characters) or a key file outside the data
 * directory, so a copy of the data directory alone never carries it. Messages give a length, never the value.
 */
function tokenKeySettings(env: NodeJS.ProcessEnv, dataDir: string): Pick<Config, 'tokenSecret' | 'tokenSecretFile'> {
  const secret = env['TOKEN_SECRET'];
  const file = env['TOKEN_SECRET_FILE'];
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

/** An http(s) origin (`https://flags.example.com`, a path prefix allowed), without a trailing slash; absent: null. */
function publicUrl(name: string, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) URL such as https://flags.example.com, got "${value.slice(0, 200)}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`${name} must be an http(s) URL without query, fragment or credentials, got "${value.slice(0, 200)}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * The addons' settings: `PUBLIC_URL` (where the texts link to; `http://localhost:<PORT>` when unset), Unleash's
 * `UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION` and `UNLEASH_ALLOW_LIST_INTEGRATION`, the request timeout, the retry
 * schedule and Slack's Web API.
 */
function addonSettings(env: NodeJS.ProcessEnv, port: number): DeliverySettings {
  return {
    plan: {
      consoleUrl: publicUrl('PUBLIC_URL', env['PUBLIC_URL']) ?? `http://localhost:${port}`,
      slackApiUrl: publicUrl('SLACK_API_URL', env['SLACK_API_URL']) ?? 'https://slack.com/api',
    },
    sender: {
      timeoutMs: integer('ADDON_REQUEST_TIMEOUT_MS', env['ADDON_REQUEST_TIMEOUT_MS'], 10_000, 10, 600_000),
      guard: {
        allowPrivate: boolean('UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION', env['UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION'], false),
        allowList: list(env['UNLEASH_ALLOW_LIST_INTEGRATION']).map((host) => host.toLowerCase()),
      },
      answerBytes: ADDON_DELIVERY_BOUNDS.answerBytes,
    },
    retry: {
      firstMs: integer('ADDON_RETRY_FIRST_MS', env['ADDON_RETRY_FIRST_MS'], 5000, 1, 3_600_000),
      maxMs: integer('ADDON_RETRY_MAX_MS', env['ADDON_RETRY_MAX_MS'], 600_000, 1, 86_400_000),
      giveUpMs: integer('ADDON_RETRY_GIVE_UP_MS', env['ADDON_RETRY_GIVE_UP_MS'], 86_400_000, 1, 30 * 86_400_000),
    },
    recordsPerRead: ADDON_DELIVERY_BOUNDS.recordsPerRead,
    logEntries: ADDON_DELIVERY_BOUNDS.logEntriesPerAddon,
  };
}

/** The delta and streaming settings (docs/limits.md "Client streaming and deltas"). */
function clientStreamingSettings(env: NodeJS.ProcessEnv): Pick<Config, 'clientStreaming' | 'clientStreamingMaxConnections' | 'clientStreamingBufferBytes' | 'clientStreamingKeepAliveMs' | 'clientFetchMode' | 'clientDeltaHistory'> {
  const fetchMode = env['CLIENT_FETCH_MODE'] || 'polling';
  if (fetchMode !== 'polling' && fetchMode !== 'streaming') throw new Error(`CLIENT_FETCH_MODE must be "polling" or "streaming", got "${fetchMode}"`);
  return {
    clientStreaming: boolean('CLIENT_STREAMING', env['CLIENT_STREAMING'], true),
    clientStreamingMaxConnections: integer('CLIENT_STREAMING_MAX_CONNECTIONS', env['CLIENT_STREAMING_MAX_CONNECTIONS'], 10_000, 0, 1_000_000),
    clientStreamingBufferBytes: integer('CLIENT_STREAMING_BUFFER_BYTES', env['CLIENT_STREAMING_BUFFER_BYTES'], 1024 * 1024, 1024, 256 * 1024 * 1024),
    // The SDK's read timeout is 60 s: a comment at most every 30 s keeps a quiet stream open.
    clientStreamingKeepAliveMs: integer('CLIENT_STREAMING_KEEPALIVE_MS', env['CLIENT_STREAMING_KEEPALIVE_MS'], 15_000, 50, 30_000),
    clientFetchMode: fetchMode,
    clientDeltaHistory: {
      events: integer('CLIENT_DELTA_HISTORY_EVENTS', env['CLIENT_DELTA_HISTORY_EVENTS'], 50_000, 1, 10_000_000),
      bytes: integer('CLIENT_DELTA_HISTORY_BYTES', env['CLIENT_DELTA_HISTORY_BYTES'], 16 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    },
  };
}

/**
 * Reads the configuration; throws with the variable's name on a bad value, so a typo stops the start
 * instead of running with a surprise.
 *
 * @example readConfig({ PORT: '8080' }).port // 8080
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const authType = env['AUTH_TYPE'] ?? 'api-token';
  if (authType !== 'api-token' && authType !== 'none') throw new Error(`AUTH_TYPE must be "api-token" or "none", got "${authType}"`);
  const environments = list(env['INIT_ENVIRONMENTS']);
  for (const name of environments) {
    if (encodeURIComponent(name) !== name || name === '*' || name.length > 100 || RESERVED_NAMES.has(name)) throw new Error(`INIT_ENVIRONMENTS: "${name}" is not a valid environment name`);
  }
  const retention = env['LOG_RETENTION'] ?? 'all';
  const logLevel = (env['LOG_LEVEL'] || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env['LOG_LEVEL']}"`);
  const logFormat = env['LOG_FORMAT'] || (process.stdout.isTTY ? 'pretty' : 'json');
  if (logFormat !== 'json' && logFormat !== 'pretty') throw new Error(`LOG_FORMAT must be "json" or "pretty", got "${logFormat}"`);
  const dataDir = env['DATA_DIR'] || './data';
  const port = integer('PORT', env['PORT'], 4242, 0, 65535);
  return {
    port,
    host: env['HOST'] || '127.0.0.1',
    dataDir,
    authType,
    initAdminApiTokens: list(env['INIT_ADMIN_API_TOKENS']),
    initFrontendApiTokens: list(env['INIT_FRONTEND_API_TOKENS']).map((secret) => frontendTokenSecret('INIT_FRONTEND_API_TOKENS', secret)),
    frontendCorsOrigins: list(env['FRONTEND_CORS_ORIGINS'] ?? '*'),
    initClientApiTokens: list(env['INIT_CLIENT_API_TOKENS']).map((secret) => clientTokenSecret('INIT_CLIENT_API_TOKENS', secret)),
    initEnvironments: environments.length > 0 ? environments : ['development', 'production'],
    bodyLimit: integer('BODY_LIMIT', env['BODY_LIMIT'], SHAPE_LIMITS.bodyBytes, 1024, 64 * 1024 * 1024),
    importBodyLimit: integer('IMPORT_BODY_LIMIT', env['IMPORT_BODY_LIMIT'], SHAPE_LIMITS.importBodyBytes, 1024, 1024 * 1024 * 1024),
    snapshotEvery: integer('SNAPSHOT_EVERY', env['SNAPSHOT_EVERY'], 1000, 1, 10_000_000),
    logRetention: retention === 'all' ? 'all' : integer('LOG_RETENTION', retention, 0, 0, Number.MAX_SAFE_INTEGER),
    logLevel: logLevel as LogLevel,
    logFormat,
    limits: Object.fromEntries(Object.entries(LIMIT_VARIABLES).map(([key, variable]) =>
      [key, integer(variable, env[variable], DEFAULT_LIMITS[key as keyof Limits], 1, 1_000_000_000)])) as unknown as Limits,
    headersTimeoutMs: integer('HEADERS_TIMEOUT_MS', env['HEADERS_TIMEOUT_MS'], 10_000, 1000, 600_000),
    requestTimeoutMs: integer('REQUEST_TIMEOUT_MS', env['REQUEST_TIMEOUT_MS'], 30_000, 1000, 3_600_000),
    maxConnections: integer('MAX_CONNECTIONS', env['MAX_CONNECTIONS'], 30_000, 1, 1_000_000),
    ...tokenKeySettings(env, dataDir),
    metricsFlushSeconds: integer('METRICS_FLUSH_SECONDS', env['METRICS_FLUSH_SECONDS'], 10, 1, 3600),
    ...clientStreamingSettings(env),
    ofrepStreamTicketSeconds: integer('OFREP_STREAM_TICKET_SECONDS', env['OFREP_STREAM_TICKET_SECONDS'], 900, 10, 86_400),
    ofrepPublicUrl: publicUrl('OFREP_PUBLIC_URL', env['OFREP_PUBLIC_URL']),
    metricsRequireToken: boolean('METRICS_REQUIRE_TOKEN', env['METRICS_REQUIRE_TOKEN'], false),
    writeTimeoutMs: integer('WRITE_TIMEOUT_MS', env['WRITE_TIMEOUT_MS'], 10_000, 100, 600_000),
    shutdownTimeoutMs: integer('SHUTDOWN_TIMEOUT_MS', env['SHUTDOWN_TIMEOUT_MS'], 10_000, 100, 600_000),
    console: consoleSettings(env),
    addons: addonSettings(env, port),
  };
}
