/**
 * Assertions shared by the schema tests: parse and return the output, or
 * fail and find the issue about one property, as a `ValidationError` would
 * show it.
 */
import * as v from 'valibot';
import { expect } from 'vitest';
import { formatIssues } from '../../src/schemas/issues.js';

type AnySchema = v.GenericSchema;

/** Parses `input`; a failure throws with the formatted issues, so the test says why. */
export function parseOk<S extends AnySchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new Error(`expected success, got: ${formatIssues(result.issues).message}`);
  return result.output;
}

/** Every formatted issue message of a parse that must fail. */
export function issuesOf(schema: AnySchema, input: unknown): string[] {
  const result = v.safeParse(schema, input);
  expect(result.success, `expected ${JSON.stringify(input)} to fail`).toBe(false);
  return result.issues ? formatIssues(result.issues).details.map((d) => d.message) : [];
}

/**
 * Asserts that parsing fails with an issue about `property` (a dot path, or
 * `''` for the input as a whole) whose text contains `fragment`.
 */
export function expectIssue(schema: AnySchema, input: unknown, property: string, fragment = ''): void {
  const messages = issuesOf(schema, input);
  const prefix = property === '' ? '' : `"${property}": `;
  const hit = messages.find((m) => m.startsWith(prefix) && m.includes(fragment) && (property !== '' || !m.startsWith('"')));
  expect(hit, `no issue at "${property}" containing "${fragment}" in ${JSON.stringify(messages)}`).toBeDefined();
}
