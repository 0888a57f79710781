import { readFileSync } from 'node:fs';
import type { DatabaseOptions } from '../snapshots/open-store.js';
import type { Env } from './config-env.js';

/** The contents of the file `variable` names, or an error naming the variable and why (never the contents). */
function fileText(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${variable}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/**
 * The PostgreSQL settings (docs/operations.md "Running with PostgreSQL"): `DATABASE_URL`, or the file
 * `DATABASE_URL_FILE` that holds it (credentials kept out of the environment), TLS with the CA of
 * `DATABASE_SSL_CA_FILE`, the pool, the statement timeout and the schema; null when no URL is given
 * (LevelDB). A URL is never repeated in a message: it holds the password.
 */
export function databaseSettings(env: Env): DatabaseOptions | null {
  if (env.DATABASE_URL && env.DATABASE_URL_FILE) throw new Error('DATABASE_URL and DATABASE_URL_FILE are both set: set one (the URL itself, or the file that holds it)');
  const variable = env.DATABASE_URL_FILE ? 'DATABASE_URL_FILE' : 'DATABASE_URL';
  const url = env.DATABASE_URL_FILE ? fileText(variable, env.DATABASE_URL_FILE).trim() : env.DATABASE_URL;
  if (!url) {
    const orphan = env.DATABASE_SSL_CA_FILE ? 'DATABASE_SSL_CA_FILE' : env.DATABASE_SCHEMA !== 'public' ? 'DATABASE_SCHEMA' : null;
    if (orphan) throw new Error(`${orphan} is set but DATABASE_URL is not: set DATABASE_URL (or DATABASE_URL_FILE) to keep the data in PostgreSQL`);
    return null;
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new Error(`${variable} must be a URL such as postgres://user:password@host:5432/database, got one of ${url.length} characters that is not (not shown: it may hold a password)`);
  }
  return {
    url,
    schema: env.DATABASE_SCHEMA,
    poolSize: env.DATABASE_POOL_SIZE,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    sslCa: env.DATABASE_SSL_CA_FILE ? fileText('DATABASE_SSL_CA_FILE', env.DATABASE_SSL_CA_FILE) : undefined,
  };
}
