/** Admin-only inspection of the stored state: the dump of `npm run dump`, and the change history. */
import * as v from 'valibot';
import { dumpRegistry } from '../../actors/dumps/state-dump.js';
import { FlagNameSchema, ProjectIdSchema, looseObject } from '../../schemas/common.schema.js';
import { DUMP_STREAMS_AT_ONCE } from '../streams/dump-streams.js';
import { apiError, errorResponse } from '../errors.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { HistoryView } from '../answers/views.js';

/** Largest page of the history. */
export const HISTORY_MAX_LIMIT = 1000;

/** A non-negative integer query value in `[min, max]`, given as decimal digits. */
const queryInteger = (min: number, max: number) => v.pipe(
  v.string(),
  v.regex(/^\d{1,16}$/, 'must be a non-negative integer'),
  v.transform(Number),
  v.minValue(min, `must be at least ${min}`),
  v.maxValue(max, `must be at most ${max}`),
);

/** `?project=P` (optional: without it the whole service). */
export const StateQuerySchema = looseObject({ project: v.optional(ProjectIdSchema) });

/** `?project=P&feature=F&offset=0&limit=100`. */
export const EventsQuerySchema = looseObject({
  project: ProjectIdSchema,
  feature: v.optional(FlagNameSchema),
  offset: v.optional(queryInteger(0, Number.MAX_SAFE_INTEGER), '0'),
  limit: v.optional(queryInteger(1, HISTORY_MAX_LIMIT), '100'),
});

export const stateRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get', path: '/api/admin/state', tag: 'Admin', permission: 'ADMIN',
    summary: `Dump the committed state as stable JSON, as \`npm run dump\` prints it (query \`project\` for one project); streamed, at most ${DUMP_STREAMS_AT_ONCE} at once`,
    query: StateQuerySchema,
    success: { status: 200, description: 'The dump document (docs/storage.md), without token hashes' }, errors: ['NotFoundError', 'TooManyRequests'],
    handle: ({ c, query, registry, deps }) => {
      // The committed states are captured now, in one synchronous step; the stream serializes that moment.
      const dump = dumpRegistry(registry, query.project);
      if (!dump) throw apiError('NotFoundError', `Could not find project "${query.project}"`);
      const body = deps.dumps.stream(dump);
      if (!body) {
        c.header('Retry-After', '1');
        return errorResponse(c, { kind: 'TooManyRequests', message: `${DUMP_STREAMS_AT_ONCE} dumps are being written already; try again when one is done` });
      }
      return c.body(body, 200, { 'content-type': 'application/json' });
    },
  }),
  defineRoute({
    method: 'get', path: '/api/admin/events', tag: 'Admin', permission: 'ADMIN',
    summary: `History of a project from its command log, newest first (query \`project\`, optional \`feature\`, \`offset\`, \`limit\` at most ${HISTORY_MAX_LIMIT})`,
    success: { status: 200, description: '`{version: 1, events: [{seq, type, project, feature, environment, by, at, before, after}], offset, limit, hasMore}`', schema: HistoryView },
    query: EventsQuerySchema, errors: ['NotFoundError', 'Unavailable'],
    handle: ({ query, registry }) => registry.history(query.project, query),
    view: (page) => ({ version: 1, ...page }),
  }),
];
