/**
 * How long a test waits for a state it polls (an SDK seeing a change, a stream's next message, a job done in
 * the background) before it fails. It only turns a state never reached into a failure with a message: never a
 * speed bound, so it is generous (a loaded machine does the same work many times slower), and a test that
 * waits for several states in turn says so with its own timeout. Speed lives in `npm run bench`.
 */
export const STATE_TIMEOUT_MS = 60_000;

/**
 * Options of `expect.poll` and `vi.waitFor` for a wait on a state: {@link STATE_TIMEOUT_MS}, a look every
 * `interval` ms.
 *
 * @example await expect.poll(() => sdk.isEnabled('checkout'), untilState()).toBe(true);
 */
export const untilState = (interval = 20): { timeout: number; interval: number } => ({ timeout: STATE_TIMEOUT_MS, interval });

/**
 * How long a test waits for a service it started as a child process to say it listens. A start is a node
 * process loading the service: about half a second of CPU on a quiet machine, over a minute measured on a
 * 2-core machine at a load average of 35.
 */
export const START_TIMEOUT_MS = 300_000;

/**
 * The timeout of a test that runs the service or the `flagpole` command as child processes, each a node start
 * plus its work, often several in one test: a few seconds on a quiet machine, past two minutes measured at a
 * load average of 35 on 2 cores (the default 30 s of vitest.config.ts is far too short there). Only a hung
 * test ever waits this long.
 */
export const CHILD_PROCESS_TEST_MS = 900_000;

/**
 * The timeout of a test whose own work is seconds of CPU on a quiet machine (thousands of flags seeded and
 * queried, hundreds of property runs): many times that on a loaded one, where 30 s is too short.
 */
export const HEAVY_TEST_MS = 300_000;
