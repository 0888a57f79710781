import type { Step } from '../route.js';
import { setResponseHeader } from '../answers/answer.js';

/**
 * The CORS headers of an answer to a browser (its preflight is answered by `hono/cors`): the allowed origin
 * (`*`, or the request's `Origin` when it is in the list, with `Vary: Origin`), and `ETag` exposed: what
 * `hono/cors` sets, noted for the answer (`setResponseHeader`).
 * Hand-kept for speed: docs/performance.md "CORS as a step".
 *
 * @example steps.unshift(corsStep(config.frontendCorsOrigins))
 */
export function corsStep(origins: readonly string[]): Step {
  const headersFor = corsHeaders(origins);
  return (c) => {
    for (const [name, value] of headersFor(c.req.header('origin'))) setResponseHeader(c, name, value);
  };
}

/**
 * The CORS headers `corsStep` sets for a request's `Origin`, as pairs (the frontend fast path sets them too).
 *
 * @example corsHeaders(['https://a.example'])('https://a.example') // [[Allow-Origin, 'https://a.example'], [Expose-Headers, 'ETag'], [Vary, 'Origin']]
 */
export function corsHeaders(origins: readonly string[]): (origin: string | undefined) => [string, string][] {
  const any = origins.includes('*');
  const expose: [string, string] = ['Access-Control-Expose-Headers', 'ETag'];
  const vary: [string, string] = ['Vary', 'Origin'];
  return (origin) => {
    const allowed = any ? '*' : origin !== undefined && origins.includes(origin) ? origin : undefined;
    const headers: [string, string][] = allowed === undefined ? [expose] : [['Access-Control-Allow-Origin', allowed], expose];
    if (!any) headers.push(vary);
    return headers;
  };
}
