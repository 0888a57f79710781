/**
 * Passwords: stored only as a salted scrypt hash (node:crypto) with its parameters, checked in constant time,
 * and a policy a user would expect (long enough, not their own name, not one of the first passwords any
 * attacker tries).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Fewest characters a password may have. */
export const PASSWORD_MIN_LENGTH = 8;
/** Most characters a password may have (scrypt hashes any length; this bounds the work a request can ask for). */
export const PASSWORD_MAX_LENGTH = 256;

/** The scrypt work of one hash: cost `N`, block size `r`, parallelism `p` (kept in the stored form beside the key). */
export interface PasswordWork {
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP's scrypt setting (N=2^17 is its strongest; 2^15 keeps a sign-in near 100 ms on a small machine): the work of
 * every hash the service makes. Only tests hand a registry less (`RegistryOptions.passwordWork`).
 */
export const PASSWORD_WORK: PasswordWork = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });
const KEY_BYTES = 32;
// scrypt needs 128 * N * r bytes; Node refuses more than 32 MiB unless told.
const MAX_MEMORY = 256 * PASSWORD_WORK.N * PASSWORD_WORK.r;

/** The passwords attackers try first; a user who picks one is refused before it is ever stored. */
const COMMON = new Set([
  'password', 'password1', 'password123', 'passw0rd', '12345678', '123456789', '1234567890', '87654321', '11111111',
  '00000000', 'qwerty', 'qwertyui', 'qwerty123', 'qwertyuiop', 'asdfghjk', 'asdfghjkl', 'iloveyou', 'letmein',
  'letmein1', 'welcome1', 'welcome123', 'admin123', 'administrator', 'changeme', 'changeme123', 'abc12345', 'abcd1234',
  'football', 'baseball', 'sunshine', 'princess', 'trustno1', 'superman', 'starwars', 'dragon123', 'monkey123',
  'unleash4all', 'unleash', 'flagpole', 'secret123', 'default1', 'test1234', 'testtest', 'aa123456', '1q2w3e4r',
]);

function derive(password: string, salt: Buffer, params: PasswordWork): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: Math.max(MAX_MEMORY, 256 * params.N * params.r) };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/**
 * The stored form of a password: `scrypt$N$r$p$<salt>$<key>` (base64url), a new random salt each time.
 *
 * @example await hashPassword('correct horse battery') // 'scrypt$32768$8$1$…$…'
 */
export async function hashPassword(password: string, work: PasswordWork = PASSWORD_WORK): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, work);
  return ['scrypt', work.N, work.r, work.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` is the one `stored` was made from; a malformed stored value never matches. The key
 * comparison takes the same time wherever the keys differ.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((x) => Number.isInteger(x) && x > 0)) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password.slice(0, PASSWORD_MAX_LENGTH), Buffer.from(salt, 'base64url'), params);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const dummies = new Map<string, Promise<string>>();

/**
 * A hash of a random password made with `work`, once per process: a sign-in for an unknown user is checked against
 * it, so it takes as long as one for a known user with a wrong password.
 */
export function dummyPasswordHash(work: PasswordWork = PASSWORD_WORK): Promise<string> {
  const key = `${work.N}$${work.r}$${work.p}`;
  let dummy = dummies.get(key);
  if (!dummy) dummies.set(key, dummy = hashPassword(randomBytes(18).toString('base64url'), work));
  return dummy;
}

/**
 * Why `password` may not be used by the user named `names` (username, email), or null when it may: the
 * rule it breaks, to follow the property's name in a message.
 *
 * @example passwordProblem('admin', ['admin']) // 'must be at least 8 characters long'
 */
export function passwordProblem(password: string, names: readonly (string | null | undefined)[]): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  const lower = password.toLowerCase();
  for (const name of names) {
    if (!name) continue;
    const n = name.toLowerCase();
    if (lower === n || lower === n.split('@')[0]) return 'must not be the username or email address';
  }
  if (COMMON.has(lower)) return 'is one of the most common passwords; choose another';
  return null;
}
