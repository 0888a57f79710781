/**
 * Query validation (src/http/middleware/validate.ts): a request without a query string takes the result of
 * validating `{}`, taken once when the route is mounted; it must be the answer the full path gives.
 */
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../src/http/errors.js';
import { validateSync } from '../../../src/http/middleware/validate.js';

/** A one-route app that validates the query with `schema` and answers what the route would read. */
function appFor(schema: v.GenericSchema) {
  const app = new Hono();
  const step = validateSync('query', schema);
  app.get('/q', (c: Context) => {
    try {
      step(c);
    } catch (error) {
      if (error instanceof ApiError) return c.json({ status: 400, ...error.error }, 400);
      throw error;
    }
    return c.json({ query: c.req.valid('query' as never) });
  });
  return app;
}

const Optional = v.looseObject({ on: v.optional(v.picklist(['true', 'false'])) });
const Required = v.object({ ticket: v.pipe(v.string(), v.minLength(3)) });

describe('a request without a query string', () => {
  test('reads the same as one with an empty query (`?`), again and again', async () => {
    const app = appFor(Optional);
    for (let i = 0; i < 3; i += 1) {
      expect(await (await app.request('/q')).json()).toEqual({ query: {} });
      expect(await (await app.request('/q?')).json()).toEqual({ query: {} });
    }
    expect(await (await app.request('/q?on=true')).json()).toEqual({ query: { on: 'true' } });
    expect(await (await app.request('/q')).json()).toEqual({ query: {} });
  });

  test('is refused as an empty query is, when the schema needs a parameter', async () => {
    const app = appFor(Required);
    const without = await app.request('/q');
    const empty = await app.request('/q?');
    expect(without.status).toBe(400);
    expect(await without.json()).toEqual(await empty.json());
    expect(((await (await app.request('/q')).json()) as { message: string }).message).toMatch(/ticket/);
    expect((await app.request('/q?ticket=abc')).status).toBe(200);
  });

  test('a bad value still gets a 400 after many requests without a query', async () => {
    const app = appFor(Optional);
    for (let i = 0; i < 5; i += 1) await app.request('/q');
    const bad = await app.request('/q?on=maybe');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/on/);
  });
});
