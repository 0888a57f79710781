import { randomUUID } from 'node:crypto';
import type { Registry } from '../actors/registry.js';
import type { StoredToken } from '../domain/service-state.js';
import { hashSecret, newSecret, secretPrefix } from './tokens.js';

/** An admin token as stored: hash only. */
export function adminToken(secret: string, tokenName: string, at: string): StoredToken {
  return { id: randomUUID(), hash: hashSecret(secret), tokenName, type: 'admin', projects: ['*'], environment: '*', createdAt: at, expiresAt: null, userId: null, prefix: secretPrefix(secret) };
}

/**
 * Makes sure admins can get in: stores each `INIT_ADMIN_API_TOKENS` secret (as a hash) that is not stored
 * yet; with none given and no token stored at all, creates one and returns its secret so `main` can print
 * it once. Returns null when nothing was generated.
 */
export async function ensureAdminTokens(registry: Registry, initTokens: string[]): Promise<string | null> {
  const at = new Date().toISOString();
  for (const [i, secret] of initTokens.entries()) {
    if (registry.service.state.tokens[hashSecret(secret)]) continue;
    await registry.service.send({ type: 'token.create', token: adminToken(secret, `init-admin-token-${i + 1}`, at) }, 'system');
  }
  if (initTokens.length > 0 || Object.keys(registry.service.state.tokens).length > 0) return null;
  const secret = newSecret('admin', ['*'], '*');
  await registry.service.send({ type: 'token.create', token: adminToken(secret, 'generated-admin-token', at) }, 'system');
  return secret;
}
