/**
 * A record read from the shared log is not the next of its scope: the actor holds `held`, the record is
 * `found`. The registry then recovers the scope from the store instead of evolving past a hole.
 */
export class LogGapError extends Error {
  override name = 'LogGapError';

  constructor(readonly scope: string, readonly held: number, readonly found: number) {
    super(`the shared log gave record ${found} of ${scope}, which is at ${held}: recovering it from the store`);
  }
}
