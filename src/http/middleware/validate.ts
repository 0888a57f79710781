import { vValidator } from '@hono/valibot-validator';
import type { MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { formatIssues } from '../../schemas/issues.js';
import { apiError } from '../errors.js';

/**
 * `@hono/valibot-validator` for one target, with the one hook every route shares: a failed schema is a 400
 * `ValidationError` whose message and details name the property (`src/schemas/issues.ts`).
 *
 * @example validate('param', FeatureParamsSchema)
 */
export function validate(target: 'param' | 'query' | 'json', schema: v.GenericSchema): MiddlewareHandler {
  return vValidator(target, schema, (result, c) => {
    if (result.success) {
      // valibot's object schemas take an array whose keys are all optional; an object body must be an object.
      if (target === 'json' && c.get('bodyIsArray' as never)) throw apiError('ValidationError', 'The body must be an object, got an array');
      return;
    }
    const { message, details } = formatIssues(result.issues);
    throw apiError('ValidationError', message, details);
  });
}
