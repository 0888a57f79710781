import type { Context } from 'hono';
import * as v from 'valibot';
import { formatIssues } from '../schemas/issues.js';
import { apiError } from './errors.js';

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i;

/** Validates `value` against `schema`; a failure is a 400 naming the property. */
export function validate<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const { message, details } = formatIssues(result.issues);
  throw apiError('ValidationError', message, details);
}

/**
 * Reads a JSON body: the content type must be JSON (415), the text must parse (400); the size limit is
 * enforced before this by the body-limit middleware (413). An absent body is `undefined` when `optional`.
 */
export async function readJsonBody(c: Context, optional: boolean): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (optional) return undefined;
    throw apiError('ValidationError', 'A JSON request body is required');
  }
  const type = c.req.header('content-type') ?? '';
  if (!JSON_TYPE.test(type)) throw apiError('ContentTypeError', `The body must be sent as application/json, not "${type || 'no content type'}"`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw apiError('ValidationError', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Parses an `If-Match` header: `*` or absent means any version; a value that names no version never matches. */
export function parseIfMatch(header: string | undefined): number | 'mismatch' | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  for (const part of header.split(',')) {
    const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(part);
    if (match) return Number(match[1]);
  }
  return 'mismatch';
}

/** The ETag of a flag version. */
export const etagOf = (version: number): string => `"${version}"`;
