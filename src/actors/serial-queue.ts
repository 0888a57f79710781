/**
 * A mailbox for work that spans several actors: tasks run one at a time, in arrival order. The access rules
 * that involve a user and projects at once ("no deleted user is a member", "every project keeps an Owner")
 * are decided inside it, so a user deletion and a membership grant can never interleave.
 *
 * @example await registry.access.run(async () => { ... read committed states, send commands ... })
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task queued before it; its result or error is the caller's alone. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // The next task waits for this one to settle, whether it succeeded or not.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
