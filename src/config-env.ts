import * as v from 'valibot';
import { clientTokenSecret } from './auth/tokens.js';
import { booleanVar, choiceVar, durationVar, integerVar, listVar, optionalVar, textVar, type Var } from './config-vars.js';
import { DEFAULT_LIMITS, LIMIT_VARIABLES, PASSWORD_CHECKS, PAST_VIEW_CHECKPOINT_BYTES, SHAPE_LIMITS, type Limits } from './limits.js';
import { LOG_LEVELS } from './log.js';
import { RESERVED_NAMES } from './schemas/common.schema.js';

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

/** A list whose every item `read` turns into a setting, or refuses with a message (it names the variable). */
function listOf<T>(read: (item: string) => T): Var<T[]> {
  return v.pipe(listVar(), v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return dataset.value.map(read);
    } catch (error) {
      addIssue({ message: (error as Error).message });
      return NEVER;
    }
  }));
}

/** Environment names to create in a new store: each a valid, unreserved name. */
const environmentsVar: Var<string[]> = v.pipe(listVar(), v.check(
  (names) => names.every((name) => encodeURIComponent(name) === name && name !== '*' && name.length <= 100 && !RESERVED_NAMES.has(name)),
  (issue) => `INIT_ENVIRONMENTS: "${(issue.input as string[]).find((name) => encodeURIComponent(name) !== name || name === '*' || name.length > 100 || RESERVED_NAMES.has(name))}" is not a valid environment name`,
));

/** An http(s) origin (`https://flags.example.com`, a path prefix allowed), without a trailing slash; unset: null. */
function publicUrlVar(name: string): Var<string | null> {
  return v.pipe(v.optional(v.string(), ''), v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const value = dataset.value;
    if (value === '') return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      addIssue({ message: `${name} must be an http(s) URL such as https://flags.example.com, got "${value.slice(0, 200)}"` });
      return NEVER;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
      addIssue({ message: `${name} must be an http(s) URL without query, fragment or credentials, got "${value.slice(0, 200)}"` });
      return NEVER;
    }
    return url.href.replace(/\/+$/, '');
  }));
}

/** `all` (the default), or how many log records to keep before the older of the two newest snapshots. */
const retentionVar: Var<number | 'all'> = v.optional(v.union([
  v.literal('all'),
  integerVar('LOG_RETENTION', 0, 0, Number.MAX_SAFE_INTEGER),
], (issue) => issue.issues?.at(-1)?.message ?? 'LOG_RETENTION must be "all" or an integer'), 'all');

/** `LIMIT_*`: one integer variable per limit (docs/limits.md). */
const limitVars = Object.fromEntries(Object.entries(LIMIT_VARIABLES).map(([key, variable]) =>
  [variable, integerVar(variable, DEFAULT_LIMITS[key as keyof Limits], 1, 1_000_000_000)])) as Record<string, Var<number>>;

/**
 * Every variable the service reads, by name, with its kind, default and bounds (README "Configuration").
 * Parsing `process.env` with it keeps only these; the first bad value is the start's error.
 */
export const ENV_SCHEMA = v.object({
  PORT: integerVar('PORT', 4242, 0, 65535),
  HOST: textVar('127.0.0.1'),
  DATA_DIR: textVar('./data'),
  AUTH_TYPE: v.pipe(v.optional(v.string(), 'api-token'), v.picklist(['api-token', 'none'] as const, (issue) => `AUTH_TYPE must be "api-token" or "none", got "${String(issue.input)}"`)),
  INIT_ADMIN_API_TOKENS: listVar(),
  INIT_FRONTEND_API_TOKENS: listOf((secret) => frontendTokenSecret('INIT_FRONTEND_API_TOKENS', secret)),
  FRONTEND_CORS_ORIGINS: listVar('*'),
  INIT_CLIENT_API_TOKENS: listOf((secret) => clientTokenSecret('INIT_CLIENT_API_TOKENS', secret)),
  INIT_ENVIRONMENTS: environmentsVar,
  BODY_LIMIT: integerVar('BODY_LIMIT', SHAPE_LIMITS.bodyBytes, 1024, 64 * 1024 * 1024),
  IMPORT_BODY_LIMIT: integerVar('IMPORT_BODY_LIMIT', SHAPE_LIMITS.importBodyBytes, 1024, 1024 * 1024 * 1024),
  SNAPSHOT_EVERY: integerVar('SNAPSHOT_EVERY', 1000, 1, 10_000_000),
  LOG_RETENTION: retentionVar,
  LOG_LEVEL: choiceVar('LOG_LEVEL', LOG_LEVELS, 'info', (raw) => raw.toLowerCase()),
  LOG_FORMAT: choiceVar('LOG_FORMAT', ['json', 'pretty'] as const, () => (process.stdout.isTTY ? 'pretty' : 'json')),
  ...limitVars,
  HEADERS_TIMEOUT_MS: integerVar('HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000),
  REQUEST_TIMEOUT_MS: integerVar('REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000),
  MAX_CONNECTIONS: integerVar('MAX_CONNECTIONS', 30_000, 1, 1_000_000),
  TOKEN_SECRET: optionalVar(),
  TOKEN_SECRET_FILE: optionalVar(),
  METRICS_FLUSH_SECONDS: integerVar('METRICS_FLUSH_SECONDS', 10, 1, 3600),
  CLIENT_STREAMING: booleanVar('CLIENT_STREAMING', true),
  CLIENT_STREAMING_MAX_CONNECTIONS: integerVar('CLIENT_STREAMING_MAX_CONNECTIONS', 10_000, 0, 1_000_000),
  CLIENT_STREAMING_BUFFER_BYTES: integerVar('CLIENT_STREAMING_BUFFER_BYTES', 1024 * 1024, 1024, 256 * 1024 * 1024),
  // The SDK's read timeout is 60 s: a comment at most every 30 s keeps a quiet stream open.
  CLIENT_STREAMING_KEEPALIVE_MS: integerVar('CLIENT_STREAMING_KEEPALIVE_MS', 15_000, 50, 30_000),
  CLIENT_FETCH_MODE: choiceVar('CLIENT_FETCH_MODE', ['polling', 'streaming'] as const, 'polling'),
  CLIENT_DELTA_HISTORY_EVENTS: integerVar('CLIENT_DELTA_HISTORY_EVENTS', 50_000, 1, 10_000_000),
  CLIENT_DELTA_HISTORY_BYTES: integerVar('CLIENT_DELTA_HISTORY_BYTES', 16 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  OFREP_STREAM_TICKET_SECONDS: integerVar('OFREP_STREAM_TICKET_SECONDS', 900, 10, 86_400),
  OFREP_PUBLIC_URL: publicUrlVar('OFREP_PUBLIC_URL'),
  PUBLIC_URL: publicUrlVar('PUBLIC_URL'),
  SLACK_API_URL: publicUrlVar('SLACK_API_URL'),
  ADDON_REQUEST_TIMEOUT_MS: integerVar('ADDON_REQUEST_TIMEOUT_MS', 10_000, 10, 600_000),
  UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION: booleanVar('UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION', false),
  UNLEASH_ALLOW_LIST_INTEGRATION: listVar(),
  ADDON_RETRY_FIRST_MS: integerVar('ADDON_RETRY_FIRST_MS', 5000, 1, 3_600_000),
  ADDON_RETRY_MAX_MS: integerVar('ADDON_RETRY_MAX_MS', 600_000, 1, 86_400_000),
  ADDON_RETRY_GIVE_UP_MS: integerVar('ADDON_RETRY_GIVE_UP_MS', 86_400_000, 1, 30 * 86_400_000),
  METRICS_REQUIRE_TOKEN: booleanVar('METRICS_REQUIRE_TOKEN', false),
  WRITE_TIMEOUT_MS: integerVar('WRITE_TIMEOUT_MS', 10_000, 100, 600_000),
  SHUTDOWN_TIMEOUT_MS: integerVar('SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
  SESSION_IDLE_MINUTES: durationVar('SESSION_IDLE_MINUTES', 720, 60_000),
  SESSION_MAX_HOURS: durationVar('SESSION_MAX_HOURS', 168, 3_600_000),
  CONSOLE_SECURE_COOKIES: booleanVar('CONSOLE_SECURE_COOKIES', false),
  LOGIN_FAILURES_PER_USER: integerVar('LOGIN_FAILURES_PER_USER', 10, 1, 1_000_000),
  LOGIN_FAILURES_PER_ADDRESS: integerVar('LOGIN_FAILURES_PER_ADDRESS', 10, 1, 1_000_000),
  PASSWORD_CHECKS_RUNNING: integerVar('PASSWORD_CHECKS_RUNNING', PASSWORD_CHECKS.running, 1, 1024),
  PASSWORD_CHECKS_WAITING: integerVar('PASSWORD_CHECKS_WAITING', PASSWORD_CHECKS.waiting, 0, 1_000_000),
  PAST_VIEW_CHECKPOINT_BYTES: integerVar('PAST_VIEW_CHECKPOINT_BYTES', PAST_VIEW_CHECKPOINT_BYTES, 1, 2 ** 40),
  DATABASE_URL: optionalVar(),
  DATABASE_URL_FILE: optionalVar(),
  DATABASE_SSL_CA_FILE: optionalVar(),
  DATABASE_POOL_SIZE: integerVar('DATABASE_POOL_SIZE', 10, 1, 1000),
  DATABASE_CONTACT_TIMEOUT_MS: integerVar('DATABASE_CONTACT_TIMEOUT_MS', 5000, 1000, 600_000),
  NODE_CATCH_UP_WAIT_MS: integerVar('NODE_CATCH_UP_WAIT_MS', 1000, 0, 30_000),
  DATABASE_STATEMENT_TIMEOUT_MS: integerVar('DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
  DATABASE_SCHEMA: v.pipe(textVar('public'), v.regex(/^[a-z_][a-z0-9_]{0,62}$/, (issue) => `DATABASE_SCHEMA must be a lower-case SQL name (letters, digits and _, at most 63), got "${String(issue.input).slice(0, 70)}"`)),
});

/** The environment as {@link ENV_SCHEMA} reads it. */
export type Env = v.InferOutput<typeof ENV_SCHEMA>;
