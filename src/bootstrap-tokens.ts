/**
 * The tokens a start makes sure of (`INIT_*_API_TOKENS`, or one generated admin token), and the console's first
 * password: run by `main` (and the test harness, tokens only) once the registry is open, before the app serves.
 * Each runs in the access mailbox, one node at a time across nodes starting together on one database, so a
 * token or the first password is made once and the others find it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Registry } from './actors/registry.js';
import { hashPassword } from './auth/passwords.js';
import type { TokenHasher } from './auth/token-hasher.js';
import { ROOT_ADMIN } from './domain/roles.js';
import { newSecret, secretLabel, type ClientTokenSecret } from './auth/tokens.js';
import type { FrontendTokenSecret } from './config-env.js';
import type { StoredToken } from './domain/service-state.js';
import { fromDecision } from './domain/result.js';
import { tokenForSecret } from './use-cases/tokens.use-cases.js';

/** An admin token as stored: its keyed hash only. */
function adminToken(hasher: TokenHasher, secret: string, tokenName: string, at: string): StoredToken {
  return { id: randomUUID(), hash: hasher.hash(secret), tokenName, type: 'admin', projects: ['*'], environment: '*', createdAt: at, expiresAt: null, userId: null };
}

/**
 * Stores each `INIT_FRONTEND_API_TOKENS` secret not stored yet as a frontend token of the scope its secret
 * names (`readConfig` has checked the format).
 */
export function ensureFrontendTokens(registry: Registry, hasher: TokenHasher, initTokens: readonly FrontendTokenSecret[]): Promise<void> {
  return registry.access.run(() => storeFrontendTokens(registry, hasher, initTokens));
}

async function storeFrontendTokens(registry: Registry, hasher: TokenHasher, initTokens: readonly FrontendTokenSecret[]): Promise<void> {
  const at = new Date().toISOString();
  for (const [i, { secret, project, environment }] of initTokens.entries()) {
    if (await tokenForSecret(registry, hasher, secret)) continue;
    const token: StoredToken = {
      id: randomUUID(), hash: hasher.hash(secret), tokenName: `init-frontend-token-${i + 1}`, type: 'frontend',
      projects: [project], environment, createdAt: at, expiresAt: null, userId: null,
    };
    const created = fromDecision(await registry.service.send({ type: 'token.create', token }, 'system'));
    // An unknown project or environment stops the start, as a malformed secret does.
    if (!created.ok) throw new Error(`INIT_FRONTEND_API_TOKENS: token ${i + 1} (${project}:${environment}): ${created.error.message}`);
  }
}

/**
 * Makes sure admins can get in: stores each `INIT_ADMIN_API_TOKENS` secret (as its keyed hash) that is not
 * stored yet; one stored under the unkeyed hash of older versions is re-stored under its HMAC now, since
 * operator-chosen init tokens are the ones most worth protecting. With none given and no token stored at
 * all (a new data directory, or one restored from a dump, which carries no tokens), creates one and
 * returns its secret so `main` can print it once. Returns null when nothing was generated.
 */
export function ensureAdminTokens(registry: Registry, hasher: TokenHasher, initTokens: string[]): Promise<string | null> {
  return registry.access.run(() => storeAdminTokens(registry, hasher, initTokens));
}

async function storeAdminTokens(registry: Registry, hasher: TokenHasher, initTokens: string[]): Promise<string | null> {
  const at = new Date().toISOString();
  for (const [i, secret] of initTokens.entries()) {
    if (await tokenForSecret(registry, hasher, secret)) continue;
    await registry.service.send({ type: 'token.create', token: adminToken(hasher, secret, `init-admin-token-${i + 1}`, at) }, 'system');
  }
  if (initTokens.length > 0 || Object.keys(registry.service.state.tokens).length > 0) return null;
  const secret = newSecret('admin', ['*'], '*');
  await registry.service.send({ type: 'token.create', token: adminToken(hasher, secret, 'generated-admin-token', at) }, 'system');
  return secret;
}

/**
 * Stores each `INIT_CLIENT_API_TOKENS` secret (as its keyed hash) that is not stored yet, scoped as its text
 * says. Throws naming the variable when the service refuses one (an unknown project or environment), so a
 * typo stops the start rather than leaving an SDK locked out.
 */
export function ensureClientTokens(registry: Registry, hasher: TokenHasher, initTokens: readonly ClientTokenSecret[]): Promise<void> {
  return registry.access.run(() => storeClientTokens(registry, hasher, initTokens));
}

async function storeClientTokens(registry: Registry, hasher: TokenHasher, initTokens: readonly ClientTokenSecret[]): Promise<void> {
  const at = new Date().toISOString();
  for (const [i, { secret, projects, environment }] of initTokens.entries()) {
    if (await tokenForSecret(registry, hasher, secret)) continue;
    const token: StoredToken = {
      id: randomUUID(), hash: hasher.hash(secret), tokenName: `init-client-token-${i + 1}`, type: 'client', projects, environment, createdAt: at, expiresAt: null, userId: null,
    };
    const stored = await registry.service.send({ type: 'token.create', token }, 'system');
    if (!stored.ok) throw new Error(`INIT_CLIENT_API_TOKENS: token ${i + 1} (${secretLabel(token)}...) was refused: ${stored.error.message}`);
  }
}

/**
 * Makes sure someone can sign in to the console: when no user has a password yet (a new data directory, or
 * one from before passwords), user `admin` (created as a root Admin when there are no users at all) gets a
 * random password, returned so `main` can print it once beside the admin token. Returns null otherwise.
 */
export function ensureAdminPassword(registry: Registry): Promise<{ username: string; password: string } | null> {
  return registry.access.run(() => setFirstPassword(registry));
}

async function setFirstPassword(registry: Registry): Promise<{ username: string; password: string } | null> {
  const state = registry.service.state;
  if (Object.keys(state.passwords).length > 0) return null;
  const users = Object.values(state.users);
  const password = randomBytes(18).toString('base64url');
  const passwordHash = await hashPassword(password, registry.passwordWork);
  const admin = users.find((u) => u.username?.toLowerCase() === 'admin');
  if (admin) {
    const set = await registry.service.send({ type: 'user.password.set', userId: admin.id, passwordHash }, 'system');
    return set.ok ? { username: admin.username!, password } : null;
  }
  if (users.length > 0) return null;
  const created = await registry.service.send({ type: 'user.create', user: { name: 'admin', email: null, username: 'admin', rootRole: ROOT_ADMIN }, passwordHash }, 'system');
  return created.ok ? { username: 'admin', password } : null;
}
