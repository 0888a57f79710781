/** A failure of `flagpole migrate` the operator can act on: its message is printed as it is (exit 1), never a stack. */
export class MigrateError extends Error {
  override name = 'MigrateError';
}
