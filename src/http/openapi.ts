import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { STATUS, type ErrorKind } from './errors.js';
import type { RouteSpec } from './route.js';

const ERROR_BODY = {
  type: 'object',
  required: ['id', 'name', 'message'],
  properties: {
    id: { type: 'string', description: 'The request id (`X-Request-Id`)' },
    name: { type: 'string' },
    message: { type: 'string' },
    details: { type: 'array', items: { type: 'object', properties: { message: { type: 'string' } } } },
  },
};
const OFREP_ERROR_BODY = {
  type: 'object',
  required: ['errorCode'],
  properties: {
    key: { type: 'string', description: 'The flag key (single evaluation only)' },
    errorCode: { type: 'string', enum: ['PARSE_ERROR', 'INVALID_CONTEXT', 'FLAG_NOT_FOUND', 'GENERAL'] },
    errorDetails: { type: 'string' },
  },
};
const MSG_ARRAY_BODY = { type: 'array', items: { type: 'object', required: ['msg'], properties: { msg: { type: 'string' } } } };

/** JSON Schema of a valibot schema; checks with no JSON Schema form (custom rules) are left out, not fatal. */
const schemaOf = (schema: v.GenericSchema) => toJsonSchema(schema, { errorMode: 'ignore' });

/** The entries of an object schema (params, query), each with whether it may be left out. */
function entriesOf(schema: v.GenericSchema | undefined): [string, v.GenericSchema, boolean][] {
  const entries = (schema as { entries?: Record<string, v.GenericSchema> } | undefined)?.entries ?? {};
  return Object.entries(entries).map(([name, entry]) => [name, entry, entry.type === 'optional']);
}

/**
 * The OpenAPI 3.1 document of every route, generated from the same route records that build the router:
 * path and query parameters, request and response bodies from their valibot schemas, and the typed error
 * kinds of each route plus those its pipeline answers on every route of its kind.
 */
export function openApiDocument(routes: RouteSpec[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const parameters: Record<string, unknown>[] = [];
    for (const [name, entry] of entriesOf(route.params)) parameters.push({ name, in: 'path', required: true, schema: schemaOf(entry) });
    for (const [name, entry, optional] of entriesOf(route.query)) parameters.push({ name, in: 'query', required: !optional, schema: schemaOf(entry) });
    if (route.conditional) parameters.push({ name: 'If-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'The flag version (`ETag`) the write is conditional on' });
    const success: Record<string, unknown> = { description: route.success.description };
    if (route.success.schema) success['content'] = { 'application/json': { schema: schemaOf(route.success.schema) } };
    const responses: Record<string, unknown> = { [String(route.success.status)]: success };
    // The pipeline answers these on every route of its kind, whatever the route declares.
    const implied: ErrorKind[] = [
      'ValidationError', ...(route.authentication === 'none' ? [] : ['AuthenticationRequired', 'NoAccessError'] as const),
      ...(route.path.includes(':projectId') ? ['NotFoundError', 'Unavailable'] as const : []),
      ...(route.body ? ['PayloadTooLarge', 'ContentTypeError'] as const : []),
      ...(route.conditional ? ['PreconditionFailed'] as const : []),
      // Any write may meet a disk that refuses it (src/app.ts answers the StorageError).
      ...(route.method !== 'get' ? ['StorageUnavailable'] as const : []),
    ];
    for (const kind of [...implied, ...(route.errors ?? [])]) {
      const status = String(STATUS[kind]);
      const body = route.errorBody === 'msg-array' && status === '400' ? MSG_ARRAY_BODY
        : route.errorBody === 'ofrep' && (status === '400' || status === '404') ? OFREP_ERROR_BODY : ERROR_BODY;
      responses[status] ??= { description: kind, content: { 'application/json': { schema: body } } };
    }
    paths[path] ??= {};
    paths[path][route.method] = {
      tags: [route.tag],
      summary: route.summary,
      operationId: `${route.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
      'x-permission': route.permission,
      ...(route.authentication === 'ticket' ? { security: [], description: 'Authenticated by the `ticket` query parameter (a short-lived stream ticket from the bulk answer\'s `eventStreams`), not the `Authorization` header.' } : {}),
      ...(route.authentication === 'none' ? { security: [], description: 'Public: no `Authorization` header is needed or read.' } : {}),
      parameters,
      ...(route.body ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: schemaOf(route.body) } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'flagpole admin API', version, description: 'The Unleash admin API as flagpole serves it; see docs/api-decisions.md.' },
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    security: [{ apiKey: [] }],
    paths,
  };
}
