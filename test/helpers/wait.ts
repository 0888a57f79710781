/**
 * How long a test waits for a state it polls (an SDK seeing a change, a stream's next message, a job done in
 * the background) before it fails. It only turns a state never reached into a failure with a message: never a
 * speed bound, so it is generous (a loaded machine does the same work many times slower), and a test that
 * waits for several states in turn says so with its own timeout. Speed lives in `npm run bench`.
 */
export const STATE_TIMEOUT_MS = 20_000;

/**
 * Options of `expect.poll` and `vi.waitFor` for a wait on a state: {@link STATE_TIMEOUT_MS}, a look every
 * `interval` ms.
 *
 * @example await expect.poll(() => sdk.isEnabled('checkout'), untilState()).toBe(true);
 */
export const untilState = (interval = 20): { timeout: number; interval: number } => ({ timeout: STATE_TIMEOUT_MS, interval });
