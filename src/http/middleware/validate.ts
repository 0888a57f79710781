import type { Context } from 'hono';
import * as v from 'valibot';
import { formatIssues } from '../../schemas/issues.js';
import type { NodeBindings } from '../answers/answer.js';
import { apiError } from '../errors.js';

type Target = 'param' | 'query' | 'json';

/**
 * The one hook every validation shares: a failed schema is a 400 `ValidationError` whose message and details
 * name the property (`src/schemas/issues.ts`).
 */
function hook(result: { success: true } | { success: false; issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]] }, target: Target, c: Context): void {
  if (result.success) {
    // valibot's object schemas take an array whose keys are all optional; an object body must be an object.
    if (target === 'json' && c.get('bodyIsArray' as never)) throw apiError('ValidationError', 'The body must be an object, got an array');
    return;
  }
  const { message, details } = formatIssues(result.issues);
  throw apiError('ValidationError', message, details);
}

/**
 * A parsed JSON body, validated by valibot synchronously through the same hook and stored where
 * `@hono/valibot-validator` stores it (`c.req.valid('json')`), parsed once; every schema of this API is synchronous.
 * Hand-kept for speed: docs/performance.md "Synchronous valibot validation".
 *
 * @example validateBody(CreateFeatureSchema)(c, JSON.parse(text))
 */
export function validateBody(schema: v.GenericSchema): (c: Context, value: unknown, parsed?: v.SafeParseResult<v.GenericSchema>) => void {
  return (c, value, parsed) => {
    // A large body was parsed already, with an issue cap (`json-body.ts`); a valid one parses the same either way.
    const result = parsed ?? v.safeParse(schema, value);
    hook(result, 'json', c);
    c.req.addValidatedData('json', result.output as object);
  };
}

/**
 * The path or the query, validated by valibot synchronously through the same hook and stored where
 * `@hono/valibot-validator` stores it (`c.req.valid(target)`).
 * Hand-kept for speed: docs/performance.md "Synchronous valibot validation".
 *
 * @example validateSync('param', FeatureParamsSchema)
 */
export function validateSync(target: 'param' | 'query', schema: v.GenericSchema): (c: Context) => void {
  // A request without a query string validates `{}`: the same result every time, taken once (frozen, as it
  // is shared), so a plain `POST .../on` does not parse an empty query and run its schema.
  const empty = target === 'query' ? v.safeParse(schema, {}) : undefined;
  if (empty?.success) Object.freeze(empty.output);
  return (c) => {
    if (empty && !hasQuery(c)) {
      hook(empty, target, c);
      c.req.addValidatedData(target, empty.output as object);
      return;
    }
    const input = target === 'param' ? c.req.param() : queryOf(c);
    const result = v.safeParse(schema, input);
    hook(result, target, c);
    c.req.addValidatedData(target, result.output as object);
  };
}

/** Whether the request's target has a query string (`?`, even an empty one); read from Node's request when served by it. */
function hasQuery(c: Context): boolean {
  const incoming = (c.env as NodeBindings | undefined)?.incoming;
  return (incoming?.url ?? c.req.url).includes('?');
}

/** The query as `@hono/valibot-validator` reads it: one value per name, or an array of the repeated ones. */
function queryOf(c: Context): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0]! : values]));
}
