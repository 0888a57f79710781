import { jsx } from 'hono/jsx';

/**
 * Keeps the console's renders from turning on Node's async hooks, which every API request would then pay for.
 *
 * hono/jsx (4.13) carries `createContext` values across the `await` of an async component in an
 * `AsyncLocalStorage`. It looks for one once, at its first render, and runs every render inside it. On Node 20
 * the first `run` of any `AsyncLocalStorage` turns async hooks on for the rest of the process: every promise
 * and every socket of every request then goes through them, and a start renders a page (`prepareTables`), so
 * the API paid whether or not anyone opened the console. The console's views use no context and no async
 * component, and hono/jsx's own fallback for runtimes without `AsyncLocalStorage` renders them identically.
 *
 * So the first render happens here, while `process.getBuiltinModule` gives nothing for `node:async_hooks`, and
 * then the real one is put back. Call it before anything renders (`createApp` does); calling it again does
 * nothing. Hand-kept for speed: docs/performance.md "Console renders without async hooks".
 *
 * @example renderWithoutAsyncHooks(); String(<Page />) // no AsyncLocalStorage behind it
 */
export function renderWithoutAsyncHooks(): void {
  const builtin = process.getBuiltinModule;
  // Node before 20.16 has no getBuiltinModule, and hono/jsx then finds no AsyncLocalStorage in an ES module.
  if (typeof builtin !== 'function') return;
  process.getBuiltinModule = ((id: string) => (id === 'node:async_hooks' || id === 'async_hooks' ? undefined : builtin.call(process, id))) as typeof builtin;
  try {
    String(jsx('i', {}));
  } finally {
    process.getBuiltinModule = builtin;
  }
}
