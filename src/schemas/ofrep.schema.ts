/**
 * The OpenFeature Remote Evaluation Protocol's requests (docs/client-contract.md "OpenFeature (OFREP)"): the flag key in
 * the path, `{context}` in the body, the refetch hints of the bulk query, the stream ticket. The context is
 * mapped onto the Unleash context and then checked by `readContext`, with the frontend API's bounds.
 */
import * as v from 'valibot';
import { boundedString, looseObject } from './common.schema.js';
import { readContext, type RequestContext } from './frontend.schema.js';

/** The OpenFeature context keys that map onto Unleash context fields of the same meaning. */
const FIELDS: Readonly<Record<string, keyof Omit<RequestContext, 'properties'>>> = {
  targetingKey: 'userId',
  sessionId: 'sessionId',
  remoteAddress: 'remoteAddress',
  appName: 'appName',
  currentTime: 'currentTime',
};

/**
 * An OFREP context as the Unleash context: `targetingKey` is the `userId`; `sessionId`, `remoteAddress`,
 * `appName`, `currentTime` keep their names; every other key is a property (numbers and booleans as strings;
 * objects, arrays and reserved names such as `__proto__` are refused). `null` fields are absent.
 *
 * @example ofrepContext({ targetingKey: 'u1', plan: 'pro' }) // { ok: true, context: { userId: 'u1', properties: { plan: 'pro' } } }
 */
export function ofrepContext(input: unknown): { ok: true; context: RequestContext } | { ok: false; message: string } {
  if (input === undefined || input === null) return readContextOf(undefined);
  if (typeof input !== 'object' || Array.isArray(input)) return { ok: false, message: '"context" must be an object' };
  const mapped: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const properties: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (Object.hasOwn(FIELDS, key)) mapped[FIELDS[key]!] = value;
    else properties[key] = value;
  }
  mapped['properties'] = properties;
  return readContextOf(mapped);
}

function readContextOf(input: unknown): { ok: true; context: RequestContext } | { ok: false; message: string } {
  const read = readContext(input);
  if (read.ok) return read;
  const path = read.path.replace(/^context\.?/, '').replace(/^properties\.?/, '').replace(/^userId$/, 'targetingKey');
  return { ok: false, message: path ? `"context.${path}" ${read.message}` : `"context" ${read.message}` };
}

/** Longest stream ticket read; anything longer is refused before any work. */
export const MAX_TICKET_LENGTH = 512;

/** Longest flag key read from the path (longer ones cannot name a flag). */
const MAX_KEY = 1000;

/** `:key` of `POST /ofrep/v1/evaluate/flags/:key`. */
export const OfrepFlagParamsSchema = looseObject({
  key: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(MAX_KEY, `must be at most ${MAX_KEY} characters`)),
});

/**
 * The body of both evaluation routes: `{context}`; the context is read by the handler ({@link ofrepContext}),
 * so that a bad context answers `INVALID_CONTEXT` and a bad body `PARSE_ERROR`.
 */
export const OfrepBodySchema = looseObject({ context: v.optional(v.unknown()) });

/** The query of the bulk route: the refetch hints a provider sends after a `refetchEvaluation` message (read, not needed). */
export const OfrepBulkQuerySchema = looseObject({
  flagConfigEtag: v.optional(boundedString(200)),
  flagConfigLastModified: v.optional(boundedString(100)),
});

/** The query of the event stream: its ticket (checked by the authentication step, bounded here too). */
export const OfrepEventsQuerySchema = looseObject({ ticket: boundedString(MAX_TICKET_LENGTH) });
