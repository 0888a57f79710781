import { keys } from '../../snapshots/keys.js';
import type { Store } from '../../snapshots/store.js';

/** A node started on a shared store with another token key than the one its tokens were hashed under. */
export class TokenKeyMismatchError extends Error {
  override name = 'TokenKeyMismatchError';

  constructor() {
    super('the token key of this node (TOKEN_SECRET, or the file TOKEN_SECRET_FILE names) is not the key the tokens and sessions in this database were hashed under: another node started on it with another key, and no token or session made there would work here. Give every node the same key: set the same TOKEN_SECRET on each, or copy the key file of the node that started first to every node\'s TOKEN_SECRET_FILE (docs/operations.md "Several nodes")');
  }
}

/**
 * On a store several nodes share: the first start stores `fingerprint` (of its token key,
 * `tokenKeyFingerprint`), and every later start of any node compares its own with it, refusing to start on
 * another ({@link TokenKeyMismatchError}). Under a lock across nodes, so nodes starting together on a new
 * database store one. Nothing on a store one process owns (its key file sits beside its data directory).
 */
export async function checkTokenKey(store: Store, fingerprint: string): Promise<void> {
  if (!store.shared) return;
  const held = await store.shared.lock('token-key');
  try {
    const stored = await store.get(keys.tokenKeyFingerprint);
    if (stored === undefined) await store.commit([{ type: 'put', key: keys.tokenKeyFingerprint, value: fingerprint }]);
    else if (stored !== fingerprint) throw new TokenKeyMismatchError();
  } finally {
    await held.release();
  }
}
