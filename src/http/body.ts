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
 * Reads a request body as text, refusing more than `limit` bytes (413) without buffering them: a declared
 * `content-length` is checked before reading (Node's parser holds the body to it), a chunked body is read
 * as a stream and cut off at the limit.
 */
async function readText(c: Context, limit: number): Promise<string> {
  const tooLarge = () => apiError('PayloadTooLarge', `The request body is larger than ${limit} bytes`);
  const declared = c.req.header('content-length');
  if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
    if (Number(declared) > limit) throw tooLarge();
    return c.req.text();
  }
  const stream = c.req.raw.body;
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads a JSON body: at most `limit` bytes (413), the content type must be JSON (415), the text must parse
 * (400). An absent body is `undefined` when `optional`.
 */
export async function readJsonBody(c: Context, optional: boolean, limit: number): Promise<unknown> {
  const text = await readText(c, limit);
  if (text.trim() === '') {
    if (optional) return undefined;
    throw apiError('ValidationError', 'A JSON request body is required');
  }
  const type = c.req.header('content-type') ?? '';
  if (!JSON_TYPE.test(type)) throw apiError('ContentTypeError', `The body must be sent as application/json, not "${type || 'no content type'}"`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw apiError('ValidationError', `The body is not valid JSON: ${(error as Error).message}`);
  }
  // A deeply nested value can pass a schema (a patch `value` is unknown) and then overflow the stack of
  // JSON.stringify when its command is logged; no body of this API needs more than a few levels.
  if (exceedsDepth(text, MAX_DEPTH)) throw apiError('ValidationError', `The body nests arrays and objects more than ${MAX_DEPTH} levels deep`);
  return value;
}

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_DEPTH = 64;

/** True when the JSON text nests arrays and objects deeper than `max`; a scan, so no recursion of its own. */
export function exceedsDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i += 1; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth -= 1;
  }
  return false;
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
