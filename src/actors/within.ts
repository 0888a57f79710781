/**
 * Waits for `work` at most `ms`: `done`, `timeout`, or the error it failed with. The work itself goes on;
 * the caller decides what a timeout means.
 *
 * @example const outcome = await within(store.write(ops), 5000);
 */
export async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout' | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work.then(() => 'done' as const, (error: unknown) => ({ error })),
      new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), ms); }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
