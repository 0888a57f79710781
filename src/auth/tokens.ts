import { randomBytes } from 'node:crypto';
import type { TokenType } from '../domain/service-state.js';

/**
 * The non-secret start of every secret of a token: `<project>:<environment>.` for API tokens (`[]` for
 * several projects), `user:` for personal ones. Listings show it as `prefix`; it is derived from the
 * token's scope, so no part of the random text is ever stored or shown.
 *
 * @example secretLabel({ type: 'client', projects: ['web'], environment: 'production' }) // 'web:production.'
 */
export function secretLabel(token: { type: TokenType; projects: readonly string[]; environment: string }): string {
  if (token.type === 'personal') return 'user:';
  const project = token.projects.length === 1 ? token.projects[0] : '[]';
  return `${project}:${token.environment}.`;
}

/**
 * A new secret in Unleash's shape: {@link secretLabel} followed by 56 random hex digits.
 *
 * @example newSecret('admin', ['*'], '*') // '*:*.3f9c...'
 */
export function newSecret(type: TokenType, projects: string[], environment: string): string {
  return `${secretLabel({ type, projects, environment })}${randomBytes(28).toString('hex')}`;
}

/** The token in an `Authorization` header: the value alone or after `Bearer `. */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim();
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  const token = (bearer ? bearer[1]! : value).trim();
  return token.length > 0 && token.length <= 512 ? token : null;
}

/** A client token secret given to the service at start, with the scope its text names. */
export interface ClientTokenSecret {
  secret: string;
  /** `['*']` for `*:`, `[]` for `[]:` (a list the text does not name: the token reads no project), else the one project. */
  projects: string[];
  environment: string;
}

// The environment ends at the first `.`, as Unleash splits it.
const CLIENT_SECRET = /^(\*|\[\]|[A-Za-z0-9_.~-]{1,100}):(\*|[A-Za-z0-9_~-]{1,100})\.([^\s,]{1,400})$/;

/**
 * Reads the scope of a client token secret in Unleash's format `<project>:<environment>.<random>` (also
 * `*:<environment>.<random>` and `[]:<environment>.<random>`); throws naming `variable` when it is malformed
 * or names every environment (`*`), which a client token may not (as Unleash 6.10).
 *
 * @example clientTokenSecret('INIT_CLIENT_API_TOKENS', 'web:production.abc') // { secret, projects: ['web'], environment: 'production' }
 */
export function clientTokenSecret(variable: string, secret: string): ClientTokenSecret {
  const match = CLIENT_SECRET.exec(secret);
  // The secret itself is never echoed: only its shape.
  if (!match) throw new Error(`${variable}: a token is not of the form <project>:<environment>.<random> (or *:<environment>.<random>, []:<environment>.<random>)`);
  const [, project, environment] = match as unknown as [string, string, string];
  if (environment === '*') throw new Error(`${variable}: a client token must name one environment, not "*"`);
  return { secret, projects: project === '[]' ? [] : [project], environment };
}
