/**
 * A failure of the store itself, not of the command. `failed`: the batch was not written (nothing of it is
 * in the store or in the state). `timeout`: the store did not answer in time; the batch may still land, and
 * `outcome` tells whether it did (the state follows the store either way). `stalled`: refused at once, an
 * earlier batch of this mailbox is still waiting for the store. The message names the store (`writesTo`).
 *
 * @example if (error instanceof StorageError && error.outcome) void error.outcome.then((written) => ...)
 */
export class StorageError extends Error {
  constructor(
    cause: unknown,
    readonly reason: 'failed' | 'timeout' | 'stalled' = 'failed',
    /** For `timeout`: resolves true if the batch was written after all, false if it failed. */
    readonly outcome?: Promise<boolean>,
    /** What the write waited for, in words for messages: `the disk` (LevelDB) or `the database` (PostgreSQL). */
    readonly writesTo: string = 'the disk',
  ) {
    super(storageMessage(reason, writesTo), { cause });
    this.name = 'StorageError';
  }
}

function storageMessage(reason: StorageError['reason'], writesTo: string): string {
  switch (reason) {
    case 'failed': return `the command could not be written to ${writesTo}; nothing of it was recorded`;
    case 'timeout': return `${writesTo} did not confirm the write in time; the command may or may not have been recorded`;
    case 'stalled': return `an earlier write is still waiting for ${writesTo}; the command was not recorded`;
  }
}
