import { isUtf8 } from 'node:buffer';
import type { Context, MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { SHAPE_LIMITS } from '../../limits.js';
import { safeParseCapped } from '../../schemas/capped-parse.js';
import { formatIssues } from '../../schemas/issues.js';
import { apiError } from '../errors.js';

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i;

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_DEPTH = SHAPE_LIMITS.bodyDepth;

/**
 * Bodies larger than this are validated once with an issue cap before the route's validator runs: only a
 * large body can hold enough bad items to make a full validation costly (`capped-parse.ts`).
 */
const PRECHECK_CHARS = 16 * 1024;


/**
 * Reads a JSON body after `hono/body-limit` has bounded it: a content encoding this server does not decode
 * (415), a content type that is not JSON (415), bytes that are not UTF-8 (400), no body when one is required
 * (400), text that does not parse (400) or nests too deep (400), an array where an object is expected (400). The
 * parsed value goes to `validate` (the route's schema, `validateBody`); an optional body left out skips it.
 * Why not Hono's JSON validator: docs/architecture.md "The JSON body reader".
 */
export function jsonBody(optional: boolean, schema: v.GenericSchema, expectsObject: boolean, validate: (c: Context, value: unknown, parsed?: v.SafeParseResult<v.GenericSchema>) => void): MiddlewareHandler {
  return async (c, next) => {
    const encoding = c.req.header('content-encoding')?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      throw apiError('ContentTypeError', `Content-Encoding "${encoding.slice(0, 40)}" is not supported; send the body uncompressed`);
    }
    const bytes = Buffer.from(await c.req.arrayBuffer());
    // Checked natively, then decoded: invalid bytes are refused, never replaced with U+FFFD.
    if (!isUtf8(bytes)) throw apiError('ValidationError', 'The body is not valid UTF-8');
    const text = bytes.toString('utf8');
    if (text.trim() === '') {
      if (!optional) throw apiError('ValidationError', 'A JSON request body is required');
      // An optional body left out: the validator that follows sees `undefined`, not an empty text to parse.
      c.req.addValidatedData('json', undefined as never);
      return next();
    }
    const type = c.req.header('content-type') ?? '';
    if (!JSON_TYPE.test(type)) throw apiError('ContentTypeError', `The body must be sent as application/json, not "${type.slice(0, 100) || 'no content type'}"`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw apiError('ValidationError', `The body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
    }
    // valibot's object schemas take an array (its keys are just absent), so a body of optional fields would
    // accept `[]`; an object body must be an object.
    // A deeply nested value can pass a schema (a patch `value` is unknown) and then overflow the stack of
    // JSON.stringify when its command is logged; no body of this API needs more than a few levels.
    // (JSON.parse itself takes any depth.)
    if (nestsDeeper(value, MAX_DEPTH)) throw apiError('ValidationError', `The body nests arrays and objects more than ${MAX_DEPTH} levels deep`);
    // Told to the validator's hook, which refuses it when the schema would otherwise pass (missing required
    // keys keep their own, more telling message).
    if (expectsObject && Array.isArray(value)) c.set('bodyIsArray' as never, true as never);
    if (text.length > PRECHECK_CHARS) {
      const checked = safeParseCapped(schema, value);
      if (!checked.success) {
        const { message, details } = formatIssues(checked.issues, { complete: !checked.capped });
        throw apiError('ValidationError', message, details);
      }
      // Valid, it parsed exactly as a full parse would: validated once.
      validate(c, value, checked);
      return next();
    }
    validate(c, value);
    return next();
  };
}

/** True when `value` nests arrays and objects more than `max` levels deep; the walk stops at the bound. */
export function nestsDeeper(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max === 0) return true;
  for (const child of Object.values(value)) if (nestsDeeper(child, max - 1)) return true;
  return false;
}
