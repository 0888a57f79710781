import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type * as v from 'valibot';
import { apiError } from '../errors.js';
import type { AppDeps, RouteSpec, Step } from '../route.js';
import { jsonBody } from './json-body.js';
import { validateBody } from './validate.js';

/** The `next` handed to a Hono middleware run as a step: the steps after it run after it returns. */
const NEXT = (): Promise<void> => Promise.resolve();

/**
 * A Hono middleware (`hono/body-limit`, `@hono/valibot-validator`) as a step. Each of them does its work
 * and calls `next` last, so running it to its end and then the next step is the same order as nesting.
 *
 * @example honoStep(bodyLimit({ maxSize: 1024, onError }))
 */
export function honoStep(middleware: MiddlewareHandler): Step {
  return async (c) => {
    const answered = await middleware(c, NEXT);
    // None of the middleware used answers by itself (their errors are thrown through the one hook).
    if (answered instanceof Response) throw apiError('ValidationError', 'The request was refused');
  };
}

/**
 * The body steps of a route that takes one: bound its size (413, `BODY_LIMIT` or `IMPORT_BODY_LIMIT`), then
 * read it as JSON (415 for a content type or encoding it does not read, 400 for bytes that are not UTF-8 or
 * JSON that does not parse or nests too deep) and validate it against the route's schema (400).
 *
 * @example if (route.body) steps.push(...bodySteps(route, route.body, deps))
 */
export function bodySteps(route: RouteSpec, body: v.GenericSchema, deps: AppDeps): Step[] {
  const limit = route.bodyLimit === 'import' ? deps.config.importBodyLimit : deps.config.bodyLimit;
  const tooLarge = () => apiError('PayloadTooLarge', `The request body is larger than ${limit} bytes`);
  const limited = honoStep(bodyLimit({ maxSize: limit, onError: () => { throw tooLarge(); } }));
  return [
    // A declared Content-Length (Node's parser holds the body to it) is checked without building a WHATWG
    // Request; a chunked body goes through `hono/body-limit`.
    // Hand-kept for speed: docs/performance.md "Declared body length".
    (c) => {
      const declared = c.req.header('content-length');
      if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limited(c);
      if (Number(declared) > limit) throw tooLarge();
    },
    honoStep(jsonBody(route.bodyOptional ?? false, body, isObjectSchema(body), validateBody(body))),
  ];
}

/** Whether a body schema describes an object (an optional one included). */
function isObjectSchema(schema: v.GenericSchema): boolean {
  const inner = schema.type === 'optional' ? (schema as unknown as { wrapped: v.GenericSchema }).wrapped : schema;
  return 'entries' in inner;
}
