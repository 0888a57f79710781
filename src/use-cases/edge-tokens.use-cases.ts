/**
 * `POST /edge/validate`: Unleash Edge asks its upstream which of the token texts its SDKs presented are tokens,
 * and what each may read, before it serves them. Anyone may ask (Edge sends no `Authorization`), so the answer
 * says nothing of a text that is no valid token, and each text costs one lookup of its keyed hash.
 */
import type { Registry } from '../actors/registry.js';
import type { TokenHasher } from '../auth/token-hasher.js';
import { tokenFromHeader } from '../auth/tokens.js';
import type { StoredToken } from '../domain/service-state.js';
import type { EdgeToken } from '../schemas/edge.schema.js';
import { ok, type Result } from '../domain/result.js';
import { tokenForSecret } from './tokens.use-cases.js';

/**
 * The valid API tokens among `tokens`, in the order sent, each once: admin, client and frontend tokens that
 * have not expired, with the text as sent (Edge matches the answer to its texts) and the scope the token reads.
 * A text is valid when its `Authorization` header would be (`Bearer ` or not). Personal tokens are not API
 * tokens, and Unleash does not list them either; admin tokens are listed, as Unleash lists them (`*`, `*`).
 *
 * @example await validateEdgeTokens(registry, { tokens: ['default:production.abc', 'forged'], hasher })
 * // ok([{ token: 'default:production.abc', type: 'client', projects: ['default'], environment: 'production' }])
 */
export async function validateEdgeTokens(registry: Registry, input: { tokens: readonly string[]; hasher: TokenHasher }, now = Date.now()): Promise<Result<EdgeToken[]>> {
  const valid: EdgeToken[] = [];
  const asked = new Set<string>();
  for (const text of input.tokens) {
    if (asked.has(text)) continue;
    asked.add(text);
    const secret = tokenFromHeader(text);
    if (secret === null) continue;
    const lookup = tokenForSecret(registry, input.hasher, secret, now);
    // Only a token stored before keyed hashes is found through a promise (it is re-stored on first use).
    const token = lookup instanceof Promise ? await lookup : lookup;
    if (token !== undefined && servable(token, now)) {
      valid.push({ token: text, type: token.type, projects: [...token.projects], environment: token.environment });
    }
  }
  return ok(valid);
}

/** An API token that has not expired. */
function servable(token: StoredToken, now: number): token is StoredToken & { type: EdgeToken['type'] } {
  if (token.type === 'personal') return false;
  return token.expiresAt === null || Date.parse(token.expiresAt) > now;
}
