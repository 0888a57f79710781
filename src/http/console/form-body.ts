import { bodyLimit } from 'hono/body-limit';
import type * as v from 'valibot';
import { apiError } from '../errors.js';
import { honoStep } from '../middleware/body.js';
import { validateBody } from '../middleware/validate.js';
import type { AppDeps, Step } from '../route.js';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * The body steps of a page route: bound its size (413, `BODY_LIMIT`), read it as a form (415 for anything
 * else), keep every field as sent (`c.get('form')`, for the CSRF step) and validate the fields against the
 * route's schema (400, read by the handler as `call.body`). A route without a schema takes any fields.
 * `limit` is `BODY_LIMIT` unless the route takes an import (`IMPORT_BODY_LIMIT`).
 */
export function formBodySteps(schema: v.GenericSchema | undefined, deps: AppDeps, limit: number = deps.config.bodyLimit): Step[] {
  const validate = schema ? validateBody(schema) : undefined;
  return [
    honoStep(bodyLimit({ maxSize: limit, onError: () => { throw apiError('PayloadTooLarge', `The form is larger than ${limit} bytes`); } })),
    async (c) => {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!FORM_TYPES.includes(type)) throw apiError('ContentTypeError', 'A console form is sent as application/x-www-form-urlencoded or multipart/form-data');
      // A multipart body without its boundary, or with broken parts, cannot be read: a 400, never a 500.
      const parsed = await c.req.parseBody().catch(() => {
        throw apiError('ValidationError', `This form's body could not be read as ${type}: reload the page and send it again`);
      });
      const form: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') form[name] = value;
      c.set('form', form);
      validate?.(c, form);
    },
  ];
}
