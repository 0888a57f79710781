/**
 * The token key: settings (`TOKEN_SECRET`, `TOKEN_SECRET_FILE`), the key file created on first start, and
 * the keyed hash built from it. The key must never be printable from the objects that hold it.
 */
import { chmodSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect } from 'vitest';
import { TokenHasher, legacyHash } from '../../src/auth/token-hasher.js';
import { loadTokenHasher } from '../../src/auth/token-key.js';
import { readConfig } from '../../src/config.js';
import { test } from '../helpers/fixtures.js';

const KEY_A = 'token-key-a-0123456789abcdef0123456789';
const KEY_B = 'token-key-b-0123456789abcdef0123456789';
const SECRET = '*:*.an-operator-chosen-init-token';

describe('TokenHasher', () => {
  test('HMAC-SHA256: the same key gives the same hash, two keys give two, and neither is the unkeyed SHA-256', () => {
    const a = new TokenHasher(KEY_A);
    const b = new TokenHasher(KEY_B);
    expect(a.hash(SECRET)).toMatch(/^[0-9a-f]{64}$/);
    expect(new TokenHasher(KEY_A).hash(SECRET)).toBe(a.hash(SECRET));
    expect(b.hash(SECRET)).not.toBe(a.hash(SECRET));
    expect(a.hash(SECRET)).not.toBe(legacyHash(SECRET));
    expect(a.hash(`${SECRET}x`)).not.toBe(a.hash(SECRET));
  });

  test('refuses a key shorter than 32 characters, without repeating it', () => {
    expect(() => new TokenHasher('short-key-9999')).toThrow('at least 32 characters, got 14');
    expect(() => new TokenHasher('short-key-9999')).not.toThrow(/short-key/);
  });

  test('the key never shows in JSON, inspect or string conversion of the hasher or the config', () => {
    const config = readConfig({ DATA_DIR: '/tmp/x', TOKEN_SECRET: KEY_A });
    const hasher = loadTokenHasher(config).hasher;
    for (const printed of [JSON.stringify(config), inspect(config, { depth: 10, showHidden: true }), String(config.tokenSecret), JSON.stringify({ hasher }), inspect(hasher, { showHidden: true }), `${hasher}`]) {
      expect(printed).not.toContain(KEY_A.slice(12));
    }
    expect(JSON.stringify(config)).toContain('"tokenSecret":"[redacted]"');
  });
});

describe('TOKEN_SECRET and TOKEN_SECRET_FILE', () => {
  test('a bad value stops the start with a message naming the variable, never the value', () => {
    expect(() => readConfig({ TOKEN_SECRET: 'too-short-secret' })).toThrow(/^TOKEN_SECRET must be at least 32 characters .*got 16/);
    expect(() => readConfig({ TOKEN_SECRET: 'too-short-secret' })).not.toThrow(/too-short/);
    expect(() => readConfig({ TOKEN_SECRET: '' })).toThrow(/^TOKEN_SECRET must be at least 32/);
    expect(() => readConfig({ TOKEN_SECRET: KEY_A, TOKEN_SECRET_FILE: '/tmp/k' })).toThrow('TOKEN_SECRET and TOKEN_SECRET_FILE are both set');
    expect(() => readConfig({ DATA_DIR: '/srv/data', TOKEN_SECRET_FILE: '/srv/data/token-secret' })).toThrow(/^TOKEN_SECRET_FILE must be outside the data directory/);
    expect(() => readConfig({ DATA_DIR: '/srv/data', TOKEN_SECRET_FILE: '/srv/data' })).toThrow(/^TOKEN_SECRET_FILE must be outside/);
  });

  test('the key file defaults to a sibling of the data directory, <DATA_DIR>.token-secret', () => {
    expect(readConfig({}).tokenSecretFile).toBe(resolve('./data.token-secret'));
    expect(readConfig({ DATA_DIR: '/srv/flagpole/data/' }).tokenSecretFile).toBe('/srv/flagpole/data.token-secret');
    expect(readConfig({ DATA_DIR: '/srv/data', TOKEN_SECRET_FILE: '/etc/flagpole/key' }).tokenSecretFile).toBe('/etc/flagpole/key');
    expect(readConfig({ DATA_DIR: '/srv/data', TOKEN_SECRET_FILE: '/srv/data..key' }).tokenSecretFile).toBe('/srv/data..key');
    expect(readConfig({}).tokenSecret).toBeNull();
  });

  test('a missing key file is created (mode 0600, 32 random bytes as hex) and then reused', ({ tempDir }) => {
    const dir = tempDir('key');
    const config = readConfig({ DATA_DIR: join(dir, 'data') });
    const first = loadTokenHasher(config);
    expect(first.created).toBe(join(dir, 'data.token-secret'));
    expect(first.warnings).toEqual([]);
    const text = readFileSync(first.created!, 'utf8');
    expect(text).toMatch(/^[0-9a-f]{64}\n$/);
    if (process.platform !== 'win32') expect(statSync(first.created!).mode & 0o777).toBe(0o600);

    const second = loadTokenHasher(config);
    expect(second.created).toBeNull();
    expect(second.hasher.hash(SECRET)).toBe(first.hasher.hash(SECRET));
    // The file's text is the key exactly as TOKEN_SECRET would be: moving it into the environment keeps every token.
    const fromEnv = loadTokenHasher(readConfig({ DATA_DIR: join(dir, 'data'), TOKEN_SECRET: text.trim() }));
    expect(fromEnv.hasher.hash(SECRET)).toBe(first.hasher.hash(SECRET));
    // Another installation's key gives other hashes.
    rmSync(first.created!);
    expect(loadTokenHasher(config).hasher.hash(SECRET)).not.toBe(first.hasher.hash(SECRET));
  });

  test('a key file that is too short stops the start naming TOKEN_SECRET_FILE; one others can read is warned about', ({ tempDir }) => {
    const dir = tempDir('key');
    const file = join(dir, 'key');
    writeFileSync(file, 'not-long-enough\n', { mode: 0o600 });
    const config = readConfig({ DATA_DIR: join(dir, 'data'), TOKEN_SECRET_FILE: file });
    expect(() => loadTokenHasher(config)).toThrow(/^TOKEN_SECRET_FILE: the token key file .* holds 15 characters, at least 32/);
    expect(() => loadTokenHasher(config)).not.toThrow(/not-long/);
    writeFileSync(file, `${KEY_A}\n`);
    if (process.platform !== 'win32') {
      chmodSync(file, 0o644);
      expect(loadTokenHasher(config).warnings).toEqual([expect.stringMatching(/can be read by other users \(mode 644\); chmod 600 it/)]);
    }
    expect(loadTokenHasher(config).hasher.hash(SECRET)).toBe(new TokenHasher(KEY_A).hash(SECRET));
  });
});
