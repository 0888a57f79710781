/**
 * A failure of the store itself, not of the command. `failed`: the batch was not written (nothing of it is
 * on disk or in the state). `timeout`: the disk did not answer in time; the batch may still land, and
 * `outcome` tells whether it did (the state follows the disk either way). `stalled`: refused at once, an
 * earlier batch of this mailbox is still waiting for the disk.
 *
 * @example if (error instanceof StorageError && error.outcome) void error.outcome.then((written) => ...)
 */
export class StorageError extends Error {
  constructor(
    cause: unknown,
    readonly reason: 'failed' | 'timeout' | 'stalled' = 'failed',
    /** For `timeout`: resolves true if the batch was written after all, false if it failed. */
    readonly outcome?: Promise<boolean>,
  ) {
    super(STORAGE_MESSAGES[reason], { cause });
    this.name = 'StorageError';
  }
}

const STORAGE_MESSAGES = {
  failed: 'the command could not be written to disk; nothing of it was recorded',
  timeout: 'the disk did not confirm the write in time; the command may or may not have been recorded',
  stalled: 'an earlier write is still waiting for the disk; the command was not recorded',
};
