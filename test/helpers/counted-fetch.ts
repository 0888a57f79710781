import { expect } from 'vitest';
import { untilState } from './wait.js';

/**
 * A `fetch` to hand an SDK under test (its `fetch` option) that knows how many of its requests are on their
 * way. Stopping an SDK clears its timer but leaves a poll already started running, still connecting perhaps:
 * a test stops the SDK, waits for `settled()`, and only then closes the server, so that no request of the SDK
 * is cut (it would fail inside the SDK after the test, where nothing awaits it).
 *
 * @example const counted = countedFetch(); const sdk = new UnleashClient({ ..., fetch: counted.fetch }); ...; sdk.stop(); await counted.settled();
 */
export function countedFetch(inner: typeof fetch = (...args) => globalThis.fetch(...args)): { fetch: typeof fetch; settled(): Promise<void> } {
  let open = 0;
  const counted: typeof fetch = async (...args) => {
    open += 1;
    try {
      return await inner(...args);
    } finally {
      open -= 1;
    }
  };
  return { fetch: counted, settled: async () => { await expect.poll(() => open, untilState(10)).toBe(0); } };
}
