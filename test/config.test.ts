/**
 * The configuration read from the environment (src/config.ts over the valibot schema of config-env.ts):
 * defaults, one message naming the variable for each kind of bad value, and the PostgreSQL settings, whose
 * URL (it holds a password) no message repeats.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { readConfig } from '../src/config.js';
import { test } from './helpers/fixtures.js';

const URL = 'postgres://flagpole:s3cret-pass@db.internal:5432/flags';

describe('the environment', () => {
  test('unset, every setting has its default, and LevelDB in ./data keeps the data', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      port: 4242, host: '127.0.0.1', dataDir: './data', database: null, authType: 'api-token', initEnvironments: ['development', 'production'],
      frontendCorsOrigins: ['*'], snapshotEvery: 1000, logRetention: 'all', logLevel: 'info', ofrepPublicUrl: null, writeTimeoutMs: 10_000,
      clientFetchMode: 'polling', clientStreaming: true, console: { sessionIdleMs: 720 * 60_000, secureCookies: false },
    });
  });

  test('each kind of variable reads its text, and empty means unset', () => {
    const config = readConfig({ PORT: '8080', HOST: '', LOG_RETENTION: '5', LOG_LEVEL: 'DEBUG', SESSION_IDLE_MINUTES: '0.5', CONSOLE_SECURE_COOKIES: '1', INIT_ENVIRONMENTS: 'a, b,,c', LIMIT_USERS: '7', OFREP_PUBLIC_URL: 'https://flags.example.com/' });
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', logRetention: 5, logLevel: 'debug', initEnvironments: ['a', 'b', 'c'], ofrepPublicUrl: 'https://flags.example.com' });
    expect(config.console).toMatchObject({ sessionIdleMs: 30_000, secureCookies: true });
    expect(config.limits.users).toBe(7);
  });

  test.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535, got "eighty"'],
    [{ LOG_RETENTION: 'some' }, 'LOG_RETENTION must be an integer from 0 to 9007199254740991, got "some"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ CLIENT_FETCH_MODE: 'push' }, 'CLIENT_FETCH_MODE must be "polling" or "streaming", got "push"'],
    [{ CLIENT_STREAMING: 'yes' }, 'CLIENT_STREAMING must be "true" or "false", got "yes"'],
    [{ SESSION_MAX_HOURS: '-1' }, 'SESSION_MAX_HOURS must be a positive number up to 1000000, got "-1"'],
    [{ AUTH_TYPE: 'basic' }, 'AUTH_TYPE must be "api-token" or "none", got "basic"'],
    [{ INIT_ENVIRONMENTS: 'ok,not ok' }, 'INIT_ENVIRONMENTS: "not ok" is not a valid environment name'],
    [{ OFREP_PUBLIC_URL: 'ftp://x' }, 'OFREP_PUBLIC_URL must be an http(s) URL without query, fragment or credentials, got "ftp://x"'],
    [{ LIMIT_PROJECTS: '0' }, 'LIMIT_PROJECTS must be an integer from 1 to 1000000000, got "0"'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE must be an integer from 1 to 1000, got "0"'],
    [{ DATABASE_SCHEMA: 'Flag-Pole' }, 'DATABASE_SCHEMA must be a lower-case SQL name'],
  ])('%o stops the start naming the variable', (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });
});

describe('PostgreSQL settings', () => {
  test('DATABASE_URL keeps the data in PostgreSQL, with the pool, timeout and schema beside it', () => {
    expect(readConfig({ DATABASE_URL: URL }).database).toEqual({ url: URL, schema: 'public', poolSize: 10, statementTimeoutMs: 30_000, sslCa: undefined });
    expect(readConfig({ DATABASE_URL: URL, DATABASE_POOL_SIZE: '4', DATABASE_STATEMENT_TIMEOUT_MS: '5000', DATABASE_SCHEMA: 'flags_prod' }).database)
      .toMatchObject({ poolSize: 4, statementTimeoutMs: 5000, schema: 'flags_prod' });
  });

  test('credentials from a file, a CA for TLS from a file; unreadable files are named, never their contents', ({ tempDir }) => {
    const dir = tempDir('config');
    writeFileSync(join(dir, 'url'), `${URL}\n`);
    writeFileSync(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
    expect(readConfig({ DATABASE_URL_FILE: join(dir, 'url'), DATABASE_SSL_CA_FILE: join(dir, 'ca.pem') }).database).toMatchObject({ url: URL, sslCa: '-----BEGIN CERTIFICATE-----\n' });
    expect(() => readConfig({ DATABASE_URL_FILE: join(dir, 'missing') })).toThrow(`DATABASE_URL_FILE: cannot read ${join(dir, 'missing')} (ENOENT)`);
    expect(() => readConfig({ DATABASE_URL: URL, DATABASE_SSL_CA_FILE: join(dir, 'none.pem') })).toThrow(/^DATABASE_SSL_CA_FILE: cannot read .*none\.pem \(ENOENT\)/);
    expect(() => readConfig({ DATABASE_URL: URL, DATABASE_URL_FILE: join(dir, 'url') })).toThrow('DATABASE_URL and DATABASE_URL_FILE are both set');
  });

  test('a URL that is not postgres:// is refused without repeating it (it may hold a password)', () => {
    const bad = 'mysql://root:hunter2-secret@db/flags';
    const error = (() => { try { readConfig({ DATABASE_URL: bad }); } catch (e) { return e as Error; } return null; })();
    expect(error?.message).toMatch(/^DATABASE_URL must be a URL such as postgres:\/\/user:password@host:5432\/database, got one of 36 characters/);
    expect(error?.message).not.toContain('hunter2');
    expect(() => readConfig({ DATABASE_SCHEMA: 'flags' })).toThrow('DATABASE_SCHEMA is set but DATABASE_URL is not');
  });
});
