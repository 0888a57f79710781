import type { PoolConfig } from 'pg';

/**
 * Where and how the PostgreSQL store connects (`DATABASE_*` in the configuration). The URL holds the
 * credentials: it is kept here and handed to the driver, never printed (see {@link databaseLabel}).
 */
export interface DatabaseOptions {
  /** `postgres://user:password@host:5432/database?sslmode=...` (sslmode as the driver reads it). */
  url: string;
  /** The schema that holds flagpole's tables (`public` by default); created when missing. */
  schema: string;
  /** Connections for reads and unsynced writes (the group commit and the node lock have one each besides). */
  poolSize: number;
  /** The most one statement may run, ms, before the database cancels it. */
  statementTimeoutMs: number;
  /** PEM text of the CA that signed the server's certificate (`DATABASE_SSL_CA_FILE`): TLS, certificate verified. */
  sslCa?: string | undefined;
  /** The most connecting may take, ms; 5 s when absent. */
  connectTimeoutMs?: number | undefined;
}

/** How the driver connects a client: the URL, TLS, timeouts, and a name that shows in `pg_stat_activity`. */
export function clientConfigOf(options: DatabaseOptions): PoolConfig {
  const url = new URL(options.url);
  let ssl: PoolConfig['ssl'];
  if (options.sslCa !== undefined) {
    const mode = url.searchParams.get('sslmode');
    // The driver lets sslmode from the URL replace the TLS options given beside it: the CA file decides here.
    for (const name of ['sslmode', 'sslrootcert', 'sslcert', 'sslkey']) url.searchParams.delete(name);
    ssl = { ca: options.sslCa, rejectUnauthorized: true, ...(mode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}) };
  }
  return {
    connectionString: url.href,
    ...(ssl === undefined ? {} : { ssl }),
    statement_timeout: options.statementTimeoutMs,
    // A statement the network swallowed is given up a little after the database would have cancelled it.
    query_timeout: options.statementTimeoutMs + 5_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    keepAlive: true,
    application_name: 'flagpole',
  };
}

/**
 * The database as it may be printed: `host:port/database` (schema when not `public`), without user, password
 * or parameters.
 *
 * @example databaseLabel({ url: 'postgres://u:secret@db:5432/flags', schema: 'public', ... }) // 'postgres://db:5432/flags'
 */
export function databaseLabel(options: Pick<DatabaseOptions, 'url' | 'schema'>): string {
  try {
    const url = new URL(options.url);
    const schema = options.schema === 'public' ? '' : ` (schema ${options.schema})`;
    return `postgres://${url.host}${url.pathname}${schema}`;
  } catch {
    return 'postgres (an unreadable URL)';
  }
}

/**
 * `message` with every credential of `options` replaced: the URL, its password and user. Errors of the driver
 * may quote what they were given; nothing of it reaches a log line or an answer unscrubbed.
 */
export function scrub(message: string, options: Pick<DatabaseOptions, 'url'>): string {
  let text = message.split(options.url).join('[database URL]');
  try {
    const url = new URL(options.url);
    for (const secret of [url.password, decodeURIComponent(url.password)]) if (secret.length >= 3) text = text.split(secret).join('[redacted]');
  } catch {
    // An unreadable URL: only its whole text is known, and was replaced.
  }
  // Any URL with credentials that slipped through in another spelling.
  return text.replace(/\b(postgres(?:ql)?:\/\/)[^\s@/]*@/gi, '$1[redacted]@');
}
