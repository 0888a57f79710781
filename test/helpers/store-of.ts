import type { Store } from '../../snapshots/store.js';
import type { Registry } from '../../src/actors/registry.js';

/**
 * The store a registry owns, for tests that read or damage what is on disk, or stop it as a crash would.
 * The registry keeps it private: the code it serves reaches the store only through the registry's methods.
 *
 * @example await storeOf(h.registry).close(); // a crash-like stop: no last snapshot
 */
export function storeOf(registry: Registry): Store {
  return registry['store'];
}
