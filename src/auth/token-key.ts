import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretText } from './secret-text.js';
import { TOKEN_KEY_MIN_LENGTH, TokenHasher } from './token-hasher.js';

/** Random bytes of a key file created on first start (written as 64 hex digits and a newline). */
export const TOKEN_KEY_BYTES = 32;

/** Where the token key comes from (`Config`'s `tokenSecret` and `tokenSecretFile`, read by `readConfig`). */
export interface TokenKeySettings {
  /** `TOKEN_SECRET`, or null when unset. */
  tokenSecret: SecretText | null;
  /** `TOKEN_SECRET_FILE`, resolved (its default: `<DATA_DIR>.token-secret`). */
  tokenSecretFile: string;
}

/** The token hasher of this installation, and what an operator should hear about how its key was found. */
export interface LoadedTokenKey {
  hasher: TokenHasher;
  /** The key file created by this call (none existed), or null. */
  created: string | null;
  /** Things worth a warning in the log (never the key). */
  warnings: string[];
}

/**
 * Builds the {@link TokenHasher} from the configuration: `TOKEN_SECRET` when set, else the key file at
 * `TOKEN_SECRET_FILE` (default `<DATA_DIR>.token-secret`), created with mode 0600 holding 32 random bytes
 * (hex) when missing. The file's text, less one final line break, is the key, exactly as `TOKEN_SECRET` would
 * be, so `TOKEN_SECRET="$(cat data.token-secret)"` hashes the same. A file that cannot be read or holds
 * fewer than 32 characters stops the start with a message naming `TOKEN_SECRET_FILE` (and never the key).
 *
 * @example const { hasher } = loadTokenHasher(readConfig());
 */
export function loadTokenHasher(config: TokenKeySettings): LoadedTokenKey {
  if (config.tokenSecret) return { hasher: new TokenHasher(config.tokenSecret.reveal()), created: null, warnings: [] };
  const path = config.tokenSecretFile;
  const created = createIfMissing(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new Error(`TOKEN_SECRET_FILE: cannot read the token key file ${path}: ${(error as Error).message}`);
  }
  if (text.length < TOKEN_KEY_MIN_LENGTH) {
    throw new Error(`TOKEN_SECRET_FILE: the token key file ${path} holds ${text.length} characters, at least ${TOKEN_KEY_MIN_LENGTH} are needed (remove it to have a new key created: tokens hashed under the old key then stop working)`);
  }
  const warnings: string[] = [];
  const mode = statSync(path).mode & 0o777;
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    warnings.push(`TOKEN_SECRET_FILE: the token key file ${path} can be read by other users (mode ${mode.toString(8)}); chmod 600 it`);
  }
  return { hasher: new TokenHasher(text), created: created ? path : null, warnings };
}

/**
 * Writes a new key file unless one exists; `wx` makes two starts racing on it agree on the first one written.
 * The file and its directory are synced before any token is hashed with it: tokens stored durably under a
 * key lost to a power cut would never authenticate again.
 */
function createIfMissing(path: string): boolean {
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new Error(`TOKEN_SECRET_FILE: cannot create the token key file ${path}: ${(error as Error).message}`);
  }
  try {
    writeSync(fd, `${randomBytes(TOKEN_KEY_BYTES).toString('hex')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncDirectory(dirname(path));
  return true;
}

/** Makes a new directory entry durable; some platforms cannot open a directory, which costs nothing there. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows: directories cannot be synced this way; its file system journals the entry.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * What the store keeps to tell whether a node has the installation's token key: an HMAC of a fixed text under
 * it (never the key, nor anything a token's hash could be told from). Nodes on one database compare it at
 * start (`src/actors/token-key-check.ts`).
 *
 * @example tokenKeyFingerprint(new TokenHasher(key)) // 64 hex digits, the same on every node with that key
 */
export const tokenKeyFingerprint = (hasher: TokenHasher): string => hasher.hash('flagpole:token-key-fingerprint:v1');
