/**
 * The exit codes of every `flagpole` command, for scripts (docs/operations.md "The flagpole command").
 * `start` exits 1 when the service cannot start (a bad setting, a locked or damaged data directory).
 */
export const EXIT = {
  /** Done. */
  ok: 0,
  /** The work failed: the message on standard error says why (a refused token, a damaged file, a locked directory). */
  failure: 1,
  /** The command line is wrong: unknown command or option, a missing or malformed argument. Nothing was done. */
  usage: 2,
} as const;
