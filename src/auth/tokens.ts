import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a secret, hex: what the store keeps instead of the secret. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A new secret in Unleash's shape: `<project>:<environment>.<random>` for API tokens, `user:<random>` for
 * personal ones.
 *
 * @example newSecret('admin', ['*'], '*') // '*:*.3f9c...'
 */
export function newSecret(type: 'admin' | 'client' | 'personal', projects: string[], environment: string): string {
  const random = randomBytes(28).toString('hex');
  if (type === 'personal') return `user:${random}`;
  const project = projects.length === 1 ? projects[0] : '[]';
  return `${project}:${environment}.${random}`;
}

/** A short, non-secret label for listings: the part before the random text plus its first characters. */
export const secretPrefix = (secret: string): string => {
  const dot = Math.max(secret.indexOf('.'), secret.indexOf(':'));
  return `${secret.slice(0, dot + 1)}${secret.slice(dot + 1, dot + 5)}…`;
};

/** The token in an `Authorization` header: the value alone or after `Bearer `. */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim();
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  const token = (bearer ? bearer[1]! : value).trim();
  return token.length > 0 && token.length <= 512 ? token : null;
}
