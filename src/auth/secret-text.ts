import { inspect } from 'node:util';

/**
 * A configuration value that must never be printed (`TOKEN_SECRET`): JSON, `util.inspect` and string
 * conversion all show `[redacted]`, so logging or dumping a `Config` cannot leak it. `reveal()` is the one way in.
 *
 * @example JSON.stringify({ key: new SecretText('s3cret…') }) // '{"key":"[redacted]"}'
 */
export class SecretText {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The value itself, for the one place that needs it (building the `TokenHasher`). */
  reveal(): string {
    return this.#value;
  }

  get length(): number {
    return this.#value.length;
  }

  toJSON(): string {
    return '[redacted]';
  }

  toString(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return '[redacted]';
  }
}
